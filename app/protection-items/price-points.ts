import { currencyExponent, formatMinorUnits, toMinorUnits } from "../lib/money";

/** One product gets one variant per price point; this keeps the product well under Shopify's limit. */
export const MAX_PRICE_POINTS = 50;

export interface PricePoint {
  /** The decimal amount as Shopify's `Money` input takes it: "19.99", or "1500" for JPY. */
  amount: string;
  minorUnits: number;
}

export type PricePointIssue =
  | { code: "empty" }
  | { code: "not_a_price"; value: string }
  | { code: "too_many_decimals"; value: string; decimals: number }
  | { code: "not_positive"; value: string }
  | { code: "duplicate"; value: string }
  | { code: "too_many"; max: number };

export type PricePointsResult =
  { ok: true; pricePoints: PricePoint[] } | { ok: false; issues: PricePointIssue[] };

/**
 * The merchant's list of prices ("19.99, 29.99, 59.99", one per line, or separated by
 * semicolons or spaces) as amounts in the shop's currency. A comma followed by one to
 * `exponent` digits is a decimal comma ("19,99"), commas between groups of three digits
 * separate thousands ("1,299.00"), and any other comma separates prices.
 * Currency symbols and codes around a price are ignored.
 */
export function parsePricePoints(input: string, currency: string): PricePointsResult {
  const exponent = currencyExponent(currency);
  const tokens = splitPrices(input, exponent, currency);
  if (tokens.length === 0) return { ok: false, issues: [{ code: "empty" }] };

  const issues: PricePointIssue[] = [];
  const pricePoints: PricePoint[] = [];
  const seen = new Set<number>();
  for (const value of tokens) {
    const match = /^-?\d+(?:\.(\d+))?$/.exec(value);
    if (!match) {
      issues.push({ code: "not_a_price", value });
      continue;
    }
    const decimals = match[1]?.length ?? 0;
    if (decimals > exponent) {
      issues.push({ code: "too_many_decimals", value, decimals: exponent });
      continue;
    }
    let minorUnits: number;
    try {
      minorUnits = toMinorUnits(value, currency);
    } catch {
      issues.push({ code: "not_a_price", value });
      continue;
    }
    if (minorUnits <= 0) {
      issues.push({ code: "not_positive", value });
      continue;
    }
    if (seen.has(minorUnits)) {
      issues.push({ code: "duplicate", value });
      continue;
    }
    seen.add(minorUnits);
    pricePoints.push({ amount: formatMinorUnits(minorUnits, currency), minorUnits });
  }
  if (pricePoints.length > MAX_PRICE_POINTS)
    issues.push({ code: "too_many", max: MAX_PRICE_POINTS });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, pricePoints };
}

const THOUSANDS = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

function splitPrices(input: string, exponent: number, currency: string): string[] {
  const strip = (token: string) => stripCurrency(token, currency.toUpperCase());
  const decimalComma = exponent > 0 ? new RegExp(`^\\d+,\\d{1,${exponent}}$`) : null;
  return input
    .split(/[\s;]+/)
    .map(strip)
    .filter((token) => token !== "")
    .flatMap((token) => {
      if (!token.includes(",")) return [token];
      if (decimalComma?.test(token)) return [token.replace(",", ".")];
      if (THOUSANDS.test(token)) return [token.replaceAll(",", "")];
      return token
        .split(",")
        .map(strip)
        .filter((part) => part !== "");
    });
}

/** Removes currency signs (€, $) and the shop's currency code around a price; words stay. */
function stripCurrency(token: string, code: string): string {
  const around = new RegExp(`^(?:\\p{Sc}|${code})+|(?:\\p{Sc}|${code})+$`, "giu");
  return token.replace(around, "");
}
