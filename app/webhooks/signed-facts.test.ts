import { describe, expect, it } from "vitest";
import { checkSignedFacts, unknownShopStatus, WEBHOOK_PATH_TOPICS } from "./signed-facts";

const SHOP = "super-toys.myshopify.com";

describe("checkSignedFacts", () => {
  it("takes the route's topic only", () => {
    expect(
      checkSignedFacts({
        routeTopic: "orders/create",
        headerTopic: "orders/create",
        headerShop: SHOP,
      }),
    ).toEqual({ ok: true, shop: SHOP, shopIsSigned: false });
    expect(
      checkSignedFacts({
        routeTopic: "shop/redact",
        headerTopic: "customers/redact",
        headerShop: SHOP,
      }),
    ).toMatchObject({ ok: false, status: 400 });
  });

  it.each([
    "example.com",
    "SUPER-TOYS.myshopify.com",
    "x.myshopify.com.evil.io",
    "-a.myshopify.com",
    "",
  ])("refuses the shop header %j", (headerShop) => {
    const facts = checkSignedFacts({
      routeTopic: "orders/create",
      headerTopic: "orders/create",
      headerShop,
    });
    expect(facts).toMatchObject({ ok: false, status: 400 });
  });

  it("takes a compliance shop from the signed shop_domain and refuses a header that differs", () => {
    const claims = { routeTopic: "customers/redact" as const, headerTopic: "customers/redact" };
    expect(
      checkSignedFacts({ ...claims, headerShop: SHOP, payload: { shop_domain: SHOP } }),
    ).toEqual({
      ok: true,
      shop: SHOP,
      shopIsSigned: true,
    });
    for (const payload of [
      { shop_domain: "other.myshopify.com" },
      {},
      { shop_domain: "evil.com" },
    ]) {
      expect(checkSignedFacts({ ...claims, headerShop: SHOP, payload })).toMatchObject({
        ok: false,
      });
    }
  });

  it("checks app/uninstalled's myshopify_domain when Shopify fills it in", () => {
    const claims = {
      routeTopic: "app/uninstalled" as const,
      headerTopic: "app/uninstalled",
      headerShop: SHOP,
    };
    expect(checkSignedFacts({ ...claims, payload: { myshopify_domain: null } })).toMatchObject({
      ok: true,
      shopIsSigned: false,
    });
    expect(
      checkSignedFacts({ ...claims, payload: { myshopify_domain: "other.myshopify.com" } }),
    ).toMatchObject({
      ok: false,
    });
  });

  it("refuses an unknown shop's order with 404 and answers other topics 200", () => {
    expect(unknownShopStatus("orders/create")).toBe(404);
    expect(unknownShopStatus("customers/redact")).toBe(200);
    expect(WEBHOOK_PATH_TOPICS.get("/webhooks/shop/redact")).toBe("shop/redact");
  });
});
