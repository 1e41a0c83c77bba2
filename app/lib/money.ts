/*
 * Money as integers: amounts in a currency's minor unit (ISO 4217: JPY 0 digits, EUR 2, KWD 3),
 * converted to and from decimals and Shopify's storefront cents by integer arithmetic only.
 */

// ISO 4217 minor-unit exponents that differ from the usual 2.
const EXPONENT_0 = new Set(
  "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF".split(" "),
);
const EXPONENT_3 = new Set("BHD IQD JOD KWD LYD OMR TND".split(" "));
const EXPONENT_4 = new Set("CLF UYW".split(" "));

/** Digits after the decimal point in the currency's minor unit (ISO 4217); 2 for any other code. */
export function currencyExponent(code: string): number {
  if (!/^[A-Za-z]{3}$/.test(code)) {
    throw new Error(
      `Unknown currency code ${JSON.stringify(code)}: expected three letters such as "EUR"`,
    );
  }
  const upper = code.toUpperCase();
  if (EXPONENT_0.has(upper)) return 0;
  if (EXPONENT_3.has(upper)) return 3;
  if (EXPONENT_4.has(upper)) return 4;
  return 2;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A decimal amount ("19.99", or a number) as an integer count of the currency's minor unit.
 * Works on the decimal digits, never on floats; extra fraction digits round half away from zero.
 */
export function toMinorUnits(amount: string | number, currency: string): number {
  const exponent = currencyExponent(currency);
  const text = typeof amount === "number" ? String(amount) : amount;
  const match = DECIMAL.exec(text);
  if (!match || (typeof amount === "number" && !Number.isFinite(amount))) {
    throw new Error(
      `Cannot convert ${JSON.stringify(amount)} to minor units of ${currency.toUpperCase()}: not a decimal amount`,
    );
  }
  const [, sign = "", whole = "", fraction = ""] = match;
  const kept = fraction.slice(0, exponent).padEnd(exponent, "0");
  let minor = BigInt(whole + kept);
  const firstDropped = fraction.charAt(exponent);
  if (firstDropped !== "" && firstDropped >= "5") minor += 1n;
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(
      `Cannot convert ${JSON.stringify(amount)} to minor units of ${currency.toUpperCase()}: too large`,
    );
  }
  const magnitude = Number(minor);
  return sign === "-" && magnitude !== 0 ? -magnitude : magnitude;
}

/** An amount in minor units as a decimal string with the currency's digits: 1999 EUR → "19.99". */
export function formatMinorUnits(minorUnits: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(Math.trunc(minorUnits)));
  const sign = minorUnits < 0 ? "-" : "";
  if (exponent === 0) return sign + digits;
  const padded = digits.padStart(exponent + 1, "0");
  return `${sign}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}

/**
 * An amount in minor units, formatted in the locale with the currency's real exponent
 * (JPY 0, EUR 2, KWD 3). The decimal is built from the digits, never through a float.
 */
export function formatMoney(amount: number, currency: string, locale: string): string {
  const exponent = currencyExponent(currency);
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency: currency.toUpperCase(),
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  }).format(formatMinorUnits(amount, currency) as `${number}`);
}

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
