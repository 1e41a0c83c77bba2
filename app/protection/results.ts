// Every client call resolves to one of these; expected failures are values, never thrown.

export type Success<T> = { kind: "success"; status: number; data: T };

export type ValidationErrorResult = {
  kind: "validation_error";
  status: 400;
  errorCode: string;
  validationErrors: unknown[];
};

export type UnauthorizedResult = { kind: "unauthorized"; status: 401; errorCode?: string };

export type NotFoundResult = { kind: "not_found"; status: 404; errorCode?: string };

export type RetryableReason =
  "server_error" | "rate_limited" | "network" | "timeout" | "invalid_response";

export type RetryableResult = {
  kind: "retryable";
  reason: RetryableReason;
  status?: number;
  retryAfterMs?: number;
  message: string;
};

/** Any other 4xx (403, 409, 422, ...) and unexpected statuses: sending again will not help. */
export type RejectedResult = {
  kind: "rejected";
  status: number;
  errorCode?: string;
  message: string;
};

export type ServiceFailure =
  ValidationErrorResult | UnauthorizedResult | NotFoundResult | RetryableResult | RejectedResult;

export type ServiceResult<T> = Success<T> | ServiceFailure;

export type ServiceResultKind = ServiceResult<unknown>["kind"];

export function isSuccess<T>(result: ServiceResult<T>): result is Success<T> {
  return result.kind === "success";
}

export function isRetryable(result: ServiceResult<unknown>): result is RetryableResult {
  return result.kind === "retryable";
}

/** The error_code the service sent, when there was one. */
export function errorCodeOf(result: ServiceResult<unknown>): string | undefined {
  return result.kind === "success" || result.kind === "retryable" ? undefined : result.errorCode;
}

const MAX_LISTED_VALIDATION_ERRORS = 5;

function describeValidationEntry(entry: unknown): string {
  if (typeof entry === "object" && entry !== null) {
    const { field, message } = entry as { field?: unknown; message?: unknown };
    if (typeof field === "string" && typeof message === "string") return `${field}: ${message}`;
    if (typeof message === "string") return message;
  }
  if (typeof entry === "string") return entry;
  return JSON.stringify(entry) ?? String(entry);
}

function withCode(status: number, errorCode: string | undefined): string {
  return errorCode === undefined ? `${status}` : `${status} ${errorCode}`;
}

/**
 * A one-line, log-safe description of a result. It is built only from the result's
 * fields, which the client has already cleared of the secret key.
 */
export function describeResult(result: ServiceResult<unknown>): string {
  switch (result.kind) {
    case "success":
      return `success (${result.status})`;
    case "validation_error": {
      const count = result.validationErrors.length;
      const listed = result.validationErrors
        .slice(0, MAX_LISTED_VALIDATION_ERRORS)
        .map(describeValidationEntry);
      const more = count > listed.length ? `; and ${count - listed.length} more` : "";
      const details = count === 0 ? "" : `: ${listed.join("; ")}${more}`;
      return `validation error (${withCode(400, result.errorCode)}), ${count} validation error${count === 1 ? "" : "s"}${details}`;
    }
    case "unauthorized":
      return `unauthorized (${withCode(401, result.errorCode)}): the service refused the secret key; check that the key belongs to the configured environment`;
    case "not_found":
      return `not found (${withCode(404, result.errorCode)})`;
    case "retryable": {
      const status = result.status === undefined ? "" : ` ${result.status}`;
      const retryAfter =
        result.retryAfterMs === undefined ? "" : `; retry after ${result.retryAfterMs} ms`;
      return `retryable ${result.reason}${status}: ${result.message}${retryAfter}`;
    }
    case "rejected":
      return `rejected (${withCode(result.status, result.errorCode)}): ${result.message}`;
  }
}

/**
 * Retry-After as milliseconds from `now`: delta-seconds or an HTTP date.
 * Unparseable values give undefined; dates in the past give 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // A date must name a weekday or month; this keeps Date.parse from accepting bare numbers.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
