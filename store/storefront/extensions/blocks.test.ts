import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify, { type LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildStore } from "../../server/server";
import { shopifyApiFor } from "../../server/shopify-api-support";
import { API_KEY, API_SECRET, startFakeApp, type FakeApp } from "../../server/test-support";
import { testShop, variantIdOf } from "../test-shop.test-support";
import { registerCheckoutBlocks, THANK_YOU_TARGET } from "./blocks";
import type { CheckoutHostConfig } from "./host/config";

/*
 * The app's Thank-you block in the store's checkout stand-in (decision 032): the page's slot,
 * the block's frame with its host configuration, the bundles, and the checkout session token
 * the app's `authenticate.public.checkout` accepts (checked with Shopify's own library).
 */

const SHOP = "blocks-demo.myshopify.com";
let fakeApp: FakeApp;
let store: ReturnType<typeof buildStore>;
let laptopVariant: string;

beforeAll(async () => {
  fakeApp = await startFakeApp();
});
afterAll(async () => {
  await store?.app.close();
  await fakeApp.close();
});
beforeEach(async () => {
  await store?.app.close();
  store = buildStore({ retryDelaysMs: [] });
  const { laptop } = testShop({
    state: store.state,
    domain: SHOP,
    appUrl: fakeApp.url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
  });
  store.state.install(SHOP, ["read_orders"]);
  laptopVariant = variantIdOf(laptop);
});

function cookieOf(answer: LightMyRequestResponse): string {
  const header = answer.headers["set-cookie"];
  return ((Array.isArray(header) ? header[0] : header) ?? "").split(";")[0] ?? "";
}

/** A buyer's checkout of one laptop: the Thank-you page's path and the order's ID. */
async function checkOut(): Promise<{ thankYou: string; token: string; orderId: string }> {
  const added = await store.app.inject({
    method: "POST",
    url: "/cart/add.js",
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({ items: [{ id: laptopVariant, quantity: 1 }] }),
  });
  expect(added.statusCode).toBe(200);
  const placed = await store.app.inject({
    method: "POST",
    url: "/checkout",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieOf(added) },
    payload: new URLSearchParams({
      email: "buyer@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      address1: "12 Test Street",
      city: "Berlin",
      zip: "10115",
      country: "Germany",
    }).toString(),
  });
  expect(placed.statusCode).toBe(303);
  const thankYou = String(placed.headers.location);
  const token = /^\/checkouts\/([^/]+)\/thank-you$/.exec(thankYou)![1]!;
  const [order] = store.state.orders(SHOP);
  return { thankYou, token, orderId: order!.id };
}

function hostConfigIn(html: string): CheckoutHostConfig {
  const json = /window\.__svcHostConfig = (\{.*?\});<\/script>/.exec(html)?.[1];
  if (!json) throw new Error(`No host configuration in ${html}`);
  return JSON.parse(json) as CheckoutHostConfig;
}

describe("the Thank-you page's block slot", () => {
  it("frames the post-purchase extension's block for the checkout, in the buyer's language", async () => {
    const { thankYou, token } = await checkOut();
    const page = await store.app.inject({ method: "GET", url: thankYou });
    expect(page.statusCode).toBe(200);
    const frame = `/checkouts/${token}/blocks/${THANK_YOU_TARGET}?locale=en`;
    expect(page.body).toContain(
      `<section id="checkout-blocks" data-target="${THANK_YOU_TARGET}"><iframe title="svc-post-purchase" data-extension="svc-post-purchase" src="${frame}"`,
    );
    const german = await store.app.inject({ method: "GET", url: `${thankYou}?locale=de` });
    expect(german.body).toContain(`/blocks/${THANK_YOU_TARGET}?locale=de"`);
  });

  it("shows no slot when the shop has not installed the app", async () => {
    const { thankYou, token } = await checkOut();
    store.state.uninstall(SHOP);
    const page = await store.app.inject({ method: "GET", url: thankYou });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="order-id"');
    expect(page.body).not.toContain("checkout-blocks");
    const frame = await store.app.inject({
      method: "GET",
      url: `/checkouts/${token}/blocks/${THANK_YOU_TARGET}`,
    });
    expect(frame.statusCode).toBe(404);
  });

  it("shows no slot when the app has no extension for the target", async () => {
    const app = Fastify();
    const blocks = registerCheckoutBlocks(app, {
      state: store.state,
      storefrontShop: () => store.state.shop(SHOP),
      now: () => new Date(),
      extensionsDir: mkdtempSync(path.join(tmpdir(), "svc-no-extensions-")),
    });
    const shop = store.state.shop(SHOP)!;
    expect(blocks({ shop, checkoutToken: "t", locale: "en" })).toBe("");
    const withThem = registerCheckoutBlocks(Fastify(), {
      state: store.state,
      storefrontShop: () => shop,
      now: () => new Date(),
    });
    expect(withThem({ shop, checkoutToken: "t", locale: "en" })).toContain("<iframe");
  });
});

