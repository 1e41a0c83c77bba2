const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * Any ISO 8601 date-time with a UTC offset ("2021-12-31T19:00:00-05:00") as the service's
 * form, UTC with milliseconds ("2022-01-01T00:00:00.000Z"). Digits beyond milliseconds are cut.
 */
export function toServiceTimestamp(value: string): string {
  const match = ISO_8601.exec(value);
  const invalid = () =>
    new Error(
      `Cannot read ${JSON.stringify(value)} as an ISO 8601 timestamp with a UTC offset, such as "2025-01-31T12:00:00+01:00"`,
    );
  if (!match) throw invalid();
  const [, year, month, day, hour, minute, second = "00", fraction = "", offset = "Z"] = match;
  const parts = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = parts;
  const milliseconds = Number(fraction.slice(0, 3).padEnd(3, "0"));
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, milliseconds);
  // setUTC* roll over silently (Feb 30 becomes Mar 2), so the fields must read back unchanged.
  const fieldsHold =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  const offsetMinutes = parseOffsetMinutes(offset);
  if (!fieldsHold || offsetMinutes === null) throw invalid();
  const utc = new Date(date.getTime() - offsetMinutes * 60_000);
  const result = utc.toISOString();
  if (!/^\d{4}-/.test(result)) throw invalid();
  return result;
}

function parseOffsetMinutes(offset: string): number | null {
  if (offset === "Z" || offset === "z") return 0;
  const sign = offset.startsWith("-") ? -1 : 1;
  const digits = offset.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}
