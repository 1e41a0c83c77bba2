/*
 * Shopify's IDs: the decimal strings of webhook payloads, the global IDs of the Admin API
 * (`gid://shopify/ProductVariant/123`), and the numeric IDs the service uses.
 */

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

const GID = /^gid:\/\/shopify\/(\w+)\/(\d+)(?:\?.*)?$/;

export type ShopifyResource =
  | "Product"
  | "ProductVariant"
  | "Order"
  | "LineItem"
  | "Refund"
  | "Fulfillment"
  | "FulfillmentOrder";

/** The global ID of a resource from its numeric ID. */
export function shopifyGid(type: ShopifyResource, numericId: string): string {
  return `gid://shopify/${type}/${numericId}`;
}

/** The numeric ID of a global ID of the given type, or null when it is not one. */
export function numericIdOf(gid: string, type: ShopifyResource): string | null {
  const match = GID.exec(gid);
  return match && match[1] === type ? (match[2] ?? null) : null;
}

export function isResourceGid(value: string): boolean {
  return numericIdOf(value, "Product") !== null || numericIdOf(value, "ProductVariant") !== null;
}

/** The numeric part of any resource's global ID, or null when it is not a global ID. */
export function gidNumber(gid: string): string | null {
  return GID.exec(gid)?.[2] ?? null;
}
