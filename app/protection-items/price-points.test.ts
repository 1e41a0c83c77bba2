import { describe, expect, it } from "vitest";
import { MAX_PRICE_POINTS, parsePricePoints } from "./price-points";

describe("parsePricePoints", () => {
  // Each case: the merchant's text, the shop currency, and every price as [amount, minorUnits].
  it.each<[string, string, string, [string, number][]]>([
    [
      "reads the merchant's list in EUR as cents and as Shopify's decimal amounts",
      "19.99, 29.99, 59.99",
      "EUR",
      [
        ["19.99", 1999],
        ["29.99", 2999],
        ["59.99", 5999],
      ],
    ],
    [
      "takes prices one per line, with semicolons, decimal commas and currency signs",
      "€19,99\n29.9 EUR; 59\r\n",
      "EUR",
      [
        ["19.99", 1999],
        ["29.90", 2990],
        ["59.00", 5900],
      ],
    ],
    [
      "splits on a comma without space when the prices have decimal points",
      "19.99,29.99",
      "EUR",
      [
        ["19.99", 1999],
        ["29.99", 2999],
      ],
    ],
    [
      "reads commas between groups of three digits as thousands",
      "1,299.00",
      "USD",
      [["1299.00", 129900]],
    ],
    [
      "uses JPY's real minor unit: none",
      "1500, 3000",
      "JPY",
      [
        ["1500", 1500],
        ["3000", 3000],
      ],
    ],
    ["reads a JPY thousands comma", "1,000", "JPY", [["1000", 1000]]],
    ["uses KWD's real minor unit: three digits", "4.125", "KWD", [["4.125", 4125]]],
  ])("%s", (_name, text, currency, points) => {
    expect(parsePricePoints(text, currency)).toEqual({
      ok: true,
      pricePoints: points.map(([amount, minorUnits]) => ({ amount, minorUnits })),
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
