import { z } from "zod";

// How the event log shows what is stored: the service's answer, JSON as sent, order links.
// Pure, so the loaders and the unit tests share it.

/** What a retry from the event log answers; the page shows it as a Toast. */
export type EventLogActionResult =
  | { intent: "retry"; outcome: "retried" | "not_retryable"; id: number; status: string }
  | { intent: "retry_dead"; outcome: "retried"; count: number }
  | { intent: "run_action"; outcome: "requested" | "not_runnable"; id: number; status: string };

export interface ValidationError {
  field: string | null;
  message: string;
}

export interface ServiceAnswer {
  /** The HTTP status of the last attempt; null when none came back (time-out, network). */
  status: number | null;
  errorCode: string | null;
  /** The service's `error.validation_errors` of a 400. */
  validationErrors: ValidationError[];
  /** Our one-line description of a failure that had no body to keep. */
  summary: string | null;
}

// What app/outbox/deliver.server.ts stores in lastResponse: {status, body} on success,
// {status: 400, error: {error_code, validation_errors}} on a validation error, and
// {status, summary} otherwise. The spec does not show a validation error's shape; the
// emulator's (and so most likely the service's) is {field, message}.
const storedAnswer = z.object({
  status: z.number().int().nullish(),
  summary: z.string().nullish(),
  error: z
    .object({
      error_code: z.string().nullish(),
      validation_errors: z.array(z.unknown()).nullish(),
    })
    .nullish(),
});

function toValidationError(entry: unknown): ValidationError {
  if (typeof entry === "string") return { field: null, message: entry };
  if (typeof entry === "object" && entry !== null) {
    const { field, path, message } = entry as Record<string, unknown>;
    const where = typeof field === "string" ? field : typeof path === "string" ? path : null;
    if (typeof message === "string") return { field: where, message };
  }
  return { field: null, message: JSON.stringify(entry) };
}

/** The service's answer as stored on an outbox event; null when there was none yet. */
export function parseServiceAnswer(lastResponse: string | null | undefined): ServiceAnswer | null {
  if (!lastResponse) return null;
  let json: unknown;
  try {
    json = JSON.parse(lastResponse);
  } catch {
    return { status: null, errorCode: null, validationErrors: [], summary: lastResponse };
  }
  const parsed = storedAnswer.safeParse(json);
  if (!parsed.success)
    return { status: null, errorCode: null, validationErrors: [], summary: null };
  const { status, summary, error } = parsed.data;
  return {
    status: status ?? null,
    errorCode: error?.error_code ?? null,
    validationErrors: (error?.validation_errors ?? []).map(toValidationError),
    summary: summary ?? null,
  };
}

/**
 * JSON text indented for reading, token by token, so that what is shown is exactly what was
 * sent: `JSON.parse` would round order and line IDs above 2^53. Text that is not JSON (a raw
 * webhook body kept because it could not be read) comes back as it is.
 */
export function formatJson(text: string, indent = 2): string {
  try {
    JSON.parse(text);
  } catch {
    return text;
  }
  const pad = (depth: number) => `\n${" ".repeat(depth * indent)}`;
  let out = "";
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      // Copy the whole string, escapes included.
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end;
      continue;
    }
    switch (char) {
      case "{":
      case "[": {
        let next = i + 1;
        while (/\s/.test(text[next] ?? "")) next++;
        if (text[next] === (char === "{" ? "}" : "]")) {
          out += char + text[next];
          i = next;
        } else {
          depth++;
          out += char + pad(depth);
        }
        break;
      }
      case "}":
      case "]":
        depth--;
        out += pad(depth) + char;
        break;
      case ",":
        out += `,${pad(depth)}`;
        break;
      case ":":
        out += ": ";
        break;
      case " ":
      case "\t":
      case "\n":
      case "\r":
        break;
      default:
        out += char;
    }
  }
  return out;
}

/** How the admin names an order: its name ("#1001") when known, else its numeric ID. */
export function orderLabel(order: { orderId: string; orderName: string | null }): string {
  return order.orderName ?? order.orderId;
}

/**
 * The order in the Shopify admin. App Bridge resolves `shopify:admin/…` to the merchant's store
 * when the link opens in the top window (`target="_top"`).
 */
export function orderAdminUrl(orderId: string): string {
  return `shopify:admin/orders/${encodeURIComponent(orderId)}`;
}

/** A 2xx without an `event_id`: delivered, with the body as the service sent it. */
export interface AcceptedWithoutEventId {
  httpStatus: number | null;
  /** The body as received; null when the stored answer does not hold it. */
  raw: string | null;
}

