import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminGraphqlCalls, resetAdminGraphql } from "../support/admin-graphql";
import { appProxyRequest, plansQuery } from "../support/app-proxy";
import { OWN_CARTS, readOwnCart } from "../support/cart-fixtures";
import {
  createStoreProduct,
  freezeStoreClock,
  installInStore,
  releaseStoreClock,
  storeControl,
} from "../support/local-store";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { callRoute } from "../support/routes";

// The app proxy against hostile visitors (issue 13, defects 1 and 9; decision 016): signed
// requests to the real routes, Shopify's Admin API played by the local store, the emulator as
// the service.

// Read by getEnv() on first use, after this (app modules are imported later, as the routes read
// the configuration when loaded): small buckets, so that a test can spend them.
process.env.SVC_PROXY_CLIENT_BURST = "5";
process.env.SVC_PROXY_CLIENT_RATE_PER_SECOND = "0.1";
process.env.SVC_PROXY_SHOP_BURST = "12";
process.env.SVC_PROXY_SHOP_RATE_PER_SECOND = "0.1";

const SHOP = "edge-store.myshopify.com";
const app = withOutboxApp();

/**
 * The shop's laptop in the store: its product and four variants. None is in the emulator's
 * catalogue by ID, so the service finds plans for them by the title the storefront sends.
 */
let laptopProduct = "";
let variants: string[] = [];

beforeAll(async () => {
  await installInStore(app.prisma, SHOP);
  const laptop = await createStoreProduct(SHOP, {
    title: "Aurora 14 Laptop",
    variants: ["8 GB", "16 GB", "32 GB", "Open box"].map((title) => ({ title, price: "199.00" })),
  });
  laptopProduct = laptop.id;
  variants = laptop.variants.map((variant) => variant.id);
});

beforeEach(async () => {
  (await import("../../app/models/StorefrontActivity.server")).forgetStorefrontActivity();
  (await import("../../app/storefront/variant-check.server")).forgetVariantChecks();
  (await import("../../app/storefront/proxy-http.server")).forgetRateLimits();
  resetAdminGraphql();
  await app.control.reset();
  await app.prisma.shopConnection.deleteMany({});
  await app.prisma.productOfferHint.deleteMany({});
  await app.prisma.productOfferHintPublish.deleteMany({});
  await app.prisma.protectableVariant.deleteMany({});
  await app.prisma.session.deleteMany({});
  await connectShop(app.prisma, SHOP);
  await installInStore(app.prisma, SHOP);
});

afterEach(() => releaseStoreClock());

/** A laptop of the shop's catalogue, with its product ID as the offer block sends it. */
function laptopQuery(variantId: string, overrides: Record<string, string> = {}) {
  return plansQuery(variantId, { product_id: laptopProduct, ...overrides });
}

async function getPlans(
  query: Record<string, string>,
  options: { shop?: string; forwardedFor?: string; customer?: string } = {},
) {
  const { loader } = await import("../../app/routes/proxy.plans");
  const signed = appProxyRequest({
    path: "plans",
    shop: options.shop ?? SHOP,
    query,
    ...(options.customer === undefined ? {} : { loggedInCustomerId: options.customer }),
  });
  const request = new Request(signed.url, {
    headers: options.forwardedFor ? { "X-Forwarded-For": options.forwardedFor } : {},
  });
  const answer = (await callRoute(loader, request)) as Response;
  return {
    status: answer.status,
    headers: answer.headers,
    body: (await answer.json()) as { plans?: unknown[]; unavailable?: string; error?: unknown },
  };
}

const serviceLookups = async () =>
  (await app.control.requests()).filter((request) => request.path === "/sandbox/plans");
const variantChecks = () =>
  adminGraphqlCalls().filter((call) => call.operationName === "ProductVariantOwner");

