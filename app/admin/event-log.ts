import { z } from "zod";

// How the event log shows what is stored: the service's answer, JSON as sent, order links.
// Pure, so the loaders and the unit tests share it.

/** What a retry from the event log answers; the page shows it as a Toast. */
export type EventLogActionResult =
  | { intent: "retry"; outcome: "retried" | "not_retryable"; id: number; status: string }
  | { intent: "retry_dead"; outcome: "retried"; count: number };

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

/**
 * The order in the Shopify admin. App Bridge resolves `shopify:admin/…` to the merchant's store
 * when the link opens in the top window (`target="_top"`).
 */
export function orderAdminUrl(orderId: string): string {
  return `shopify:admin/orders/${encodeURIComponent(orderId)}`;
}
