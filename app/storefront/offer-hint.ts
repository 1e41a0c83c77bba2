/*
 * The offer block's layout hint (decision 014). The block reserves the height of two plans while
 * it asks for them, so that plans arriving move nothing (CLS 0). On a variant without plans that
 * reserved space would collapse and move the page, so the app tells the block in advance: each
 * product carries, in its app-owned metafield, the variants the storefront learned have no plans.
 * Pure: the value's rules and its metafield input; the database and Shopify are in
 * offer-hints.server.ts.
 */

/** Where the hint lives: the product metafield `$app.plan_availability`, declared in shopify.app.toml. */
export const OFFER_HINT_METAFIELD = {
  namespace: "$app",
  key: "plan_availability",
  type: "json",
} as const;

/**
 * At most this many variants are listed per product: Shopify's variant limit per product, so
 * every variant fits, and the value stays a few tens of kilobytes at most.
 */
export const MAX_HINTED_VARIANTS = 2048;

/** The stored list: variant IDs, digits only, sorted, no duplicates. Anything else reads as none. */
export function readHintedVariants(stored: string | null | undefined): string[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    if (!Array.isArray(value)) return [];
    return normalize(
      value.filter((id): id is string => typeof id === "string" && /^\d+$/.test(id)),
    );
  } catch {
    return [];
  }
}

function normalize(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort().slice(0, MAX_HINTED_VARIANTS);
}

/**
 * The list after a lookup: a variant without plans joins it, a variant with plans leaves it.
 * `undefined` when the list does not change, which is the case for nearly every page view.
 */
export function nextHintedVariants(
  current: readonly string[],
  variantId: string,
  offered: boolean,
): string[] | undefined {
  const listed = current.includes(variantId);
  if (listed !== offered) return undefined;
  if (offered) return current.filter((id) => id !== variantId);
  if (current.length >= MAX_HINTED_VARIANTS) return undefined;
  return normalize([...current, variantId]);
}

export const serializeHintedVariants = (ids: readonly string[]): string => JSON.stringify(ids);

/** The metafield's JSON, as the block's Liquid reads it: `value.without_plans contains "<id>"`. */
export function offerHintValue(withoutPlans: readonly string[]): string {
  return JSON.stringify({ without_plans: withoutPlans });
}

export interface OfferHintMetafieldInput {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

/** The metafieldsSet input for one product. */
export function offerHintMetafield(
  productId: string,
  withoutPlans: readonly string[],
): OfferHintMetafieldInput {
  return {
    ownerId: `gid://shopify/Product/${productId}`,
    ...OFFER_HINT_METAFIELD,
    value: offerHintValue(withoutPlans),
  };
}
