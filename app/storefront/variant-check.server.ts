import { getEnv } from "../env.server";
import { PRODUCT_VARIANT_OWNER_QUERY } from "../graphql/ProductVariantOwner";
import { shopifyGid } from "../lib/shopify-id";
import type { Logger } from "../logger.server";
import { runAdminOperation, type AdminGraphql } from "../services/admin-api.server";
import { LoadingCache } from "./loading-cache";
import type { OpenShopAdmin } from "./shop-admin.server";

/*
 * Variant IDs on the app proxy are chosen by the visitor. Before one may cost a service call, a
 * row or a metafieldsSet, Shopify is asked once whether the shop has it (decision 016). Both
 * answers are kept in memory, bounded: a known variant for an hour, an unknown one for minutes
 * (a variant created meanwhile is offered soon). Concurrent checks of one variant share a call.
 */

export type VariantCheck =
  /** Shopify has the variant; `productId` is its product, as Shopify says. */
  | { kind: "known"; productId: string }
  /** The shop has no such variant. */
  | { kind: "unknown" }
  /** Shopify could not be asked (an error or throttling); nothing is cached. */
  | { kind: "failed"; message: string };

type Loaded =
  { productId: string } | { productId: null } | { failed: string } | { unchecked: true };

let known: LoadingCache<Loaded> | undefined;
let unknown: LoadingCache<true> | undefined;

function caches() {
  const env = getEnv();
  known ??= new LoadingCache({
    maxEntries: env.SVC_VARIANT_CHECK_MAX_ENTRIES,
    ttlMs: env.SVC_VARIANT_CHECK_TTL_SECONDS * 1000,
  });
  unknown ??= new LoadingCache({
    maxEntries: env.SVC_VARIANT_CHECK_MAX_ENTRIES,
    ttlMs: env.SVC_VARIANT_CHECK_UNKNOWN_TTL_SECONDS * 1000,
  });
  return { known, unknown };
}

export async function checkShopVariant(
  graphql: AdminGraphql,
  shop: string,
  variantId: string,
  log: Logger,
): Promise<VariantCheck> {
  const check = await checkShopVariantIfAdmin(async () => graphql, shop, variantId, log);
  return check.kind === "unchecked" ? { kind: "failed", message: "No Admin API" } : check;
}

/**
 * The same check, opening the shop's Admin API only when no answer is remembered (decision 042);
 * `unchecked` when the Admin API cannot be had now (no offline session, a token that cannot be
 * refreshed), and nothing is remembered.
 */
export async function checkShopVariantIfAdmin(
  admin: OpenShopAdmin,
  shop: string,
  variantId: string,
  log: Logger,
): Promise<VariantCheck | { kind: "unchecked" }> {
  const key = `${shop}\n${variantId}`;
  const { known, unknown } = caches();
  if (unknown.get(key)) return { kind: "unknown" };
  const { value } = await known.getOrLoad(key, async () => {
    const graphql = await admin();
    if (!graphql) return { value: { unchecked: true }, cacheable: false };
    const loaded = await askShopify(graphql, shop, variantId);
    if ("productId" in loaded && loaded.productId === null) unknown.set(key, true);
    return { value: loaded, cacheable: "productId" in loaded && loaded.productId !== null };
  });
  if ("unchecked" in value) return { kind: "unchecked" };
  if ("failed" in value) {
    log.warn({ variantId }, `Failed to check variant ${variantId} of ${shop}: ${value.failed}`);
    return { kind: "failed", message: value.failed };
  }
  return value.productId === null
    ? { kind: "unknown" }
    : { kind: "known", productId: value.productId };
}

async function askShopify(graphql: AdminGraphql, shop: string, variantId: string): Promise<Loaded> {
  let result;
  try {
    result = await runAdminOperation(
      graphql,
      shop,
      "ProductVariantOwner",
      PRODUCT_VARIANT_OWNER_QUERY,
      { id: shopifyGid("ProductVariant", variantId) },
    );
  } catch (thrown) {
    // An expired or revoked offline token: no merchant is here to authenticate again.
    if (thrown instanceof Response) return { failed: `Shopify answered HTTP ${thrown.status}` };
    throw thrown;
  }
  if (!result.ok) return { failed: result.message };
  const variant = result.data.productVariant;
  if (!variant) return { productId: null };
  const productId = /\/Product\/(\d+)$/.exec(variant.product.id)?.[1];
  if (!productId) return { failed: `Unexpected product ID ${variant.product.id}` };
  return { productId };
}

/** Forgets every answer (tests). */
export function forgetVariantChecks() {
  known = undefined;
  unknown = undefined;
}
