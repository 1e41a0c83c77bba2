import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreCarts } from "./cart";
import { registerCartRoutes } from "./cart-routes";
import type { RenderSections, StorefrontRequest } from "./contract";
import { testShop, variantIdOf, type TestShop } from "./test-shop.test-support";

/*
 * The Ajax Cart API over HTTP, as Dawn 15.4.1's JavaScript calls it (assets/product-form.js,
 * cart.js, cart-drawer.js): multipart /cart/add with `sections`, JSON /cart/change by line.
 */

let fixture: TestShop;
let app: FastifyInstance;
let carts: StoreCarts;
let renderCalls: { request: StorefrontRequest; ids: string[] }[];

const renderSections: RenderSections = async (request, ids) => {
  renderCalls.push({ request, ids });
  return Object.fromEntries(
    ids.map((id) => [
      id,
      id === "unknown" ? null : `<div id="shopify-section-${id}">${request.cart.item_count}</div>`,
    ]),
  );
};

beforeEach(() => {
  fixture = testShop();
  carts = new StoreCarts(fixture.state);
  renderCalls = [];
  app = Fastify();
  registerCartRoutes(app, {
    state: fixture.state,
    storefrontShop: () => fixture.state.shop(fixture.shop.domain),
    carts,
    renderSections,
    app: () => ({ block: true, embed: true }),
  });
});
afterEach(async () => {
  await app.close();
});

function cookieOf(answer: LightMyRequestResponse): string {
  const header = answer.headers["set-cookie"];
  const text = Array.isArray(header) ? header[0] : header;
  const token = /^cart=([0-9a-f]{32}); Path=\/; SameSite=Lax$/.exec(text ?? "")?.[1];
  if (!token) throw new Error(`No cart cookie in ${String(text)}`);
  return `cart=${token}`;
}

async function multipart(form: FormData) {
  const request = new Request("http://x/", { method: "POST", body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get("content-type") ?? "",
  };
}

/** Our block's JSON add: the laptop and its protection plan, `quantity` of each. */
function addLaptopWithPlan(quantity: number, extra: Record<string, unknown> = {}) {
  return app.inject({
    method: "POST",
    url: "/cart/add.js",
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({
      items: [
        { id: variantIdOf(fixture.laptop), quantity },
        {
          id: variantIdOf(fixture.plans),
          quantity,
          properties: { _svc_protected_product_ref: variantIdOf(fixture.laptop) },
        },
      ],
      ...extra,
    }),
  });
}

const json = (answer: LightMyRequestResponse) => answer.json<Record<string, unknown>>();

describe("GET /cart.js", () => {
  it("creates a cart with a cookie, then answers the same cart", async () => {
    const first = await app.inject({ method: "GET", url: "/cart.js" });
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    const cookie = cookieOf(first);
    expect(json(first)).toMatchObject({ item_count: 0, currency: "EUR" });
    expect(String(json(first).token).split("?key=")[0]).toBe(cookie.slice(5));
    const again = await app.inject({ method: "GET", url: "/cart.json", headers: { cookie } });
    expect(again.headers["set-cookie"]).toBeUndefined();
    expect(json(again).token).toBe(json(first).token);
  });
});

describe("POST /cart/add", () => {
  it("takes Dawn's multipart form with sections and answers the line and the sections, rendered after the add", async () => {
    const id = variantIdOf(fixture.laptop);
    const form = new FormData();
    form.append("form_type", "product");
    form.append("id", id);
    form.append("quantity", "2");
    form.append("product-id", fixture.laptop.id);
    form.append("sections", "cart-drawer,cart-icon-bubble");
    form.append("sections_url", "/products/aurora-14-laptop");
    const { payload, contentType } = await multipart(form);
    const answer = await app.inject({
      method: "POST",
      url: "/cart/add",
      payload,
      headers: {
        "content-type": contentType,
        "x-requested-with": "XMLHttpRequest",
        accept: "application/javascript",
      },
    });
    expect(answer.statusCode).toBe(200);
    const body = json(answer);
    expect(body).toMatchObject({ quantity: 2, title: "Aurora 14 Laptop - 16 GB", price: 129900 });
    expect(answer.body).toContain(`"variant_id":${id},`);
    expect(body.sections).toEqual({
      "cart-drawer": '<div id="shopify-section-cart-drawer">2</div>',
      "cart-icon-bubble": '<div id="shopify-section-cart-icon-bubble">2</div>',
    });
    expect(renderCalls).toHaveLength(1);
    expect(renderCalls[0]?.ids).toEqual(["cart-drawer", "cart-icon-bubble"]);
    expect(renderCalls[0]?.request.url).toBe("/products/aurora-14-laptop");
    expect(renderCalls[0]?.request.products.map((product) => product.title)).toEqual([
      "Aurora 14 Laptop",
      "Linen Tea Towel",
    ]);
    const cookie = cookieOf(answer);
    const cart = await app.inject({ method: "GET", url: "/cart.js", headers: { cookie } });
    expect(json(cart).item_count).toBe(2);
  });

  it("takes JSON items and answers {items}, and answers null for a section it cannot render", async () => {
    const answer = await addLaptopWithPlan(1, { sections: ["unknown"] });
    expect(answer.statusCode).toBe(200);
    const body = json(answer);
    expect((body.items as { properties: unknown }[]).map((item) => item.properties)).toEqual([
      {},
      { _svc_protected_product_ref: variantIdOf(fixture.laptop) },
    ]);
    expect(body.sections).toEqual({ unknown: null });
  });

  it("answers an unknown variant with Shopify's 404 and a bad quantity with a 422", async () => {
    const unknown = await app.inject({
      method: "POST",
      url: "/cart/add.js",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "id=12345&quantity=1",
    });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toEqual({
      status: 404,
      message: "Cart Error",
      description: "Cannot find variant",
    });
    const quantity = await app.inject({
      method: "POST",
      url: "/cart/add.js",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ id: variantIdOf(fixture.towel), quantity: "x" }),
    });
    expect(quantity.statusCode).toBe(422);
    expect(json(quantity)).toMatchObject({ status: 422, message: "Cart Error" });
    expect(renderCalls).toEqual([]);
  });

  it("redirects a plain form post to the cart page", async () => {
    const answer = await app.inject({
      method: "POST",
      url: "/cart/add",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      payload: `id=${variantIdOf(fixture.towel)}&quantity=1`,
    });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe("/cart");
    const cookie = cookieOf(answer);
    expect(carts.find(fixture.shop, cookie.slice(5))?.lines).toHaveLength(1);
    const returnTo = await app.inject({
      method: "POST",
      url: "/cart/add",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: `id=${variantIdOf(fixture.towel)}&return_to=%2Fcheckout`,
    });
    expect(returnTo.headers.location).toBe("/checkout");
    const offsite = await app.inject({
      method: "POST",
      url: "/cart/add",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: `id=${variantIdOf(fixture.towel)}&return_to=%2F%2Fevil.test`,
    });
    expect(offsite.headers.location).toBe("/cart");
  });
});

