import { readOfferOptions } from "../offers/offer-options";
import prisma from "../db.server";
import { getEnv } from "../env.server";
import type { Logger } from "../logger.server";
import { getShopConnection } from "../models/ShopConnection.server";
import { noteOfferLookup } from "../models/StorefrontActivity.server";
import { describeResult } from "../protection/results";
import {
  pauseShopWithUnreadableSecret,
  protectionClientForShop,
} from "../services/protection.server";
import { LoadingCache } from "./loading-cache";
import { metrics } from "../metrics/registry.server";
import { updateOfferHint } from "./offer-hints.server";
import { toPlanOffers, type PlanOffer, type PlanOffersAnswer } from "./plan-offers";
import { toPlanLookupQuery, type PlanOfferRequest } from "./plan-request";
import type { OpenShopAdmin } from "./shop-admin.server";
import { checkShopVariantIfAdmin } from "./variant-check.server";

/** What a lookup gave: offers (cacheable), or a service failure (never cached). */
type LookupOutcome = { kind: "offers"; plans: PlanOffer[] } | { kind: "service_error" };

export type PlanOffersResult = {
  answer: PlanOffersAnswer;
  /** Seconds the storefront may cache the answer; 0 for answers that must not be cached. */
  maxAgeSeconds: number;
};

let cache: LoadingCache<LookupOutcome> | undefined;

function planCache(): LoadingCache<LookupOutcome> {
  const env = getEnv();
  cache ??= new LoadingCache({
    maxEntries: env.SVC_PLANS_CACHE_MAX_ENTRIES,
    ttlMs: env.SVC_PLANS_CACHE_TTL_SECONDS * 1000,
  });
  return cache;
}

/**
 * The plans a product page may offer. The service is asked once per shop, environment and
 * lookup (variant, price, currency, title, brand, category) within the cache time (concurrent
 * misses share one call); the first caller's user session ID is the one the service sees. A
 * shop without a usable key, a variant the shop does not have, and a service that fails or is
 * slow give no plans and say why; the page then shows no offer. So does a database that fails:
 * the buyer gets an answer either way, and the failure is logged.
 */
export async function findPlanOffers(
  shop: string,
  request: PlanOfferRequest,
  log: Logger,
  admin: OpenShopAdmin,
): Promise<PlanOffersResult> {
  try {
    return await lookUpPlanOffers(shop, request, log, admin);
  } catch (error) {
    log.error(
      { err: error, variantId: request.variantId },
      `Failed to look up plans for variant ${request.variantId} of ${shop}; answering no plans`,
    );
    return unavailable(request, "app_error");
  }
}

async function lookUpPlanOffers(
  shop: string,
  request: PlanOfferRequest,
  log: Logger,
  admin: OpenShopAdmin,
): Promise<PlanOffersResult> {
  const connection = await getShopConnection(prisma, shop);
  if (!connection || connection.status !== "connected") {
    log.debug(
      { status: connection?.status ?? "none" },
      `No plans for ${shop}: the shop is not connected`,
    );
    return unavailable(request, "not_connected");
  }
  const env = getEnv();
  const built = protectionClientForShop(connection, undefined, {
    timeoutMs: env.SVC_STOREFRONT_TIMEOUT_MS,
  });
  if (built.status !== "ready") {
    log.info({ environment: built.environment }, `No plans for ${shop}: ${built.message}`);
    if (built.status === "unreadable") {
      await pauseShopWithUnreadableSecret(prisma, shop, built, log);
    }
    return unavailable(request, "not_connected");
  }

  // Visitor-chosen IDs cost nothing until Shopify says the shop has the variant (decision 016).
  // Without the Admin API (no offline session, or its token cannot be refreshed now; decision
  // 042) there is no one to ask; the rate limits and the bound on noted variants
  // (StorefrontActivity) then hold instead.
  let verifiedProductId: string | undefined;
  const check = await checkShopVariantIfAdmin(admin, shop, request.variantId, log);
  if (check.kind === "unknown") {
    log.info(
      { variantId: request.variantId },
      `No plans: ${shop} has no variant ${request.variantId}`,
    );
    return unknownVariant(request, env.SVC_VARIANT_CHECK_UNKNOWN_TTL_SECONDS);
  }
  if (check.kind === "failed") return unavailable(request, "variant_unchecked");
  if (check.kind === "known") verifiedProductId = check.productId;

  // Every field the service looks up by is in the key: one visitor's odd title or brand must
  // not answer every other visitor of the variant (issue 13).
  const key = JSON.stringify([
    shop,
    built.environment,
    request.variantId,
    request.priceCents,
    request.currency,
    request.productTitle,
    request.productBrand,
    request.productCategory ?? null,
  ]);
  const { value, source } = await planCache().getOrLoad(key, async () => {
    const result = await built.client.lookupPlans(toPlanLookupQuery(request));
    if (result.kind !== "success") {
      log.warn(
        { environment: built.environment, variantId: request.variantId },
        `Failed to look up plans for variant ${request.variantId} of ${shop}: ${describeResult(result)}`,
      );
      return { value: { kind: "service_error" }, cacheable: false };
    }
    const { offers, dropped } = toPlanOffers(result.data.plans, request);
    for (const plan of dropped) {
      log.warn(
        {
          environment: built.environment,
          variantId: request.variantId,
          merchantProductId: plan.merchantProductId,
        },
        `Dropped a plan offered for variant ${request.variantId}: ${plan.reason}`,
      );
    }
    return { value: { kind: "offers", plans: offers }, cacheable: true };
  });

  // A lookup another request already had in flight is answered without a call of its own: a hit.
  metrics.proxyPlansCache.inc({ result: source === "load" ? "miss" : "hit" });
  if (value.kind === "service_error") return unavailable(request, "service_error");
  // The hint goes to the product Shopify named, not to the one the visitor claimed.
  const productId =
    request.productId === undefined ? undefined : (verifiedProductId ?? request.productId);
  const offered = value.plans.length > 0;
  noteOfferLookup(prisma, shop, {
    variantId: request.variantId,
    ...(productId === undefined ? {} : { productId }),
    offered,
    log,
  })
    .then(async (hintDue) => {
      if (!hintDue || productId === undefined) return;
      await updateOfferHint(
        prisma,
        { shop, productId, variantId: request.variantId, offered },
        await admin(),
        log,
      );
    })
    .catch((error: unknown) =>
      log.error({ err: error }, "Failed to note the offer block's activity"),
    );
  // Read from the connection loaded above, not cached with the plans: a saved change shows at once.
  const options =
    connection.offerOptions === null ? {} : { options: readOfferOptions(connection.offerOptions) };
  return {
    answer: { variant_id: request.variantId, plans: value.plans, ...options },
    maxAgeSeconds: env.SVC_PLANS_CACHE_TTL_SECONDS,
  };
}

/** Cached by the storefront for as long as the app remembers the variant as unknown. */
function unknownVariant(request: PlanOfferRequest, maxAgeSeconds: number): PlanOffersResult {
  return {
    answer: { variant_id: request.variantId, plans: [], unavailable: "unknown_variant" },
    maxAgeSeconds,
  };
}

function unavailable(
  request: PlanOfferRequest,
  reason: "not_connected" | "service_error" | "variant_unchecked" | "app_error",
): PlanOffersResult {
  return {
    answer: { variant_id: request.variantId, plans: [], unavailable: reason },
    maxAgeSeconds: 0,
  };
}
