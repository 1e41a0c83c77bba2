import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { EmulatorClient, LIVE_KEY, SANDBOX_KEY } from "../../emulator/test-support";
import type { Catalogue } from "../../emulator/catalogue";
import type { AppPrismaClient } from "../../app/db/client.server";
import type * as ConnectionsModule from "../../app/models/ShopConnection.server";
import type * as CartRoute from "../../app/routes/proxy.cart_updates";
import type * as PlansRoute from "../../app/routes/proxy.plans";
import {
  appProxyRequest,
  appProxySignature,
  MACBOOK_AIR_QUERY,
  plansQuery,
  type AppProxyRequestOptions,
} from "../support/app-proxy";
import { OWN_CARTS, readOwnCart, type CartJs } from "../support/cart-fixtures";
import { testDatabaseProvider } from "../support/databases";
import { connectShop } from "../support/shops";
import { callRoute } from "../support/routes";

// The storefront's two calls through Shopify's app proxy: signed requests to the real route
// modules, the shop's saved keys, and the emulator as the service.

const provider = testDatabaseProvider();
const SHOP = "proxy-store.myshopify.com";
const OTHER_SHOP = "proxy-elsewhere.myshopify.com";
const SESSION = "3f9a6c1e-8b2d-4e7a-9c5f-1d2e3b4a5c6d";
const OTHER_SESSION = "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
const STOREFRONT_TIMEOUT_MS = 1000;

const RATIO = "123456:123456";
const RATIO_VARIANT = "38558517710";
const RATIO_PLAN = "44590322893113:4e8c1b2a9f3d7e6c5b4a39281706f5e4";

let emulator: RunningEmulator;
const control = new EmulatorClient();
let app: {
  prisma: AppPrismaClient;
  connections: typeof ConnectionsModule;
  plans: typeof PlansRoute;
  carts: typeof CartRoute;
};

beforeAll(async () => {
  emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port: 0 });
  control.attach(emulator);
  // Read by getEnv() on first use, which is below.
  process.env.SVC_BASE_URL = emulator.url;
  process.env.SVC_STOREFRONT_TIMEOUT_MS = String(STOREFRONT_TIMEOUT_MS);
  app = {
    prisma: (await import("../../app/db.server")).default,
    connections: await import("../../app/models/ShopConnection.server"),
    plans: await import("../../app/routes/proxy.plans"),
    carts: await import("../../app/routes/proxy.cart_updates"),
  };
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  await control.reset();
  await app.prisma.shopConnection.deleteMany({});
  await connectShop(app.prisma, SHOP);
});

/** The service is down for the duration of `run`: the emulator stops and restarts on its port. */
async function whileServiceDown(run: () => Promise<void>) {
  const port = Number(new URL(emulator.url).port);
  await emulator.close();
  try {
    await run();
  } finally {
    emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port });
    control.attach(emulator);
  }
}

type Answer = { status: number; headers: Headers; body: unknown; elapsedMs: number };

async function send(
  route: "plans" | "cart_updates",
  method: "GET" | "POST",
  options: Omit<AppProxyRequestOptions, "path" | "method">,
): Promise<Answer> {
  const request = appProxyRequest({ ...options, path: route, method });
  const handler =
    route === "plans"
      ? method === "GET"
        ? app.plans.loader
        : app.plans.action
      : method === "POST"
        ? app.carts.action
        : app.carts.loader;
  const started = performance.now();
  const answer = await callRoute(handler, request);
  const elapsedMs = performance.now() - started;
  if (!(answer instanceof Response)) throw new Error("A proxy route must answer a Response");
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  return { status: answer.status, headers: answer.headers, body: await answer.json(), elapsedMs };
}

// ---------------------------------------------------------------------------------------------
// GET /apps/svc/plans

let variantCounter = 0;
/** Each test asks for its own variant: plan answers stay cached for the whole file. */
function freshVariant(): string {
  variantCounter += 1;
  return String(44590322800000 + variantCounter);
}