describe("plans for visitor-chosen variants", () => {
  it("keys the plan cache on title, brand and category: one odd request hides no offers", async () => {
    // A visitor asks for the laptop's variant under another title: the service has no plans.
    const odd = await getPlans(laptopQuery(variants[3]!, { product_title: "Garden hose" }));
    expect(odd.body.plans).toEqual([]);
    // Every other visitor still gets the laptop's plans, from their own lookup.
    const real = await getPlans(laptopQuery(variants[3]!));
    expect(real.body.plans?.length).toBeGreaterThan(0);
    const brand = await getPlans(laptopQuery(variants[3]!, { product_brand: "Other" }));
    await getPlans(laptopQuery(variants[3]!, { product_category: "garden" }));
    expect(brand.status).toBe(200);
    expect((await serviceLookups()).map((lookup) => lookup.query.product_title)).toEqual([
      "Garden hose",
      "Aurora 14 Laptop",
      "Aurora 14 Laptop",
      "Aurora 14 Laptop",
    ]);
    // The same lookup again is answered from the cache.
    await getPlans(laptopQuery(variants[3]!));
    expect(await serviceLookups()).toHaveLength(4);
  });

  it("answers a variant the shop does not have with no plans, at no service call, row or write", async () => {
    for (let view = 0; view < 3; view += 1) {
      const answer = await getPlans(laptopQuery("4242424242", { price: "100" }));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        variant_id: "4242424242",
        plans: [],
        unavailable: "unknown_variant",
      });
      expect(answer.headers.get("cache-control")).toBe("public, max-age=300");
    }
    // Shopify was asked once; the unknown answer is remembered.
    expect(variantChecks()).toHaveLength(1);
    expect(variantChecks()[0]?.variables).toEqual({
      id: "gid://shopify/ProductVariant/4242424242",
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await serviceLookups()).toEqual([]);
    expect(await app.prisma.productOfferHint.count()).toBe(0);
    expect(await app.prisma.protectableVariant.count()).toBe(0);
    expect(adminGraphqlCalls().map((call) => call.operationName)).toEqual(["ProductVariantOwner"]);
  });

  it("checks a known variant once, and keeps its hint under the product Shopify names", async () => {
    // Below every price band: no plans, so the product gets a hint; the visitor claims another product.
    const answer = await getPlans(
      laptopQuery(variants[1]!, { price: "100", product_id: "999999999" }),
    );
    expect(answer.body.plans).toEqual([]);
    await getPlans(laptopQuery(variants[1]!, { price: "100" }));
    expect(variantChecks()).toHaveLength(1);
    await expect
      .poll(() => app.prisma.productOfferHint.findMany({ select: { productId: true } }))
      .toEqual([{ productId: laptopProduct }]);
  });

  it("answers no plans, without asking the service, when Shopify cannot be asked", async () => {
    // The store's bucket emptied, its clock stopped: Shopify throttles the variant check.
    freezeStoreClock();
    expect((await storeControl(`shops/${SHOP}/throttle`, { available: 0 })).status).toBe(200);

    const answer = await getPlans(laptopQuery(variants[2]!));
    expect(answer.body).toMatchObject({ plans: [], unavailable: "variant_unchecked" });
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await serviceLookups()).toEqual([]);
    expect(variantChecks().map((call) => call.answeredBy)).toEqual(["store"]);
  });
});

describe("app proxy rate limits", () => {
  it("answers 429 with Retry-After once a visitor's bucket is spent; other visitors go on", async () => {
    const statuses = [];
    for (let request = 0; request < 6; request += 1) {
      const answer = await getPlans(laptopQuery(variants[0]!), { forwardedFor: "203.0.113.9" });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.headers.get("retry-after")).toBe("10");
        expect(answer.body).toMatchObject({ error: { code: "rate_limited" } });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(
      (await getPlans(laptopQuery(variants[0]!), { forwardedFor: "198.51.100.4" })).status,
    ).toBe(200);
    // A logged-in customer is one visitor whatever address it comes from.
    const customer = [];
    for (let request = 0; request < 6; request += 1) {
      const forwardedFor = `192.0.2.${request}`;
      customer.push(
        (await getPlans(laptopQuery(variants[0]!), { forwardedFor, customer: "77" })).status,
      );
    }
    expect(customer).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("answers 429 once the shop's bucket is spent, whoever asks", async () => {
    const statuses = [];
    for (let request = 0; request < 13; request += 1) {
      const answer = await getPlans(laptopQuery(variants[0]!), {
        forwardedFor: `10.0.0.${request}`,
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 12)).toEqual(Array.from({ length: 12 }, () => 200));
    expect(statuses[12]).toBe(429);
    // Another shop has its own bucket.
    expect((await getPlans(laptopQuery("1"), { shop: "elsewhere.myshopify.com" })).status).toBe(
      200,
    );
  });
});

describe("hostile cart update bodies", () => {
  it("still reports a real cart", async () => {
    const { action } = await import("../../app/routes/proxy.cart_updates");
    const body = JSON.stringify({
      user_session_id: randomUUID(),
      cart: readOwnCart(OWN_CARTS.cadWithPlan),
    });
    const answer = (await callRoute(
      action,
      appProxyRequest({ path: "cart_updates", shop: SHOP, method: "POST", body }),
    )) as Response;
    expect(answer.status).toBe(200);
  });
  it("answers 250 KB of unclosed quoted quotes with 400 well within a second", async () => {
    const { action } = await import("../../app/routes/proxy.cart_updates");
    const body = '{"user_session_id": "' + '\\"'.repeat(120_000);
    const started = performance.now();
    const answer = (await callRoute(
      action,
      appProxyRequest({ path: "cart_updates", shop: SHOP, method: "POST", body }),
    )) as Response;
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: "invalid_request" } });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