describe("POST /cart/change, /cart/update, /cart/clear", () => {
  async function filledCart(): Promise<string> {
    const answer = await addLaptopWithPlan(2);
    renderCalls = [];
    return cookieOf(answer);
  }

  it("changes by line as Dawn's cart drawer does, with the sections after the change", async () => {
    const cookie = await filledCart();
    const answer = await app.inject({
      method: "POST",
      url: "/cart/change",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        cookie,
      },
      payload: JSON.stringify({
        line: 1,
        quantity: 3,
        sections: ["cart-drawer", "cart-icon-bubble"],
        sections_url: "/cart",
      }),
    });
    expect(answer.statusCode).toBe(200);
    const body = json(answer);
    expect(body.item_count).toBe(5);
    expect((body.sections as Record<string, string>)["cart-drawer"]).toBe(
      '<div id="shopify-section-cart-drawer">5</div>',
    );
    expect(renderCalls[0]?.request.cart.item_count).toBe(5);
  });

  it("changes by key and answers a missing line as Shopify does", async () => {
    const cookie = await filledCart();
    const cart = json(await app.inject({ method: "GET", url: "/cart.js", headers: { cookie } }));
    const planKey = (cart.items as { key: string }[])[1]?.key;
    const changed = await app.inject({
      method: "POST",
      url: "/cart/change.js",
      headers: { "content-type": "application/json", cookie },
      payload: JSON.stringify({ id: planKey, quantity: 0 }),
    });
    expect((json(changed).items as unknown[]).length).toBe(1);
    const missing = await app.inject({
      method: "POST",
      url: "/cart/change.js",
      headers: { "content-type": "application/json", cookie },
      payload: JSON.stringify({ quantity: 1 }),
    });
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toMatchObject({ status: "bad_request" });
  });

  it("updates quantities, the note and attributes, and clears", async () => {
    const cookie = await filledCart();
    const headers = { "content-type": "application/x-www-form-urlencoded", cookie };
    const updated = await app.inject({
      method: "POST",
      url: "/cart/update.js",
      headers,
      payload: `updates%5B${variantIdOf(fixture.laptop)}%5D=1&note=Gift&attributes%5Bwrap%5D=yes`,
    });
    expect(json(updated)).toMatchObject({
      item_count: 3,
      note: "Gift",
      attributes: { wrap: "yes" },
    });
    const cleared = await app.inject({ method: "POST", url: "/cart/clear.js", headers });
    expect(json(cleared)).toMatchObject({ item_count: 0, items: [], note: "Gift" });
  });

  it("takes Dawn's cart form at /cart and goes to the checkout for its Check out button", async () => {
    const cookie = await filledCart();
    const headers = { "content-type": "application/x-www-form-urlencoded", cookie };
    // Dawn's main-cart-items form: one updates[] per line, in line order; the button's name.
    const checkout = await app.inject({
      method: "POST",
      url: "/cart",
      headers,
      payload: "updates%5B%5D=3&updates%5B%5D=3&note=&checkout=",
    });
    expect(checkout.statusCode).toBe(302);
    expect(checkout.headers.location).toBe("/checkout");
    const cart = carts.find(fixture.shop, cookie.slice(5));
    expect(cart?.lines.map((line) => line.quantity)).toEqual([3, 3]);
    const update = await app.inject({
      method: "POST",
      url: "/cart",
      headers,
      payload: "updates%5B%5D=1&updates%5B%5D=1",
    });
    expect(update.headers.location).toBe("/cart");
    expect(cart?.lines.map((line) => line.quantity)).toEqual([1, 1]);
  });
});
