import { describe, expect, it } from "vitest";
import {
  currencyExponent,
  formatMinorUnits,
  formatMoney,
  minorUnitsToShopifyCents,
  shopifyCentsToMinorUnits,
  toMinorUnits,
} from "./money";

describe("currencyExponent", () => {
  it.each([
    ["JPY", 0],
    ["vnd", 0],
    ["XPF", 0],
    ["KWD", 3],
    ["bhd", 3],
    ["CLF", 4],
    ["UYW", 4],
    ["EUR", 2],
    ["XYZ", 2],
  ])("%s has %i minor digits", (code, exponent) => {
    expect(currencyExponent(code)).toBe(exponent);
  });

  it.each(["EURO", "EU", "", "E1R"])("refuses %j", (code) => {
    expect(() => currencyExponent(code)).toThrow(
      `Unknown currency code ${JSON.stringify(code)}: expected three letters such as "EUR"`,
    );
  });
});

describe("toMinorUnits", () => {
  it.each([
    ["1500", "JPY", 1500],
    ["1500.00", "JPY", 1500],
    ["1500.5", "JPY", 1501],
    ["1.234", "KWD", 1234],
    ["1.2", "KWD", 1200],
    ["19.99", "EUR", 1999],
    ["19.99", "eur", 1999],
    ["10", "EUR", 1000],
    ["0.00", "EUR", 0],
    ["1.005", "EUR", 101],
    ["1.0049", "EUR", 100],
    ["-1.005", "EUR", -101],
    ["-0.001", "EUR", 0],
    ["0.0001", "CLF", 1],
    ["90071992547409.91", "EUR", 9007199254740991],
  ])("%s %s is %i", (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor);
  });

  it("reads numbers by their decimal text, not by float multiplication", () => {
    // 1.005 * 100 is 100.49999999999999 as a float; 0.1 + 0.2 is 0.30000000000000004.
    expect(toMinorUnits(1.005, "EUR")).toBe(101);
    expect(toMinorUnits(19.99, "EUR")).toBe(1999);
    expect(toMinorUnits(0.1 + 0.2, "EUR")).toBe(30);
    expect(toMinorUnits(4.35, "USD")).toBe(435);
  });

  it.each(["abc", "", "1,99", "1.", ".5", "+1", "1e3", " 1.00"])(
    "refuses the amount %j",
    (amount) => {
      expect(() => toMinorUnits(amount, "EUR")).toThrow(
        `Cannot convert ${JSON.stringify(amount)} to minor units of EUR: not a decimal amount`,
      );
    },
  );

  it("refuses numbers that are not finite or not written in plain decimals", () => {
    expect(() => toMinorUnits(Number.NaN, "EUR")).toThrow("not a decimal amount");
    expect(() => toMinorUnits(1e21, "EUR")).toThrow("not a decimal amount");
  });

  it("refuses an unknown currency code", () => {
    expect(() => toMinorUnits("19.99", "EURO")).toThrow('Unknown currency code "EURO"');
  });

  it("refuses amounts beyond what a JSON number holds exactly", () => {
    expect(() => toMinorUnits("90071992547409.92", "EUR")).toThrow(
      'Cannot convert "90071992547409.92" to minor units of EUR: too large',
    );
  });
});

describe("formatMinorUnits", () => {
  it("writes the currency's digits", () => {
    expect(formatMinorUnits(1999, "EUR")).toBe("19.99");
    expect(formatMinorUnits(5, "EUR")).toBe("0.05");
    expect(formatMinorUnits(1500, "JPY")).toBe("1500");
    expect(formatMinorUnits(4125, "KWD")).toBe("4.125");
    expect(formatMinorUnits(-250, "usd")).toBe("-2.50");
  });
});

describe("formatMoney", () => {
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

  it("formats minor units with the currency's real exponent in the admin's locale", () => {
    expect(plain(formatMoney(123456, "eur", "en"))).toBe("€1,234.56");
    expect(plain(formatMoney(123456, "EUR", "de"))).toBe("1.234,56 €");
    expect(plain(formatMoney(1500, "jpy", "en"))).toBe("¥1,500");
    expect(plain(formatMoney(1500, "kwd", "en"))).toBe("KWD 1.500");
    expect(plain(formatMoney(5, "eur", "en"))).toBe("€0.05");
    expect(plain(formatMoney(-250, "usd", "en"))).toBe("-$2.50");
    expect(plain(formatMoney(12345, "clf", "de"))).toBe("1,2345 CLF");
  });

  it("keeps every digit of amounts beyond float precision", () => {
    expect(plain(formatMoney(9_007_199_254_740_991, "eur", "en"))).toBe("€90,071,992,547,409.91");
  });
});

/** The same amounts in Shopify cents and in the currency's minor units, for both directions. */
const CENTS_AND_MINOR_UNITS: [cents: number, currency: string, minor: number][] = [
  // EUR: two minor digits, the same as Shopify's cents.
  [1999, "EUR", 1999],
  [129900, "eur", 129900],
  [12999, "EUR", 12999],
  [0, "EUR", 0],
  // JPY: no minor unit; Shopify writes ¥1,000 as 100000.
  [100000, "JPY", 1000],
  [5800000, "jpy", 58000],
  [480000, "JPY", 4800],
  [100, "JPY", 1],
  // KWD: three minor digits (fils); Shopify writes 125.50 KWD as 12550.
  [12550, "KWD", 125500],
  [1250, "KWD", 12500],
  [1, "KWD", 10],
  [1, "kwd", 10],
  // Large amounts stay exact: no float multiplication or rounding.
  [900719925474099, "EUR", 900719925474099],
  [900719925474000, "JPY", 9007199254740],
];

describe("shopifyCentsToMinorUnits", () => {
  it.each(CENTS_AND_MINOR_UNITS)(
    "%i Shopify cents of %s are %i minor units",
    (cents, currency, minor) => {
      expect(shopifyCentsToMinorUnits(cents, currency)).toBe(minor);
    },
  );

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
  it.each(CENTS_AND_MINOR_UNITS)(
    "gives %i Shopify cents of %s for %i minor units",
    (cents, currency, minor) => {
      expect(minorUnitsToShopifyCents(minor, currency)).toBe(cents);
    },
  );

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
