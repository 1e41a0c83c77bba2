import { shopifyGid } from "../lib/shopify-id";

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
 * every real variant fits, and the value stays a few tens of kilobytes at most.
 */
export const MAX_HINTED_VARIANTS = 2048;

/**
 * The product's list as the metafield holds it: variant IDs sorted, no duplicates, at most
 * MAX_HINTED_VARIANTS (the lowest IDs, so that the value does not depend on the order they came in).
 */
export function hintedVariants(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort().slice(0, MAX_HINTED_VARIANTS);
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
    ownerId: shopifyGid("Product", productId),
    ...OFFER_HINT_METAFIELD,
    value: offerHintValue(withoutPlans),
  };
}
