import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from "./graphql-js";

/*
 * Shopify's custom scalars, strict. Built from the introspection they have no rules and accept
 * any value, so a price sent as a number or a date in the wrong shape would pass here and fail
 * on Shopify. Each one accepts only the text Shopify documents and answers graphql-ruby's
 * coercion message otherwise.
 */

const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const DIGITS = /^\d+$/;
const MAX_UNSIGNED_INT64 = 2n ** 64n - 1n;
const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function coercionError(value: unknown, scalar: string): GraphQLError {
  return new GraphQLError(`Could not coerce value ${JSON.stringify(value)} to ${scalar}`);
}

/**
 * A literal in the query that the scalar refuses. A plain Error, not a GraphQLError: graphql-js's
 * validation then reports it with the literal's node, which the Shopify-shaped error needs.
 */
function literalError(node: ValueNode, scalar: string): Error {
  return new Error(`Could not coerce value ${print(node)} to ${scalar}`);
}

/** A scalar read from a string (in variables and in literals) and written as a string. */
function stringScalar(
  name: string,
  description: string,
  accepts: (text: string) => boolean,
  write: (value: unknown) => string | null,
): GraphQLScalarType {
  const parseValue = (value: unknown): string => {
    if (typeof value !== "string" || !accepts(value)) throw coercionError(value, name);
    return value;
  };
  return new GraphQLScalarType({
    name,
    description,
    parseValue,
    parseLiteral(node) {
      if (node.kind !== Kind.STRING || !accepts(node.value)) throw literalError(node, name);
      return node.value;
    },
    serialize(value) {
      const written = write(value);
      if (written === null) {
        throw new GraphQLError(`The local store resolved ${JSON.stringify(value)} as ${name}`);
      }
      return written;
    },
  });
}

const isDecimal = (text: string) => DECIMAL.test(text);

function writeDecimal(value: unknown): string | null {
  if (typeof value === "string" && DECIMAL.test(value)) return value;
  return null;
}

function isUnsignedInt64(text: string): boolean {
  return DIGITS.test(text) && BigInt(text) <= MAX_UNSIGNED_INT64;
}

function writeUnsignedInt64(value: unknown): string | null {
  const text = typeof value === "bigint" ? value.toString() : value;
  return typeof text === "string" && isUnsignedInt64(text) ? text : null;
}

function isDateTime(text: string): boolean {
  return ISO_8601.test(text) && !Number.isNaN(Date.parse(text));
}

/** Shopify writes times in UTC to the second: "2026-11-24T10:00:00Z". */
function writeDateTime(value: unknown): string | null {
  if (typeof value !== "string" || !isDateTime(value)) return null;
  return new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function isAbsoluteUrl(text: string): boolean {
  return URL_SCHEME.test(text) && URL.canParse(text);
}

export const strictScalars = {
  Money: stringScalar(
    "Money",
    'A monetary value string without a currency symbol or code, e.g. "100.57".',
    isDecimal,
    writeDecimal,
  ),
  Decimal: stringScalar(
    "Decimal",
    'A signed decimal number serialized as a string, e.g. "29.99".',
    isDecimal,
    writeDecimal,
  ),
  UnsignedInt64: stringScalar(
    "UnsignedInt64",
    "An unsigned 64-bit integer written as a string of base-10 digits.",
    isUnsignedInt64,
    writeUnsignedInt64,
  ),
  DateTime: stringScalar(
    "DateTime",
    'An ISO 8601 date and time string, e.g. "2019-09-07T15:50:00Z".',
    isDateTime,
    writeDateTime,
  ),
  URL: stringScalar(
    "URL",
    'An absolute RFC 3986 URI string, e.g. "https://example.myshopify.com".',
    isAbsoluteUrl,
    (value) => (typeof value === "string" && isAbsoluteUrl(value) ? value : null),
  ),
};