function macbookQuery(overrides: Record<string, string> = {}): Record<string, string> {
  return plansQuery(freshVariant(), {
    ...MACBOOK_AIR_QUERY,
    user_session_id: SESSION,
    ...overrides,
  });
}

function getPlans(query: Record<string, string>, options: Partial<AppProxyRequestOptions> = {}) {
  return send("plans", "GET", { shop: SHOP, query, ...options });
}

async function serviceRequests(path: string) {
  return (await control.requests()).filter((request) => request.path === path);
}

const ELECTRONICS_2Y_HIGH = {
  merchant_product_id: "8104420102005",
  variant_id: "8104420102005",
  price: 12999,
  price_amount: 12999,
  currency: "EUR",
  title: { en: "2-year protection", de: "2 Jahre Schutz" },
  insurance_details_url: "https://example.com/svc/insurance/electronics-2-year",
};

function catalogueOf(
  currency: string,
  plans: Catalogue["categories"][number]["price_bands"][number]["plans"],
): Catalogue {
  return {
    currency,
    categories: [
      {
        id: "electronics",
        title_keywords: ["laptop"],
        product_ids: [],
        price_bands: [{ min_price_amount: 0, plans }],
      },
    ],
  };
}

describe(`GET /apps/svc/plans (${provider})`, () => {
  it("offers the service's plans for a connected shop, priced in Shopify cents and minor units", async () => {
    const query = macbookQuery({ product_category: "electronics" });
    const answer = await getPlans(query);

    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=60");
    expect(answer.body).toEqual({
      variant_id: query.variant_id,
      plans: [
        ELECTRONICS_2Y_HIGH,
        {
          merchant_product_id: "8104420102006",
          variant_id: "8104420102006",
          price: 17999,
          price_amount: 17999,
          currency: "EUR",
          title: { en: "3-year protection", de: "3 Jahre Schutz" },
          insurance_details_url: "https://example.com/svc/insurance/electronics-3-year",
        },
      ],
    });
    const [lookup, ...others] = await serviceRequests("/sandbox/plans");
    expect(others).toEqual([]);
    expect(lookup?.query).toEqual({
      product_id: query.variant_id,
      product_title: 'MacBook Air 13" Laptop M3',
      product_brand: "Apple",
      product_category: "electronics",
      price_amount: "129900",
      price_currency: "eur",
      user_session_id: SESSION,
    });
    expect(JSON.stringify(answer.body)).not.toContain(SANDBOX_KEY);
  });

  it("asks the service in whole yen and answers in Shopify cents (¥129,900 is 12990000)", async () => {
    await control.control("catalogue", {
      body: catalogueOf("jpy", [
        {
          merchant_product_id: "8104420109001",
          price_amount: 14800,
          title: { en: "2-year protection", de: "2 Jahre Schutz" },
          insurance_details_url: "https://example.com/svc/insurance/jp-2-year",
        },
      ]),
    });
    const query = macbookQuery({ price: "12990000", currency: "JPY" });
    const answer = await getPlans(query);

    expect(answer.body).toEqual({
      variant_id: query.variant_id,
      plans: [
        {
          merchant_product_id: "8104420109001",
          variant_id: "8104420109001",
          price: 1480000,
          price_amount: 14800,
          currency: "JPY",
          title: { en: "2-year protection", de: "2 Jahre Schutz" },
          insurance_details_url: "https://example.com/svc/insurance/jp-2-year",
        },
      ],
    });
    const [lookup] = await serviceRequests("/sandbox/plans");
    expect(lookup?.query).toMatchObject({ price_amount: "129900", price_currency: "jpy" });
  });

  it("drops plans whose item is not a Shopify variant or whose details link is not https", async () => {
    const plan = {
      price_amount: 4999,
      title: { en: "2-year protection", de: "2 Jahre Schutz" },
      insurance_details_url: "https://example.com/svc/insurance/2-year",
    };
    await control.control("catalogue", {
      body: catalogueOf("eur", [
        { ...plan, merchant_product_id: "SVC-2Y-LAPTOP" },
        { ...plan, merchant_product_id: "8104420109002", insurance_details_url: "http://x.test/" },
        { ...plan, merchant_product_id: "8104420109003" },
      ]),
    });
    const answer = await getPlans(macbookQuery());
    expect((answer.body as { plans: { variant_id: string }[] }).plans).toEqual([
      expect.objectContaining({ variant_id: "8104420109003", price: 4999 }),
    ]);
  });

  it("answers not_connected, without asking the service, for a shop without a usable key", async () => {
    await connectShop(app.prisma, OTHER_SHOP, {
      environment: "production",
      sandboxSecretKey: SANDBOX_KEY,
    });
    const query = macbookQuery();
    for (const shop of ["never-installed.myshopify.com", OTHER_SHOP]) {
      const answer = await getPlans(query, { shop });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.body).toEqual({
        variant_id: query.variant_id,
        plans: [],
        unavailable: "not_connected",
      });
    }
    await app.connections.markConnectionStatus(app.prisma, SHOP, "uninstalled");
    expect((await getPlans(query)).body).toMatchObject({ unavailable: "not_connected" });
    expect(await control.requests()).toEqual([]);
  });

  it("answers no plans at once while the service is down, and caches nothing", async () => {
    const query = macbookQuery();
    await whileServiceDown(async () => {
      const answer = await getPlans(query);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.body).toEqual({
        variant_id: query.variant_id,
        plans: [],
        unavailable: "service_error",
      });
      expect(answer.elapsedMs).toBeLessThan(STOREFRONT_TIMEOUT_MS);
    });
    const afterwards = await getPlans(query);
    expect((afterwards.body as { plans: unknown[] }).plans).toHaveLength(2);
  });

  it("gives up after the storefront time-out, not the outbox's", async () => {
    await control.control("faults", {
      body: { count: 1, delay_ms: 5000, match: { path: "/sandbox/plans" } },
    });
    const answer = await getPlans(macbookQuery());
    expect(answer.body).toMatchObject({ plans: [], unavailable: "service_error" });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(STOREFRONT_TIMEOUT_MS - 50);
    expect(answer.elapsedMs).toBeLessThan(4000);
  });

  it("answers service_error when the service fails or refuses the key", async () => {
    await control.control("faults", { body: { count: 1, status: 500 } });
    const failed = await getPlans(macbookQuery());
    expect(failed.body).toMatchObject({ plans: [], unavailable: "service_error" });

    await connectShop(app.prisma, SHOP, { sandboxSecretKey: "sk_test_revoked_0000" });
    const refused = await getPlans(macbookQuery());
    expect(refused.body).toMatchObject({ plans: [], unavailable: "service_error" });
    expect((await control.requests()).map((request) => request.status)).toEqual([500, 401]);
  });

  it("asks the service once per shop, variant, price and currency within the cache time", async () => {
    const query = macbookQuery();
    const first = await getPlans(query);
    const second = await getPlans({ ...query, user_session_id: OTHER_SESSION, currency: "EUR" });
    expect(second.body).toEqual(first.body);
    expect(await serviceRequests("/sandbox/plans")).toHaveLength(1);

    // Another price or currency is another question; so is another shop.
    await getPlans({ ...query, price: "49900" });
    await getPlans({ ...query, currency: "usd" });
    await connectShop(app.prisma, OTHER_SHOP);
    await getPlans(query, { shop: OTHER_SHOP });
    const lookups = await serviceRequests("/sandbox/plans");
    expect(
      lookups.map((lookup) => [lookup.query.price_amount, lookup.query.price_currency]),
    ).toEqual([
      ["129900", "eur"],
      ["49900", "eur"],
      ["129900", "usd"],
      ["129900", "eur"],
    ]);
  });

  it("shares one service call between concurrent requests for the same plans", async () => {
    await control.control("faults", {
      body: { count: 1, delay_ms: 300, match: { path: "/sandbox/plans" } },
    });
    const query = macbookQuery();
    const answers = await Promise.all([getPlans(query), getPlans(query), getPlans(query)]);
    expect(answers.map((answer) => (answer.body as { plans: unknown[] }).plans.length)).toEqual([
      2, 2, 2,
    ]);
    expect(await serviceRequests("/sandbox/plans")).toHaveLength(1);
  });

  it("does not cache a failed answer", async () => {
    await control.control("faults", { body: { count: 1, status: 503 } });
    const query = macbookQuery();
    expect((await getPlans(query)).body).toMatchObject({ unavailable: "service_error" });
    const retried = await getPlans(query);
    expect(retried.body).not.toHaveProperty("unavailable");
    expect((retried.body as { plans: unknown[] }).plans).toHaveLength(2);
    expect((await serviceRequests("/sandbox/plans")).map((request) => request.status)).toEqual([
      503, 200,
    ]);
  });

  it.each([
    [{ variant_id: "" }, "variant_id"],
    [{ variant_id: "gid://shopify/ProductVariant/1" }, "variant_id"],
    [{ price: "1299.00" }, "price"],
    [{ price: "12990050", currency: "JPY" }, "price"],
    [{ currency: "euro" }, "currency"],
    [{ user_session_id: "not-a-uuid" }, "user_session_id"],
    [{ product_title: "" }, "product_title"],
  ])("answers 400 for %j, naming %s, without asking the service", async (overrides, path) => {
    const answer = await getPlans(macbookQuery(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        code: "invalid_request",
        message: expect.stringMatching(new RegExp(`^Invalid plans request: ${path} `)),
        issues: [{ path, message: expect.any(String) }],
      },
    });
    expect(await control.requests()).toEqual([]);
  });

  it("answers 405 in JSON to a POST", async () => {
    const answer = await send("plans", "POST", { shop: SHOP, body: "{}" });
    expect(answer.status).toBe(405);
    expect(answer.body).toMatchObject({ error: { code: "method_not_allowed" } });
  });
});

