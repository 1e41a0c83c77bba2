import { describe, expect, it } from "vitest";
import type { Plan } from "../protection/types";
import { toPlanOffers } from "./plan-offers";

function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    merchant_product_id: "44590322893113",
    price_amount: 12999,
    price_currency: "eur",
    product_reference: "8457293627449",
    title: { en: "2-year protection", de: "2 Jahre Schutz" },
    insurance_details_url: "https://example.com/svc/insurance/electronics-2-year",
    ...overrides,
  };
}

describe("toPlanOffers", () => {
  it("offers an EUR plan with its variant, price in Shopify cents and service amount", () => {
    expect(toPlanOffers([plan()], { currency: "EUR" })).toEqual({
      offers: [
        {
          merchant_product_id: "44590322893113",
          variant_id: "44590322893113",
          price: 12999,
          price_amount: 12999,
          currency: "EUR",
          title: { en: "2-year protection", de: "2 Jahre Schutz" },
          insurance_details_url: "https://example.com/svc/insurance/electronics-2-year",
        },
      ],
      dropped: [],
    });
  });

  it("writes a yen plan price in Shopify cents (¥4,800 is 480000)", () => {
    const { offers } = toPlanOffers([plan({ price_amount: 4800, price_currency: "jpy" })], {
      currency: "JPY",
    });
    expect(offers[0]).toMatchObject({ price: 480000, price_amount: 4800, currency: "JPY" });
  });

  it("writes a dinar plan price in Shopify cents (12.500 KWD is 1250)", () => {
    const { offers } = toPlanOffers([plan({ price_amount: 12500, price_currency: "KWD" })], {
      currency: "KWD",
    });
    expect(offers[0]).toMatchObject({ price: 1250, price_amount: 12500, currency: "KWD" });
  });

  it("drops, with the reason, every plan the storefront could not sell correctly", () => {
    const kept = plan({ merchant_product_id: "44590322893114" });
    const { offers, dropped } = toPlanOffers(
      [
        plan({ merchant_product_id: "SVC-2Y-ELECTRONICS" }),
        plan({ merchant_product_id: "gid://shopify/ProductVariant/44590322893113" }),
        plan({ price_currency: "usd" }),
        plan({ insurance_details_url: "javascript:alert(1)" }),
        plan({ insurance_details_url: "http://example.com/terms" }),
        kept,
      ],
      { currency: "EUR" },
    );
    expect(offers.map((offer) => offer.variant_id)).toEqual(["44590322893114"]);
    expect(dropped).toEqual([
      {
        merchantProductId: "SVC-2Y-ELECTRONICS",
        reason: 'merchant_product_id "SVC-2Y-ELECTRONICS" is not a Shopify variant ID',
      },
      {
        merchantProductId: "gid://shopify/ProductVariant/44590322893113",
        reason:
          'merchant_product_id "gid://shopify/ProductVariant/44590322893113" is not a Shopify variant ID',
      },
      {
        merchantProductId: "44590322893113",
        reason: 'price_currency "usd" is not the requested eur',
      },
      {
        merchantProductId: "44590322893113",
        reason: 'insurance_details_url "javascript:alert(1)" is not an https:// URL',
      },
      {
        merchantProductId: "44590322893113",
        reason: 'insurance_details_url "http://example.com/terms" is not an https:// URL',
      },
    ]);
  });

  it("drops a plan whose price has no exact Shopify cents form (1.995 KWD)", () => {
    const { offers, dropped } = toPlanOffers(
      [plan({ price_amount: 1995, price_currency: "kwd" })],
      { currency: "KWD" },
    );
    expect(offers).toEqual([]);
    expect(dropped[0]?.reason).toBe("price_amount 1995 KWD has no exact Shopify cents form");
  });
});
