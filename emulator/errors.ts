import type { FastifySchemaValidationError } from "fastify";
import { formatMessages } from "./schemas";

/*
 * Error bodies follow the spec's shape, `{"error": {"error_code", "validation_errors"}}`.
 * The spec leaves the codes and the entry shape open; the emulator's choices are listed in
 * docs/emulator.md (decision 004).
 */

export const ERROR_CODES = {
  unauthorized: "unauthorized",
  unsupportedVersion: "unsupported_version",
  validationFailed: "validation_failed",
  invalidJson: "invalid_json",
  unsupportedMediaType: "unsupported_media_type",
  payloadTooLarge: "payload_too_large",
  notFound: "not_found",
  orderNotFound: "order_not_found",
  noPlanAvailable: "no_plan_available",
  injectedFault: "injected_fault",
  internalError: "internal_error",
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export interface ValidationErrorEntry {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: { error_code: ErrorCode; validation_errors: ValidationErrorEntry[] };
}

export function errorBody(
  errorCode: ErrorCode,
  validationErrors: ValidationErrorEntry[] = [],
): ErrorBody {
  return { error: { error_code: errorCode, validation_errors: validationErrors } };
}

/** The part of the request a validation error is about, as fastify names it. */
export type RequestPart = "body" | "querystring" | "headers" | "params";

const PART_PREFIXES: Record<RequestPart, string> = {
  body: "",
  querystring: "query",
  headers: "headers",
  params: "params",
};

/**
 * Field paths: body fields are written from the body's root (`payload.line_items[0].price_amount`);
 * other parts carry a prefix (`query.price_amount`, `headers.svc-version`). The body itself is `body`.
 */
export function toFieldPath(part: RequestPart, segments: readonly string[]): string {
  let path = "";
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path === "" ? segment : `.${segment}`;
  }
  const prefix = PART_PREFIXES[part];
  if (prefix === "") return path === "" ? "body" : path;
  if (path === "") return prefix;
  return path.startsWith("[") ? `${prefix}${path}` : `${prefix}.${path}`;
}

function decodeJsonPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function stringParam(error: FastifySchemaValidationError, name: string): string | undefined {
  const value = error.params[name];
  return typeof value === "string" ? value : undefined;
}

function describeAjvError(error: FastifySchemaValidationError): {
  extraSegment?: string;
  message: string;
} {
  switch (error.keyword) {
    case "required":
      return { extraSegment: stringParam(error, "missingProperty"), message: "is required" };
    case "additionalProperties":
      return { extraSegment: stringParam(error, "additionalProperty"), message: "is not allowed" };
    case "discriminator": {
      const tag = stringParam(error, "tag");
      const message =
        stringParam(error, "error") === "mapping"
          ? "must be one of order_placed, order_fulfillment_added, order_refund_added, order_line_items_cancelled, order_cancelled"
          : "must be a string";
      return { extraSegment: tag, message };
    }
    case "format": {
      const format = stringParam(error, "format") ?? "";
      return { message: formatMessages[format] ?? error.message ?? "has the wrong format" };
    }
    case "enum": {
      const allowed = error.params.allowedValues;
      return {
        message: Array.isArray(allowed)
          ? `must be one of ${allowed.join(", ")}`
          : "is not an allowed value",
      };
    }
    default:
      return { message: error.message ?? `failed the ${error.keyword} rule` };
  }
}

/** Turns Ajv's errors into `validation_errors` entries, one per distinct field and problem. */
export function toValidationErrors(
  part: RequestPart,
  ajvErrors: readonly FastifySchemaValidationError[],
): ValidationErrorEntry[] {
  const entries: ValidationErrorEntry[] = [];
  const seen = new Set<string>();
  for (const ajvError of ajvErrors) {
    // `if` only reports that its `then`/`else` branch failed; that branch's own errors say why.
    if (ajvError.keyword === "if") continue;
    const { extraSegment, message } = describeAjvError(ajvError);
    const segments = decodeJsonPointer(ajvError.instancePath);
    if (extraSegment !== undefined) segments.push(extraSegment);
    const field = toFieldPath(part, segments);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({ field, message });
  }
  return entries;
}
