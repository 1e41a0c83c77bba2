/*
 * Timestamps as Shopify's webhooks write them: whole seconds in the shop's time zone with its
 * offset ("2026-11-24T10:00:00-05:00"), or "Z" for a shop on UTC (Rails' xmlschema). The store
 * keeps ISO instants; the shop's IANA zone gives the offset at that instant, daylight saving
 * included.
 */

const UTC_ZONES = new Set(["UTC", "Etc/UTC"]);

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Minutes east of UTC. */
  offsetMinutes: number;
}

function localTime(instant: Date, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const field = (name: string): number => {
    const value = parts[name];
    if (value === undefined || Number.isNaN(value)) {
      throw new Error(`Cannot read the ${name} of ${instant.toISOString()} in ${timeZone}`);
    }
    return value;
  };
  const local = {
    year: field("year"),
    month: field("month"),
    day: field("day"),
    hour: field("hour"),
    minute: field("minute"),
    second: field("second"),
  };
  const asUtc = Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second,
  );
  const wholeSeconds = Math.floor(instant.getTime() / 1000) * 1000;
  return { ...local, offsetMinutes: Math.round((asUtc - wholeSeconds) / 60_000) };
}

function instantOf(iso: string): Date {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) {
    throw new Error(`Cannot write ${JSON.stringify(iso)} as a Shopify timestamp: not a date`);
  }
  return instant;
}

const two = (value: number): string => String(value).padStart(2, "0");

function offsetText(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const magnitude = Math.abs(offsetMinutes);
  return `${sign}${two(Math.floor(magnitude / 60))}:${two(magnitude % 60)}`;
}

/** An ISO instant as Shopify writes it for a shop in `timeZone`: "2026-11-24T10:00:00-05:00". */
export function shopTimestamp(iso: string, timeZone: string): string {
  const instant = instantOf(iso);
  if (UTC_ZONES.has(timeZone)) return `${instant.toISOString().slice(0, 19)}Z`;
  const local = localTime(instant, timeZone);
  const date = `${String(local.year).padStart(4, "0")}-${two(local.month)}-${two(local.day)}`;
  const time = `${two(local.hour)}:${two(local.minute)}:${two(local.second)}`;
  return `${date}T${time}${offsetText(local.offsetMinutes)}`;
}

/** An optional timestamp: null stays null, as Shopify writes `cancelled_at` of a live order. */
export function shopTimestampOrNull(iso: string | null, timeZone: string): string | null {
  return iso === null ? null : shopTimestamp(iso, timeZone);
}

/** The shop's `timezone` label, "(GMT-05:00) America/New_York", at the given instant. */
export function timeZoneLabel(iso: string, timeZone: string): string {
  const offset = UTC_ZONES.has(timeZone) ? 0 : localTime(instantOf(iso), timeZone).offsetMinutes;
  return `(GMT${offsetText(offset)}) ${timeZone}`;
}