describe("the block's frame", () => {
  it("gives the host the order's confirmation, the extension's translations and the token URL", async () => {
    const { token, orderId } = await checkOut();
    const frame = await store.app.inject({
      method: "GET",
      url: `/checkouts/${token}/blocks/${THANK_YOU_TARGET}?locale=de`,
    });
    expect(frame.statusCode).toBe(200);
    const config = hostConfigIn(frame.body);
    expect(config).toMatchObject({
      target: THANK_YOU_TARGET,
      locale: "de",
      currency: "EUR",
      orderConfirmation: {
        order: { id: `gid://shopify/OrderIdentity/${orderId}` },
        number: expect.stringMatching(/^[0-9A-Z]{9}$/),
        isFirstOrder: true,
      },
      sessionTokenUrl: `/checkouts/${token}/session-token`,
    });
    expect(config.translations).toMatchObject({
      offer: { heading: "Schützen Sie Ihren Einkauf" },
    });
    // The host script comes before the extension's module: it defines `shopify` first.
    const scripts = [...frame.body.matchAll(/<script src="([^"]+)" defer>/g)].map((m) => m[1]);
    expect(scripts).toEqual([
      "/extensions/host/checkout.js",
      `/extensions/svc-post-purchase/${THANK_YOU_TARGET}.js`,
    ]);
    const english = hostConfigIn(
      (
        await store.app.inject({
          method: "GET",
          url: `/checkouts/${token}/blocks/${THANK_YOU_TARGET}?locale=fr`,
        })
      ).body,
    );
    expect(english.locale).toBe("en");
    expect(english.translations).toMatchObject({ offer: { heading: "Protect your purchase" } });
  });

  it("answers a checkout that placed no order with a 404", async () => {
    await checkOut();
    const frame = await store.app.inject({
      method: "GET",
      url: `/checkouts/nope/blocks/${THANK_YOU_TARGET}`,
    });
    expect(frame.statusCode).toBe(404);
  });

  it("serves the host script and the extension's module with the installed app's URL", async () => {
    const host = await store.app.inject({ method: "GET", url: "/extensions/host/checkout.js" });
    expect(host.statusCode).toBe(200);
    expect(host.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(host.body).toContain("__svcHostConfig");
    expect(host.body).toContain("setSignals");
    const bundle = await store.app.inject({
      method: "GET",
      url: `/extensions/svc-post-purchase/${THANK_YOU_TARGET}.js`,
    });
    expect(bundle.statusCode).toBe(200);
    // process.env.APP_URL, as the Shopify CLI defines it in dev.
    expect(bundle.body).toContain(JSON.stringify(fakeApp.url));
    expect(bundle.body).toContain("/api/checkout/protection-link");
    const unknown = await store.app.inject({
      method: "GET",
      url: `/extensions/svc-order-admin/${THANK_YOU_TARGET}.js`,
    });
    expect(unknown.statusCode).toBe(404);
  }, 30_000);
});

describe("POST /checkouts/:token/session-token", () => {
  it("signs a checkout session token for the shop and the app, valid 5 minutes", async () => {
    const { token } = await checkOut();
    const answer = await store.app.inject({
      method: "POST",
      url: `/checkouts/${token}/session-token`,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    const body = answer.json<{ token: string; expiresAt: number }>();
    // Shopify's library, as the app's authenticate.public.checkout calls it.
    const payload = await shopifyApiFor(fakeApp.url).session.decodeSessionToken(body.token);
    expect(payload.dest).toBe(SHOP);
    expect(payload.aud).toBe(API_KEY);
    expect(payload.exp - payload.iat).toBe(300);
    expect(body.expiresAt).toBe(payload.exp);
    // A guest checkout: no customer.
    expect(payload.sub).toBeUndefined();
    await expect(
      shopifyApiFor(fakeApp.url, { secret: "another-secret" }).session.decodeSessionToken(
        body.token,
      ),
    ).rejects.toThrow();
  });

  it("signs nothing for another checkout, another site, or a shop without the app", async () => {
    const { token } = await checkOut();
    const unknown = await store.app.inject({
      method: "POST",
      url: "/checkouts/nope/session-token",
    });
    expect(unknown.statusCode).toBe(404);
    const crossSite = await store.app.inject({
      method: "POST",
      url: `/checkouts/${token}/session-token`,
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.statusCode).toBe(403);
    store.state.uninstall(SHOP);
    const uninstalled = await store.app.inject({
      method: "POST",
      url: `/checkouts/${token}/session-token`,
    });
    expect(uninstalled.statusCode).toBe(404);
  });
});
