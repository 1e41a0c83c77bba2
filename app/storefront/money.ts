import { currencyExponent } from "../orders/money";

/*
 * Shopify's storefront (Liquid, /cart.js) writes every amount as amount × 100, whatever the
 * currency: ¥1,000 is 100000 and 1.250 KWD is 125. The service wants the currency's real minor
 * unit (ISO 4217): ¥1,000 is 1000, 1.250 KWD is 1250. Both directions are integer arithmetic
 * on safe integers and are exact or refused; nothing is rounded.
 */

const SHOPIFY_EXPONENT = 2;

/**
 * Shopify cents as the currency's minor units, or undefined when the amount is not a whole
 * number of them (a yen amount that is not a multiple of 100) or not a non-negative safe integer.
 */
export function shopifyCentsToMinorUnits(cents: number, currency: string): number | undefined {
  return rescale(cents, SHOPIFY_EXPONENT, currencyExponent(currency));
}

/**
 * The currency's minor units as Shopify cents, or undefined when Shopify cents cannot express the
 * amount exactly (1.995 KWD is 1995 fils, which would be 199.5 cents).
 */
export function minorUnitsToShopifyCents(minor: number, currency: string): number | undefined {
  return rescale(minor, currencyExponent(currency), SHOPIFY_EXPONENT);
}

function rescale(amount: number, fromExponent: number, toExponent: number): number | undefined {
  if (!Number.isSafeInteger(amount) || amount < 0) return undefined;
  if (toExponent >= fromExponent) {
    const scaled = amount * 10 ** (toExponent - fromExponent);
    return Number.isSafeInteger(scaled) ? scaled : undefined;
  }
  const divisor = 10 ** (fromExponent - toExponent);
  // A safe integer that is a multiple of the divisor divides exactly in floating point.
  return amount % divisor === 0 ? amount / divisor : undefined;
}
