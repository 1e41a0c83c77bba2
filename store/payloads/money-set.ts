/*
 * Money as Shopify's webhooks write it: a decimal string with the currency's digits ("19.99",
 * "1500" for JPY, "1.500" for KWD) and, beside most amounts, a `*_set` holding it in the shop's
 * and the presentment currency. The store keeps integer minor units and has no exchange rates,
 * so both sides of a set carry the same amount in the order's currency.
 */
import { formatMinorUnits } from "../../app/lib/money";
import type { JsonObject } from "../json";

/** An amount in minor units as Shopify's decimal string: 1999 EUR → "19.99", 1500 JPY → "1500". */
export function moneyAmount(minorUnits: number, currency: string): string {
  if (!Number.isSafeInteger(minorUnits)) {
    throw new Error(
      `Cannot write ${minorUnits} ${currency} as money: not a whole number of minor units`,
    );
  }
  return formatMinorUnits(minorUnits, currency);
}

/**
 * A refund line's `subtotal` and `total_tax`, which Shopify writes as JSON numbers (89.99, 0).
 * The decimal string's digits give the number; below 2^53 minor units it prints back the same.
 */
export function moneyNumber(minorUnits: number, currency: string): number {
  return Number(moneyAmount(minorUnits, currency));
}

/** `{shop_money, presentment_money}` with `currency_code`, as on orders, lines and refunds. */
export function moneySet(minorUnits: number, currency: string): JsonObject {
  const amount = moneyAmount(minorUnits, currency);
  return {
    shop_money: { amount, currency_code: currency },
    presentment_money: { amount, currency_code: currency },
  };
}

/**
 * A transaction's `total_unsettled_set`: presentment first, `currency` rather than
 * `currency_code`, and the amount as Shopify's BigDecimal prints it ("0.0"), as in the samples.
 */
export function unsettledSet(currency: string): JsonObject {
  return {
    presentment_money: { amount: "0.0", currency },
    shop_money: { amount: "0.0", currency },
  };
}