const storedRawAnswer = z.object({ status: z.number().int().nullish(), raw: z.string() });

/**
 * A delivered event without a service event ID was accepted by a 2xx whose body had no
 * `event_id` (decision 018): what the service sent back is all there is to show for it.
 */
export function acceptedWithoutEventIdOf(event: {
  eventType: string;
  status: string;
  serviceEventId: string | null;
  lastResponse: string | null;
}): AcceptedWithoutEventId | null {
  if (event.status !== "delivered" || event.serviceEventId !== null) return null;
  // A checkout confirmation's answer repeats it, with no event_id by design (decision 033).
  if (event.eventType === "cart_checkout") return null;
  let json: unknown = null;
  try {
    json = event.lastResponse ? JSON.parse(event.lastResponse) : null;
  } catch {
    return { httpStatus: null, raw: event.lastResponse };
  }
  const parsed = storedRawAnswer.safeParse(json);
  if (!parsed.success) {
    return { httpStatus: parseServiceAnswer(event.lastResponse)?.status ?? null, raw: null };
  }
  return { httpStatus: parsed.data.status ?? null, raw: parsed.data.raw };
}

/** A logged send as the event page shows it. */
export interface LoggedAttempt {
  attempt: number;
  /** delivered | retry | dead | pause_shop | lost_claim */
  outcome: string;
  httpStatus: number | null;
  workerId: string;
  environment: string;
  detail: string | null;
  startedAt: string;
  durationMs: number;
  /** The send's Idempotency-Key when it is not the event's (a row older than the derivation). */
  otherKey: string | null;
}

/** The event page's attempt log: what `loadAttemptLog` answers. */
export interface AttemptLog extends AttemptTimeline<LoggedAttempt> {
  idempotencyKey: string;
  loggedTotal: number;
}

/** One line of an event's attempt log: a logged send, sends with no outcome, or one under way. */
export type AttemptEntry<Logged> =
  | { kind: "logged"; attempt: Logged }
  | { kind: "cut_off"; from: number; to: number }
  | { kind: "sending"; number: number };

export interface AttemptTimeline<Logged> {
  entries: AttemptEntry<Logged>[];
  /** Sends started but never logged, and not under way: a worker stopped mid-send. */
  cutOff: number;
  /** Logged sends older than the page shown. */
  earlierLogged: number;
}

/**
 * An event's sends in order, with the gaps made visible. The event's `attempts` counts every
 * send started (before it goes out), and a row is logged only once its outcome is known, so a
 * number without a row is a send cut off, except the last while a worker still holds the event.
 * `logged` is the latest page of rows, ascending; `loggedTotal` counts all of them.
 */
export function attemptTimeline<Logged extends { attempt: number }>(
  logged: Logged[],
  facts: { sendsStarted: number; loggedTotal: number; sending: boolean },
): AttemptTimeline<Logged> {
  const numbers = new Set(logged.map((row) => row.attempt));
  const sendingNumber =
    facts.sending && facts.sendsStarted > 0 && !numbers.has(facts.sendsStarted)
      ? facts.sendsStarted
      : null;
  const earlierLogged = Math.max(0, facts.loggedTotal - logged.length);
  const entries: AttemptEntry<Logged>[] = [];
  // The page starts at its first row when older rows are left out: gaps before it are counted
  // in `cutOff` but not placed.
  let next = earlierLogged > 0 && logged.length > 0 ? logged[0]!.attempt : 1;
  const gapUpTo = (before: number) => {
    if (before > next) entries.push({ kind: "cut_off", from: next, to: before - 1 });
  };
  for (const row of logged) {
    gapUpTo(row.attempt);
    entries.push({ kind: "logged", attempt: row });
    next = Math.max(next, row.attempt + 1);
  }
  const lastStarted = sendingNumber ?? facts.sendsStarted + 1;
  gapUpTo(lastStarted);
  if (sendingNumber !== null) entries.push({ kind: "sending", number: sendingNumber });
  return {
    entries,
    cutOff: Math.max(0, facts.sendsStarted - facts.loggedTotal - (sendingNumber === null ? 0 : 1)),
    earlierLogged,
  };
}

/** A send's duration in the admin's language: milliseconds below a second, else seconds. */
export function formatDuration(ms: number, locale: string): string {
  const clamped = Math.max(0, ms);
  if (clamped < 1_000) {
    return new Intl.NumberFormat(locale, {
      style: "unit",
      unit: "millisecond",
      unitDisplay: "short",
      maximumFractionDigits: 0,
    }).format(clamped);
  }
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: "second",
    unitDisplay: "short",
    maximumFractionDigits: 1,
  }).format(clamped / 1_000);
}
