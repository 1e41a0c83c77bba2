import { z } from "zod";
import type { PlanLookupQuery } from "../protection/types";
import { currencyCode, requiredString, SHOPIFY_ID, userSessionId } from "./fields";
import { shopifyCentsToMinorUnits } from "../lib/money";
import { toRequestIssues, type Parsed, type RequestIssue } from "./request-issues";

/** A product page asking for plans: GET /apps/svc/plans?variant_id=…&price=…&currency=…&… */
export type PlanOfferRequest = {
  variantId: string;
  /** The variant's product, when the block sends it: the app then keeps its layout hint. */
  productId?: string;
  /** The variant's price as the storefront writes it (amount × 100). */
  priceCents: number;
  /** The same price in the currency's real minor unit, as the service wants it. */
  priceAmount: number;
  /** Upper case, e.g. "EUR". */
  currency: string;
  userSessionId: string;
  productTitle: string;
  productBrand: string;
  productCategory?: string;
};

/** The query parameters a plans request is read from. */
export const PLAN_QUERY_PARAMETERS = [
  "variant_id",
  "product_id",
  "price",
  "currency",
  "user_session_id",
  "product_title",
  "product_brand",
  "product_category",
] as const;

const planQuerySchema = z
  .object({
    variant_id: requiredString().regex(SHOPIFY_ID, "must be a Shopify variant ID (digits only)"),
    product_id: requiredString()
      .regex(SHOPIFY_ID, "must be a Shopify product ID (digits only)")
      .optional(),
    price: requiredString()
      .regex(/^(0|[1-9]\d{0,15})$/, "must be a non-negative whole number of Shopify cents")
      .transform(Number)
      .refine(Number.isSafeInteger, "is too large"),
    currency: currencyCode,
    user_session_id: userSessionId,
    product_title: requiredString()
      .trim()
      .min(1, "must not be empty")
      .max(1000, "must be at most 1000 characters"),
    product_brand: requiredString().trim().max(255, "must be at most 255 characters"),
    product_category: z
      .string()
      .trim()
      .max(255, "must be at most 255 characters")
      .optional()
      .transform((category) => (category === "" ? undefined : category)),
  })
  .transform((query, ctx): PlanOfferRequest => {
    const priceAmount = shopifyCentsToMinorUnits(query.price, query.currency);
    if (priceAmount === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["price"],
        message: `must be a whole number of ${query.currency} minor units in Shopify cents (amount × 100)`,
      });
      return z.NEVER;
    }
    return {
      variantId: query.variant_id,
      ...(query.product_id === undefined ? {} : { productId: query.product_id }),
      priceCents: query.price,
      priceAmount,
      currency: query.currency,
      userSessionId: query.user_session_id,
      productTitle: query.product_title,
      productBrand: query.product_brand,
      ...(query.product_category === undefined ? {} : { productCategory: query.product_category }),
    };
  });

/**
 * Reads the plan request from the proxied query string. Shopify's own parameters (`shop`,
 * `signature`, …) and any others are ignored; each of ours may appear once.
 */
export function parsePlanOfferRequest(params: URLSearchParams): Parsed<PlanOfferRequest> {
  const input: Record<string, string> = {};
  const repeated: RequestIssue[] = [];
  for (const name of PLAN_QUERY_PARAMETERS) {
    const values = params.getAll(name);
    if (values.length > 1) repeated.push({ path: name, message: "must be given once" });
    if (values[0] !== undefined) input[name] = values[0];
  }
  const parsed = planQuerySchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, issues: [...repeated, ...toRequestIssues(parsed.error)] };
  if (repeated.length > 0) return { ok: false, issues: repeated };
  return { ok: true, value: parsed.data };
}

/** The service's plan lookup for this request: the variant is the service's product. */
export function toPlanLookupQuery(request: PlanOfferRequest): PlanLookupQuery {
  return {
    product_id: request.variantId,
    product_title: request.productTitle,
    product_brand: request.productBrand,
    ...(request.productCategory === undefined ? {} : { product_category: request.productCategory }),
    price_amount: request.priceAmount,
    price_currency: request.currency.toLowerCase(),
    user_session_id: request.userSessionId,
  };
}
