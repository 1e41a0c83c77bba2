/*
 * JSON as Shopify writes it: IDs are bare JSON numbers even above 2^53 (e.g.
 * 9007199254740993), where JSON.stringify of a JS number would round them. A payload is built as a
 * `JsonValue` whose IDs are `JsonInteger`s (exact decimal digits) and written by `toShopifyJson`.
 */

/** An integer written as its exact decimal digits, unquoted, whatever its size. */
export class JsonInteger {
  readonly digits: string;

  constructor(value: string | number | bigint) {
    const digits = typeof value === "string" ? value : String(value);
    if (
      !/^-?(0|[1-9]\d*)$/.test(digits) ||
      (typeof value === "number" && !Number.isSafeInteger(value))
    ) {
      throw new Error(
        `Cannot write ${JSON.stringify(String(value))} as a JSON integer: not an exact integer`,
      );
    }
    this.digits = digits;
  }
}

export type JsonValue =
  null | boolean | number | string | JsonInteger | JsonValue[] | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

/** A Shopify numeric ID (a decimal string in the store's model) as an exact JSON number. */
export function jsonId(id: string): JsonInteger {
  return new JsonInteger(id);
}

/** An optional ID: null stays null, as Shopify writes a missing `variant_id` or `parent_id`. */
export function jsonIdOrNull(id: string | null): JsonInteger | null {
  return id === null ? null : new JsonInteger(id);
}

/**
 * The value as compact JSON text, keys in insertion order, `JsonInteger`s as bare digits.
 * Throws for a number JSON cannot hold (NaN, Infinity) and for an integer number beyond 2^53,
 * which has already lost digits: such a value must come as a `JsonInteger`.
 */
export function toShopifyJson(value: JsonValue): string {
  const parts: string[] = [];
  write(value, parts, "$");
  return parts.join("");
}

function write(value: JsonValue, parts: string[], path: string): void {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    parts.push(JSON.stringify(value));
  } else if (typeof value === "number") {
    if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
      throw new Error(`Cannot write ${String(value)} at ${path} as JSON: not an exact number`);
    }
    parts.push(JSON.stringify(value));
  } else if (value instanceof JsonInteger) {
    parts.push(value.digits);
  } else if (Array.isArray(value)) {
    parts.push("[");
    value.forEach((element, index) => {
      if (index > 0) parts.push(",");
      write(element, parts, `${path}[${index}]`);
    });
    parts.push("]");
  } else {
    parts.push("{");
    let first = true;
    for (const [key, element] of Object.entries(value)) {
      if (!first) parts.push(",");
      first = false;
      parts.push(JSON.stringify(key), ":");
      write(element, parts, `${path}.${key}`);
    }
    parts.push("}");
  }
}
