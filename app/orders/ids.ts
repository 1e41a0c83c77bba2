/**
 * A Shopify ID as a decimal string. Numbers are stringified as they are: an ID above 2^53 that
 * was parsed as a number has already lost digits, which is why webhooks go through
 * parseWebhookJson. Strings (as parseWebhookJson gives for large IDs) are kept as they are.
 * Anything that is not a non-negative integer or a non-empty string gives null.
 */
export function idString(value: unknown): string | null {
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0 || value >= 1e21) return null;
    return String(value);
  }
  if (typeof value === "string") return value === "" ? null : value;
  return null;
}
