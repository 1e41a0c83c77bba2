import { describe, expect, it } from "vitest";
import { moneyAmount, moneyNumber, moneySet, unsettledSet } from "./money-set";

describe("money in Shopify's decimals", () => {
  it("writes 2, 0 and 3 decimal currencies with their own digits", () => {
    expect(moneyAmount(1999, "EUR")).toBe("19.99");
    expect(moneyAmount(5, "USD")).toBe("0.05");
    expect(moneyAmount(1500, "JPY")).toBe("1500");
    expect(moneyAmount(1500, "KWD")).toBe("1.500");
    expect(moneyAmount(0, "KWD")).toBe("0.000");
    expect(moneyNumber(1500, "KWD")).toBe(1.5);
    expect(moneyNumber(8999, "USD")).toBe(89.99);
    expect(moneySet(1500, "JPY")).toEqual({
      shop_money: { amount: "1500", currency_code: "JPY" },
      presentment_money: { amount: "1500", currency_code: "JPY" },
    });
    expect(() => moneyAmount(0.5, "EUR")).toThrow("not a whole number");
  });

  it("writes a transaction's unsettled amount as Shopify's samples do", () => {
    expect(unsettledSet("VND")).toEqual({
      presentment_money: { amount: "0.0", currency: "VND" },
      shop_money: { amount: "0.0", currency: "VND" },
    });
  });
});
