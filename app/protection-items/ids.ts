/** Shopify global IDs (`gid://shopify/ProductVariant/123`) and the numeric IDs the service uses. */

const GID = /^gid:\/\/shopify\/(\w+)\/(\d+)(?:\?.*)?$/;

export type ShopifyResource = "Product" | "ProductVariant";

/** The numeric ID of a global ID of the given type, or null when it is not one. */
export function numericIdOf(gid: string, type: ShopifyResource): string | null {
  const match = GID.exec(gid);
  return match && match[1] === type ? (match[2] ?? null) : null;
}

export function isResourceGid(value: string): boolean {
  return numericIdOf(value, "Product") !== null || numericIdOf(value, "ProductVariant") !== null;
}
