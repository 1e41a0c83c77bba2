// Reading untyped webhook JSON field by field. Every problem names the field's path, so that an
// unprocessable webhook says exactly what was wrong with it.
import { idString } from "../lib/shopify-id";
import { toMinorUnits } from "../lib/money";
import { toServiceTimestamp } from "./timestamps";

/** Thrown inside the mappers only; mapOrderWebhook turns it into an "unprocessable" result. */
export class UnprocessablePayload extends Error {
  override name = "UnprocessablePayload";
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function fieldPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

export function fail(reason: string): never {
  throw new UnprocessablePayload(reason);
}

export function requireObject(value: unknown, path: string): JsonObject {
  if (isAbsent(value)) fail(`${path} is missing`);
  if (!isJsonObject(value)) fail(`${path} is not an object`);
  return value;
}

export function requireArray(value: unknown, path: string): unknown[] {
  if (isAbsent(value)) fail(`${path} is missing`);
  if (!Array.isArray(value)) fail(`${path} is not an array`);
  return value;
}

/** An absent array is empty; anything else that is not an array is a problem. */
export function optionalArray(value: unknown, path: string): unknown[] {
  return isAbsent(value) ? [] : requireArray(value, path);
}

export function requireId(value: unknown, path: string): string {
  if (isAbsent(value) || value === "") fail(`${path} is missing`);
  const id = idString(value);
  if (id === null) fail(`${path} is not an ID: ${describe(value)}`);
  return id;
}

export function requireQuantity(value: unknown, path: string): number {
  if (isAbsent(value)) fail(`${path} is missing`);
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    fail(`${path} is not a whole number of at least 0: ${describe(value)}`);
  }
  return value;
}

/** A line of a payload's array of lines: the line item it names and how many of it. */
export interface LineQuantity {
  line: JsonObject;
  lineItemId: string;
  quantity: number;
}

/**
 * The lines of an array with a quantity above 0, each read as a line item ID (`idKey`, or
 * `idOf` where Shopify may put it elsewhere) and a quantity (`quantityKey`). Read line by line
 * as the caller iterates, so that the first problem in the payload is the one named.
 */
export function* lineQuantities(
  lines: unknown[],
  path: string,
  fields: { idKey: string; quantityKey: string; idOf?: (line: JsonObject) => unknown },
): Generator<LineQuantity> {
  for (const [index, raw] of lines.entries()) {
    const linePath = fieldPath(path, index);
    const line = requireObject(raw, linePath);
    const id = fields.idOf ? fields.idOf(line) : line[fields.idKey];
    const lineItemId = requireId(id, fieldPath(linePath, fields.idKey));
    const quantity = requireQuantity(
      line[fields.quantityKey],
      fieldPath(linePath, fields.quantityKey),
    );
    if (quantity > 0) yield { line, lineItemId, quantity };
  }
}

/** A string field, a number as its decimal text, and "" for anything else. */
export function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "";
}

/** The first value that is present and not an empty string, with the key it came from. */
export function firstPresent(
  object: JsonObject,
  keys: readonly string[],
): { key: string; value: unknown } | null {
  for (const key of keys) {
    const value = object[key];
    if (!isAbsent(value) && value !== "") return { key, value };
  }
  return null;
}

/** The first of `keys` that is present, as a service timestamp. */
export function requireTimestamp(object: JsonObject, keys: readonly string[], parent = ""): string {
  const found = firstPresent(object, keys);
  if (found === null) {
    const paths = keys.map((key) => fieldPath(parent, key));
    fail(`${paths.join(" and ")} ${paths.length === 1 ? "is" : "are"} missing`);
  }
  const path = fieldPath(parent, found.key);
  if (typeof found.value !== "string") fail(`${path} is not a string: ${describe(found.value)}`);
  try {
    return toServiceTimestamp(found.value);
  } catch (error) {
    return fail(`${path} is invalid: ${(error as Error).message}`);
  }
}

export function requireMinorUnits(value: unknown, path: string, currency: string): number {
  if (isAbsent(value) || value === "") fail(`${path} is missing`);
  if (typeof value !== "string" && typeof value !== "number") {
    fail(`${path} is not an amount: ${describe(value)}`);
  }
  try {
    return toMinorUnits(value, currency);
  } catch (error) {
    return fail(`${path} is invalid: ${(error as Error).message}`);
  }
}
