import { describe, expect, it } from "vitest";
import { minorUnitsToShopifyCents, shopifyCentsToMinorUnits } from "./money";

describe("shopifyCentsToMinorUnits", () => {
  it.each([
    // EUR: two minor digits, the same as Shopify's cents.
    [1999, "EUR", 1999],
    [129900, "eur", 129900],
    [0, "EUR", 0],
    // JPY: no minor unit; Shopify writes ¥1,000 as 100000.
    [100000, "JPY", 1000],
    [5800000, "jpy", 58000],
    [100, "JPY", 1],
    // KWD: three minor digits (fils); Shopify writes 125.50 KWD as 12550.
    [12550, "KWD", 125500],
    [1, "KWD", 10],
    // Large amounts stay exact: no float multiplication or rounding.
    [900719925474099, "EUR", 900719925474099],
    [900719925474000, "JPY", 9007199254740],
  ])("%i Shopify cents of %s are %i minor units", (cents, currency, minor) => {
    expect(shopifyCentsToMinorUnits(cents, currency)).toBe(minor);
  });

  it.each([
    [100050, "JPY", "half a yen"],
    [99, "JPY", "less than a yen"],
    [12.5, "EUR", "a fraction of a cent"],
    [-100, "EUR", "negative"],
    [Number.MAX_SAFE_INTEGER, "KWD", "beyond 2^53 once scaled"],
  ])("refuses %s %s (%s)", (cents, currency) => {
    expect(shopifyCentsToMinorUnits(cents, currency)).toBeUndefined();
  });

  it("refuses a code that is not three letters", () => {
    expect(() => shopifyCentsToMinorUnits(100, "EURO")).toThrow(/Unknown currency code "EURO"/);
  });
});

describe("minorUnitsToShopifyCents", () => {
  it.each([
    [12999, "EUR", 12999],
    [4800, "JPY", 480000],
    [1, "JPY", 100],
    [12500, "KWD", 1250],
    [10, "kwd", 1],
  ])("%i minor units of %s are %i Shopify cents", (minor, currency, cents) => {
    expect(minorUnitsToShopifyCents(minor, currency)).toBe(cents);
  });

  it("is the exact inverse of shopifyCentsToMinorUnits for EUR, JPY and KWD", () => {
    for (const currency of ["EUR", "JPY", "KWD"]) {
      for (const cents of [0, 100, 1200, 58000, 129900, 5800000, 123456700]) {
        const minor = shopifyCentsToMinorUnits(cents, currency);
        expect(minor).toBeDefined();
        expect(minorUnitsToShopifyCents(minor as number, currency)).toBe(cents);
      }
    }
  });

  it.each([
    [1995, "KWD", "1.995 KWD would be 199.5 cents"],
    [-1, "EUR", "negative"],
    [0.5, "JPY", "not an integer"],
    [Number.MAX_SAFE_INTEGER, "JPY", "beyond 2^53 once scaled"],
  ])("refuses %s %s (%s)", (minor, currency) => {
    expect(minorUnitsToShopifyCents(minor, currency)).toBeUndefined();
  });
});
