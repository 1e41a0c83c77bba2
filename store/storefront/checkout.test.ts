import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildStore } from "../server/server";
import { API_KEY, API_SECRET, startFakeApp, type FakeApp } from "../server/test-support";
import { testShop, variantIdOf } from "./test-shop.test-support";

/*
 * The checkout stand-in through the whole store (buildStore): a cart made over the Ajax Cart API
 * becomes a paid web order, orders/create reaches the app, and the Thank-you page names it.
 */

const SHOP = "checkout-demo.myshopify.com";
let fakeApp: FakeApp;
let store: ReturnType<typeof buildStore>;
let laptopVariant: string;
let planVariant: string;

beforeAll(async () => {
  fakeApp = await startFakeApp();
});
afterAll(async () => {
  await fakeApp.close();
});
beforeEach(async () => {
  await store?.app.close();
  fakeApp.received.length = 0;
  store = buildStore({ retryDelaysMs: [] });
  const { laptop, plans } = testShop({
    state: store.state,
    domain: SHOP,
    appUrl: fakeApp.url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
  });
  store.state.install(SHOP, ["read_orders"]);
  laptopVariant = variantIdOf(laptop);
  planVariant = variantIdOf(plans);
});

function cookieOf(answer: LightMyRequestResponse): string {
  const header = answer.headers["set-cookie"];
  const text = (Array.isArray(header) ? header[0] : header) ?? "";
  return text.split(";")[0] ?? "";
}

async function cartWithPlan(): Promise<string> {
  const added = await store.app.inject({
    method: "POST",
    url: "/cart/add.js",
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({
      items: [
        { id: laptopVariant, quantity: 2 },
        { id: planVariant, quantity: 2, properties: { _svc_protected_product_ref: laptopVariant } },
      ],
    }),
  });
  expect(added.statusCode).toBe(200);
  const cookie = cookieOf(added);
  await store.app.inject({
    method: "POST",
    url: "/cart/update.js",
    headers: { "content-type": "application/json", cookie },
    payload: JSON.stringify({ attributes: { _svc_session: "s-1" } }),
  });
  return cookie;
}

const form = (fields: Record<string, string>) =>
  new URLSearchParams({
    email: "buyer@example.com",
    first_name: "Ada",
    last_name: "Lovelace",
    address1: "12 Test Street",
    city: "Berlin",
    zip: "10115",
    country: "Germany",
    ...fields,
  }).toString();

async function waitForWebhook(topic: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const found = fakeApp.received.find((request) => request.headers["x-shopify-topic"] === topic);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No ${topic} webhook reached the app`);
}

describe("GET /checkout", () => {
  it("shows the cart's lines, the plan line's protected product, the total and a prefilled form", async () => {
    const cookie = await cartWithPlan();
    const answer = await store.app.inject({ method: "GET", url: "/checkout", headers: { cookie } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    const html = answer.body;
    expect(html).toContain("Aurora 14 Laptop - 16 GB");
    expect(html).toContain(
      `Protection plan for Aurora 14 Laptop - 16 GB (_svc_protected_product_ref: ${laptopVariant})`,
    );
    expect(html).toContain('id="checkout-total">2796.00 EUR<');
    expect(html).toContain(
      'id="checkout-email" name="email" type="email" required value="buyer@example.com"',
    );
    expect(html).toMatch(/<button type="submit" id="checkout-pay">Pay now<\/button>/);
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it("answers an empty cart with an error page", async () => {
    const answer = await store.app.inject({ method: "GET", url: "/checkout" });
    expect(answer.statusCode).toBe(422);
    expect(answer.body).toContain("Your cart is empty");
  });
});

describe("POST /checkout", () => {
  it("places a web order with the cart's lines, properties, attributes and token; orders/create reaches the app", async () => {
    const cookie = await cartWithPlan();
    const token = cookie.slice("cart=".length);
    const answer = await store.app.inject({
      method: "POST",
      url: "/checkout",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: form({}),
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers["set-cookie"]).toBe("cart=; Path=/; SameSite=Lax; Max-Age=0");
    const location = String(answer.headers.location);
    expect(location).toMatch(/^\/checkouts\/[0-9a-f]{32}\/thank-you$/);

    const [order] = store.state.orders(SHOP);
    expect(order).toMatchObject({
      cartToken: token,
      email: "buyer@example.com",
      sourceName: "web",
      noteAttributes: [{ name: "_svc_session", value: "s-1" }],
      customer: { email: "buyer@example.com", firstName: "Ada", lastName: "Lovelace" },
    });
    expect(location).toBe(`/checkouts/${order?.checkoutToken}/thank-you`);
    expect(
      order?.lineItems.map((line) => [line.variantId, line.quantity, line.price, line.properties]),
    ).toEqual([
      [laptopVariant, 2, 129900, []],
      [planVariant, 2, 9900, [{ name: "_svc_protected_product_ref", value: laptopVariant }]],
    ]);

    const webhook = await waitForWebhook("orders/create");
    expect(webhook.url).toBe("/webhooks/orders/create");
    expect(webhook.body).toContain(`"cart_token":"${token}"`);
    expect(webhook.body).toContain(`"value":"${laptopVariant}"`);

    const thanks = await store.app.inject({ method: "GET", url: location });
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain(`id="order-name">${order?.name}<`);
    expect(thanks.body).toContain(`id="order-id">${order?.id}<`);

    // The cart is spent: a new request starts a new one, and checking out again places nothing.
    const cart = await store.app.inject({ method: "GET", url: "/cart.js", headers: { cookie } });
    expect(cart.json<{ token: string; item_count: number }>()).toMatchObject({ item_count: 0 });
    const again = await store.app.inject({
      method: "POST",
      url: "/checkout",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: form({}),
    });
    expect(again.statusCode).toBe(422);
    expect(store.state.orders(SHOP)).toHaveLength(1);
  });

  it("refuses a form with a missing name or a bad email, keeps the cart and creates nothing", async () => {
    const cookie = await cartWithPlan();
    const answer = await store.app.inject({
      method: "POST",
      url: "/checkout",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: form({ first_name: "", email: "not-an-address" }),
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.body).toContain("First name is required");
    expect(answer.body).toContain("Email is not an email address");
    expect(store.state.orders(SHOP)).toEqual([]);
    const cart = await store.app.inject({ method: "GET", url: "/cart.js", headers: { cookie } });
    expect(cart.json<{ item_count: number }>().item_count).toBe(4);
  });

  it("answers an unknown Thank-you page with a 404", async () => {
    const answer = await store.app.inject({ method: "GET", url: "/checkouts/nope/thank-you" });
    expect(answer.statusCode).toBe(404);
  });
});
