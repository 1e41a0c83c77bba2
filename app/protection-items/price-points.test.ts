import { describe, expect, it } from "vitest";
import { MAX_PRICE_POINTS, parsePricePoints } from "./price-points";

describe("parsePricePoints", () => {
  it("reads the merchant's list in EUR as cents and as Shopify's decimal amounts", () => {
    expect(parsePricePoints("19.99, 29.99, 59.99", "EUR")).toEqual({
      ok: true,
      pricePoints: [
        { amount: "19.99", minorUnits: 1999 },
        { amount: "29.99", minorUnits: 2999 },
        { amount: "59.99", minorUnits: 5999 },
      ],
    });
  });

  it("takes prices one per line, with semicolons, decimal commas and currency signs", () => {
    const result = parsePricePoints("€19,99\n29.9 EUR; 59\r\n", "EUR");
    expect(result).toEqual({
      ok: true,
      pricePoints: [
        { amount: "19.99", minorUnits: 1999 },
        { amount: "29.90", minorUnits: 2990 },
        { amount: "59.00", minorUnits: 5900 },
      ],
    });
  });

  it("splits on a comma without space when the prices have decimal points", () => {
    const result = parsePricePoints("19.99,29.99", "EUR");
    expect(result.ok && result.pricePoints.map((point) => point.minorUnits)).toEqual([1999, 2999]);
  });

  it("reads commas between groups of three digits as thousands", () => {
    const result = parsePricePoints("1,299.00", "USD");
    expect(result.ok && result.pricePoints).toEqual([{ amount: "1299.00", minorUnits: 129900 }]);
  });

  it("uses the currency's real minor unit: JPY has none, KWD has three digits", () => {
    expect(parsePricePoints("1500, 3000", "JPY")).toEqual({
      ok: true,
      pricePoints: [
        { amount: "1500", minorUnits: 1500 },
        { amount: "3000", minorUnits: 3000 },
      ],
    });
    expect(parsePricePoints("1,000", "JPY")).toEqual({
      ok: true,
      pricePoints: [{ amount: "1000", minorUnits: 1000 }],
    });
    expect(parsePricePoints("4.125", "KWD")).toEqual({
      ok: true,
      pricePoints: [{ amount: "4.125", minorUnits: 4125 }],
    });
  });

  it("refuses decimals the currency does not have instead of rounding them away", () => {
    expect(parsePricePoints("1500.50", "JPY")).toEqual({
      ok: false,
      issues: [{ code: "too_many_decimals", value: "1500.50", decimals: 0 }],
    });
    expect(parsePricePoints("19.999", "EUR")).toEqual({
      ok: false,
      issues: [{ code: "too_many_decimals", value: "19.999", decimals: 2 }],
    });
  });

  it("reports every bad price: empty, not a number, zero or negative, duplicate", () => {
    expect(parsePricePoints("  \n ", "EUR")).toEqual({ ok: false, issues: [{ code: "empty" }] });
    expect(parsePricePoints("19.99 abc 0 -5 19.990 1e3", "EUR")).toEqual({
      ok: false,
      issues: [
        { code: "not_a_price", value: "abc" },
        { code: "not_positive", value: "0" },
        { code: "not_positive", value: "-5" },
        { code: "too_many_decimals", value: "19.990", decimals: 2 },
        { code: "not_a_price", value: "1e3" },
      ],
    });
    expect(parsePricePoints("19.99 19.990", "JPY").ok).toBe(false);
    expect(parsePricePoints("19.99, 19.9900000", "BHD")).toEqual({
      ok: false,
      issues: [{ code: "too_many_decimals", value: "19.9900000", decimals: 3 }],
    });
    expect(parsePricePoints("19.99 19.99", "EUR")).toEqual({
      ok: false,
      issues: [{ code: "duplicate", value: "19.99" }],
    });
  });

  it("refuses more price points than one product should carry", () => {
    const prices = Array.from({ length: MAX_PRICE_POINTS + 1 }, (_, index) => String(index + 1));
    expect(parsePricePoints(prices.join(" "), "EUR")).toEqual({
      ok: false,
      issues: [{ code: "too_many", max: MAX_PRICE_POINTS }],
    });
  });

  it("refuses an amount too large to count in minor units", () => {
    expect(parsePricePoints("99999999999999999", "EUR")).toEqual({
      ok: false,
      issues: [{ code: "not_a_price", value: "99999999999999999" }],
    });
  });
});
