import { z } from "zod";
import { USER_SESSION_ID_FORM } from "../lib/cart-session";

// Field rules shared by the storefront's requests. Messages complete a sentence that starts with
// the field's path ("variant_id must be …"), as the 400 answer lists them.

export const SHOPIFY_ID = /^[1-9]\d{0,19}$/;

export function requiredString() {
  return z.string({
    error: (issue) => (issue.input === undefined ? "is required" : "must be a string"),
  });
}

export const userSessionId = requiredString().regex(
  USER_SESSION_ID_FORM,
  "must be a UUID (8-4-4-4-12 hexadecimal digits)",
);

/** "EUR", "eur" or "Eur", kept in upper case. */
export const currencyCode = requiredString()
  .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO 4217 currency code such as EUR")
  .transform((code) => code.toUpperCase());

/** A Shopify numeric ID: a JSON number, or its digits (IDs above 2^53 arrive as strings). */
export const shopifyIdValue = z
  .union([z.number(), z.string()], { error: "must be a Shopify numeric ID" })
  .transform((value, ctx) => {
    const digits = typeof value === "number" ? numberDigits(value) : value;
    if (digits === undefined || !SHOPIFY_ID.test(digits)) {
      ctx.addIssue({ code: "custom", message: "must be a Shopify numeric ID" });
      return z.NEVER;
    }
    return digits;
  });

function numberDigits(value: number): string | undefined {
  return Number.isSafeInteger(value) && value > 0 ? String(value) : undefined;
}

/** An amount in Shopify cents: a non-negative safe integer. */
export const shopifyCents = z
  .number({ error: (issue) => (issue.input === undefined ? "is required" : "must be a number") })
  .int("must be a whole number of cents")
  .min(0, "must not be negative")
  .max(Number.MAX_SAFE_INTEGER, "is too large");
