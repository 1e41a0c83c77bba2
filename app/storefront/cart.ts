import { z } from "zod";
import type { CartLineItem, CartUpdateRequest } from "../protection/types";
import {
  currencyCode,
  requiredString,
  shopifyCents,
  shopifyIdValue,
  userSessionId,
} from "./fields";
import { cartIdOf } from "../lib/cart-session";
import { shopifyCentsToMinorUnits } from "../lib/money";
import { toRequestIssues, type Parsed } from "./request-issues";

/** The line item property the storefront sets on a plan line: the protected variant's ID. */
export const PROTECTED_PRODUCT_REF = "_svc_protected_product_ref";

export const MAX_CART_LINES = 500;

export type StorefrontCartLine = {
  /** Shopify's line key ("<variant id>:<hash>"), the only handle /cart/change.js takes. */
  key: string;
  quantity: number;
  variantId: string;
  /** Unit price in the currency's real minor unit. */
  unitPriceAmount: number;
  productTitle: string;
  productBrand: string;
  /**
   * Set on a plan line only: the variant ID of the product it protects. "" when the property is
   * present but unusable (empty, or not text): such a plan protects nothing.
   */
  protectedProductRef?: string;
};

export type StorefrontCart = {
  token: string;
  /** Upper case, e.g. "EUR". */
  currency: string;
  lines: StorefrontCartLine[];
};

/** The body of POST /apps/svc/cart_updates. */
export type CartUpdateBody = { userSessionId: string; cart: StorefrontCart };

const nullableText = z
  .string({ error: "must be a string" })
  .nullish()
  .transform((value) => value ?? "");

const cartLineSchema = z.object(
  {
    key: requiredString().min(1, "must not be empty").max(500, "must be at most 500 characters"),
    quantity: z
      .number({
        error: (issue) => (issue.input === undefined ? "is required" : "must be a number"),
      })
      .int("must be a whole number")
      .min(0, "must not be negative")
      .max(1_000_000, "must be at most 1000000"),
    variant_id: shopifyIdValue,
    price: shopifyCents.optional(),
    final_price: shopifyCents.optional(),
    product_title: nullableText,
    title: nullableText,
    vendor: nullableText,
    properties: z.record(z.string(), z.unknown(), { error: "must be an object or null" }).nullish(),
  },
  { error: "must be a /cart.js line item object" },
);

const cartSchema = z.object(
  {
    token: requiredString().min(1, "must not be empty").max(500, "must be at most 500 characters"),
    currency: currencyCode,
    items: z
      .array(cartLineSchema, {
        error: (issue) => (issue.input === undefined ? "is required" : "must be an array"),
      })
      .max(MAX_CART_LINES, `must have at most ${MAX_CART_LINES} lines`),
  },
  { error: (issue) => (issue.input === undefined ? "is required" : "must be the /cart.js object") },
);

const cartUpdateBodySchema = z
  .object(
    { user_session_id: userSessionId, cart: cartSchema },
    { error: 'must be a JSON object {"user_session_id": …, "cart": …}' },
  )
  .transform((body, ctx): CartUpdateBody => {
    const currency = body.cart.currency;
    const seenKeys = new Set<string>();
    const lines: StorefrontCartLine[] = [];
    body.cart.items.forEach((item, index) => {
      if (seenKeys.has(item.key)) {
        ctx.addIssue({
          code: "custom",
          path: ["cart", "items", index, "key"],
          message: `repeats the key of an earlier line`,
        });
      }
      seenKeys.add(item.key);
      const priceField = item.price === undefined ? "final_price" : "price";
      const unitPriceCents = item.price ?? item.final_price;
      if (unitPriceCents === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["cart", "items", index, "price"],
          message: "is required (or final_price)",
        });
        return;
      }
      const unitPriceAmount = shopifyCentsToMinorUnits(unitPriceCents, currency);
      if (unitPriceAmount === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["cart", "items", index, priceField],
          message: `must be a whole number of ${currency} minor units in Shopify cents (amount × 100)`,
        });
        return;
      }
      const reference = protectedProductRefOf(item.properties);
      lines.push({
        key: item.key,
        quantity: item.quantity,
        variantId: item.variant_id,
        unitPriceAmount,
        productTitle: item.product_title || item.title,
        productBrand: item.vendor,
        ...(reference === undefined ? {} : { protectedProductRef: reference }),
      });
    });
    return {
      userSessionId: body.user_session_id,
      cart: { token: body.cart.token, currency, lines },
    };
  });

/** Checks a parsed JSON body against the cart update contract. */
export function parseCartUpdateBody(json: unknown): Parsed<CartUpdateBody> {
  const parsed = cartUpdateBodySchema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, issues: toRequestIssues(parsed.error) };
}

function protectedProductRefOf(
  properties: Record<string, unknown> | null | undefined,
): string | undefined {
  const value = properties?.[PROTECTED_PRODUCT_REF];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return "";
}

export function isPlanLine(line: StorefrontCartLine): boolean {
  return line.protectedProductRef !== undefined;
}

/**
 * The spec's cart update request for a storefront cart. A plan line whose reference is unusable
 * is left out: the service could not link it, and the local rules take it out of the cart.
 */
export function toCartUpdateRequest(body: CartUpdateBody): CartUpdateRequest {
  return {
    cart_id: cartIdOf(body.cart.token),
    user_session_id: body.userSessionId,
    cart_currency: body.cart.currency.toLowerCase(),
    line_items: body.cart.lines
      .filter((line) => line.protectedProductRef !== "")
      .map(toCartLineItem),
  };
}

function toCartLineItem(line: StorefrontCartLine): CartLineItem {
  return {
    id: line.key,
    quantity: line.quantity,
    price_amount: line.unitPriceAmount,
    product_id: line.variantId,
    product_title: line.productTitle,
    product_brand: line.productBrand,
    ...(line.protectedProductRef === undefined
      ? {}
      : { custom_properties: { product_reference: line.protectedProductRef } }),
  };
}