// ---------------------------------------------------------------------------------------------
// Signatures, for both paths

describe(`app proxy signatures (${provider})`, () => {
  const cartBody = () =>
    JSON.stringify({ user_session_id: SESSION, cart: readOwnCart(OWN_CARTS.cadWithPlan) });

  it.each([
    ["signed with another secret", { secret: "not-the-app-secret" }],
    ["without a signature", { unsigned: true }],
    ["changed after signing", { tamper: (params: URLSearchParams) => params.set("price", "1") }],
    ["signed ten minutes ago", { timestamp: Math.floor(Date.now() / 1000) - 600 }],
    [
      "for another shop than signed",
      { tamper: (params: URLSearchParams) => params.set("shop", OTHER_SHOP) },
    ],
    [
      "naming two shops, signed as such",
      {
        tamper: (params: URLSearchParams) => {
          params.append("shop", OTHER_SHOP);
          params.set("signature", appProxySignature(params));
        },
      },
    ],
  ])("answers 401, asking nothing of the service, to a request %s", async (_name, options) => {
    const plans = await getPlans(macbookQuery(), options);
    const cart = await send("cart_updates", "POST", { shop: SHOP, body: cartBody(), ...options });
    for (const answer of [plans, cart]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: "unauthorized" } });
    }
    expect(await control.requests()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// POST /apps/svc/cart_updates

/** The CAD sample with one plan line for the Ratio Eight, in EUR, with the quantities asked. */
function ratioCart(productQuantity: number | null, planQuantity: number): CartJs {
  const cart = readOwnCart(OWN_CARTS.cadWithPlan);
  const [product, plan] = cart.items;
  return {
    ...cart,
    currency: "EUR",
    items: [
      ...(productQuantity === null ? [] : [{ ...product!, quantity: productQuantity }]),
      { ...plan!, quantity: planQuantity },
    ],
  };
}

function postCart(cart: unknown, options: Partial<AppProxyRequestOptions> = {}) {
  return send("cart_updates", "POST", {
    shop: SHOP,
    body: JSON.stringify({ user_session_id: SESSION, cart }),
    ...options,
  });
}

function scriptCartAnswer(cart: CartJs, actions: [string, number][], cartId = cart.token) {
  return control.control("faults", {
    body: {
      count: 1,
      match: { path: "/sandbox/cart_updates" },
      body: {
        cart_id: cartId,
        user_session_id: SESSION,
        actions: actions.map(([lineItemId, quantity]) => ({
          type: "update_line_item",
          payload: { line_item_id: lineItemId, line_item_quantity: quantity },
        })),
      },
    },
  });
}

describe(`POST /apps/svc/cart_updates (${provider})`, () => {
  it("reports the cart and makes the plan follow a raised product quantity", async () => {
    const answer = await postCart(ratioCart(2, 1));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toEqual({
      actions: [{ type: "update_line_item", line_item_key: RATIO_PLAN, quantity: 2 }],
      source: "service",
    });
    const [report] = await serviceRequests("/sandbox/cart_updates");
    expect(report?.status).toBe(200);
    expect(report?.body).toEqual({
      cart_id: "6475a6c35b7fd07fe832782fb341a83b",
      user_session_id: SESSION,
      cart_currency: "eur",
      line_items: [
        {
          id: RATIO,
          quantity: 2,
          price_amount: 58000,
          product_id: RATIO_VARIANT,
          product_title: "Ratio Eight",
          product_brand: "Ratio",
        },
        {
          id: RATIO_PLAN,
          quantity: 1,
          price_amount: 12999,
          product_id: "44590322893113",
          product_title: "2-year protection",
          product_brand: "svc",
          custom_properties: { product_reference: RATIO_VARIANT },
        },
      ],
    });
  });

  it("sends a plan to 0 when its product left the cart", async () => {
    const answer = await postCart(ratioCart(null, 1));
    expect(answer.body).toEqual({
      actions: [{ type: "update_line_item", line_item_key: RATIO_PLAN, quantity: 0 }],
      source: "service",
    });
  });

  it("answers no actions once plan and product agree (the storefront's loop ends)", async () => {
    expect((await postCart(ratioCart(2, 2))).body).toEqual({ actions: [], source: "service" });
    expect(await serviceRequests("/sandbox/cart_updates")).toHaveLength(1);
  });

  it("maps a real store's cart with plans out of step, converting yen exactly", async () => {
    const nzd = readOwnCart(OWN_CARTS.nzdPlansOutOfSync);
    expect((await postCart(nzd)).body).toEqual({
      actions: [
        {
          type: "update_line_item",
          line_item_key: "44590322893113:0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e",
          quantity: 2,
        },
        {
          type: "update_line_item",
          line_item_key: "44590322893114:9f8e7d6c5b4a39281706f5e4d3c2b1a0",
          quantity: 0,
        },
      ],
      source: "service",
    });
    await postCart(readOwnCart(OWN_CARTS.jpyWithPlan));
    const [, jpy] = await serviceRequests("/sandbox/cart_updates");
    expect(jpy?.body).toMatchObject({
      cart_currency: "jpy",
      line_items: [{ price_amount: 58000 }, { price_amount: 4800 }],
    });
  });

  it("answers the local rules at once while the service is down", async () => {
    await whileServiceDown(async () => {
      const answer = await postCart(ratioCart(3, 1));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        actions: [{ type: "update_line_item", line_item_key: RATIO_PLAN, quantity: 3 }],
        source: "local",
      });
      expect(answer.elapsedMs).toBeLessThan(STOREFRONT_TIMEOUT_MS);
    });
  });

  it("answers the local rules for a shop that is not connected, without calling the service", async () => {
    const answer = await postCart(ratioCart(null, 2), { shop: OTHER_SHOP });
    expect(answer.body).toEqual({
      actions: [{ type: "update_line_item", line_item_key: RATIO_PLAN, quantity: 0 }],
      source: "local",
    });
    expect(await control.requests()).toEqual([]);
  });

  it("answers the local rules when the service fails or times out", async () => {
    await control.control("faults", { body: { count: 1, status: 502 } });
    expect((await postCart(ratioCart(2, 1))).body).toMatchObject({ source: "local" });
    await control.control("faults", { body: { count: 1, delay_ms: 5000 } });
    const slow = await postCart(ratioCart(2, 1));
    expect(slow.body).toEqual({
      actions: [{ type: "update_line_item", line_item_key: RATIO_PLAN, quantity: 2 }],
      source: "local",
    });
    expect(slow.elapsedMs).toBeLessThan(4000);
  });

  it("drops service actions naming lines that are not in the cart", async () => {
    const cart = ratioCart(2, 1);
    await scriptCartAnswer(cart, [
      ["99999999:not-in-this-cart", 1],
      [RATIO_PLAN, 2],
    ]);
    expect((await postCart(cart)).body).toEqual({
      actions: [{ type: "update_line_item", line_item_key: RATIO_PLAN, quantity: 2 }],
      source: "service",
    });
  });

  it("keeps plan quantities equal to their products when the service says otherwise", async () => {
    const cart = ratioCart(2, 2);
    await scriptCartAnswer(cart, [[RATIO_PLAN, 5]]);
    expect((await postCart(cart)).body).toEqual({ actions: [], source: "service" });

    const missing = ratioCart(4, 2);
    await scriptCartAnswer(missing, []);
    expect((await postCart(missing)).body).toEqual({
      actions: [{ type: "update_line_item", line_item_key: RATIO_PLAN, quantity: 4 }],
      source: "service",
    });
  });

  it("answers the local rules when the service answers about another cart", async () => {
    const cart = ratioCart(2, 1);
    await scriptCartAnswer(cart, [[RATIO, 0]], "some-other-cart");
    expect((await postCart(cart)).body).toEqual({
      actions: [{ type: "update_line_item", line_item_key: RATIO_PLAN, quantity: 2 }],
      source: "local",
    });
  });

  describe("refuses a body it cannot read, with 400 and nothing sent to the service", () => {
    const item = { key: "1:a", quantity: 1, variant_id: 1, price: 100, product_title: "x" };
    it.each([
      ["not JSON", "{", "(body)", "The body is not JSON"],
      ["an empty body", "", "(body)", "The body is not JSON"],
      ["without a cart", JSON.stringify({ user_session_id: SESSION }), "cart", "is required"],
      [
        "without a session",
        JSON.stringify({ cart: ratioCart(1, 1) }),
        "user_session_id",
        "is required",
      ],
      [
        "with a quantity as text",
        JSON.stringify({
          user_session_id: SESSION,
          cart: { token: "t", currency: "EUR", items: [{ ...item, quantity: "2" }] },
        }),
        "cart.items[0].quantity",
        "must be a number",
      ],
      [
        "with 501 lines",
        JSON.stringify({
          user_session_id: SESSION,
          cart: {
            token: "t",
            currency: "EUR",
            items: Array.from({ length: 501 }, (_, index) => ({ ...item, key: `1:${index}` })),
          },
        }),
        "cart.items",
        "must have at most 500 lines",
      ],
      [
        "over 256 KB",
        JSON.stringify({
          user_session_id: SESSION,
          cart: { ...ratioCart(1, 1), note: "x".repeat(256 * 1024) },
        }),
        "(body)",
        "The body is larger than 262144 bytes",
      ],
    ])("%s", async (_name, body, path, message) => {
      const answer = await send("cart_updates", "POST", { shop: SHOP, body });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: {
          code: "invalid_request",
          message: expect.stringMatching(/^Invalid cart update: /),
          issues: expect.arrayContaining([{ path, message: expect.stringContaining(message) }]),
        },
      });
      expect(await control.requests()).toEqual([]);
    });
  });

  it("answers 405 in JSON to a GET", async () => {
    const answer = await send("cart_updates", "GET", { shop: SHOP });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });
});
