import { describe, expect, it } from "vitest";
import { currencyExponent, toMinorUnits } from "./money";

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
