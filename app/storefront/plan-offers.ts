import type { OfferOptions } from "../offers/offer-options";
import type { Plan } from "../protection/types";
import { SHOPIFY_ID } from "./fields";
import { minorUnitsToShopifyCents } from "../lib/money";
import type { PlanOfferRequest } from "./plan-request";

/** One plan as the storefront shows it and adds it to the cart. */
export type PlanOffer = {
  merchant_product_id: string;
  /** The Shopify variant of the protection item; the service's merchant_product_id (decision 010). */
  variant_id: string;
  /** Shopify cents (amount × 100), for the theme's money formatting. */
  price: number;
  /** The service's amount, in the currency's real minor unit. */
  price_amount: number;
  /** Upper case, as Shopify writes currencies. */
  currency: string;
  title: Record<string, string>;
  insurance_details_url: string;
};

/**
 * Why there are no plans: the shop is not connected, the service failed, the shop has no such
 * variant, Shopify could not be asked whether it has (decision 016), or the app could not read
 * its own records (its database failed; decision 042).
 */
export type Unavailable =
  "not_connected" | "service_error" | "unknown_variant" | "variant_unchecked" | "app_error";

/** The body of GET /apps/svc/plans. */
export type PlanOffersAnswer = {
  variant_id: string;
  plans: PlanOffer[];
  unavailable?: Unavailable;
  /**
   * How the offer block renders the plans (admin Settings). Sent with offers once the merchant
   * has saved them; absent means DEFAULT_OFFER_OPTIONS.
   */
  options?: OfferOptions;
};

export type DroppedPlan = { merchantProductId: string; reason: string };

/**
 * The service's plans as storefront offers. A plan the storefront could not sell correctly is
 * dropped, with the reason: its item is not a Shopify variant, its currency is not the one the
 * page shows, its price has no exact Shopify form, or its details link is not https.
 */
export function toPlanOffers(
  plans: readonly Plan[],
  request: Pick<PlanOfferRequest, "currency">,
): { offers: PlanOffer[]; dropped: DroppedPlan[] } {
  const offers: PlanOffer[] = [];
  const dropped: DroppedPlan[] = [];
  for (const plan of plans) {
    const checked = checkPlan(plan, request.currency);
    if (!checked.ok) {
      dropped.push({ merchantProductId: plan.merchant_product_id, reason: checked.reason });
      continue;
    }
    offers.push({
      merchant_product_id: plan.merchant_product_id,
      variant_id: plan.merchant_product_id,
      price: checked.price,
      price_amount: plan.price_amount,
      currency: request.currency,
      title: plan.title,
      insurance_details_url: plan.insurance_details_url,
    });
  }
  return { offers, dropped };
}

function checkPlan(
  plan: Plan,
  currency: string,
): { ok: true; price: number } | { ok: false; reason: string } {
  if (!SHOPIFY_ID.test(plan.merchant_product_id)) {
    return {
      ok: false,
      reason: `merchant_product_id ${JSON.stringify(plan.merchant_product_id)} is not a Shopify variant ID`,
    };
  }
  if (plan.price_currency.toUpperCase() !== currency) {
    return {
      ok: false,
      reason: `price_currency ${JSON.stringify(plan.price_currency)} is not the requested ${currency.toLowerCase()}`,
    };
  }
  const price = minorUnitsToShopifyCents(plan.price_amount, currency);
  if (price === undefined) {
    return {
      ok: false,
      reason: `price_amount ${plan.price_amount} ${currency} has no exact Shopify cents form`,
    };
  }
  if (!isHttpsUrl(plan.insurance_details_url)) {
    return {
      ok: false,
      reason: `insurance_details_url ${JSON.stringify(plan.insurance_details_url)} is not an https:// URL`,
    };
  }
  return { ok: true, price };
}

// The storefront renders this as a link: anything but https (javascript:, data:) is refused.
function isHttpsUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === "https:";
}
