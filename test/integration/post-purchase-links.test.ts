import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type * as LinksModule from "../../app/post-purchase/links.server";
import type * as AdminRoute from "../../app/routes/api.admin.order-protection";
import type * as CheckoutRoute from "../../app/routes/api.checkout.protection-link";
import type * as CustomerRoute from "../../app/routes/api.customer-account.protection-link";
import { testDatabaseProvider } from "../support/databases";
import {
  installInStore,
  resetLocalStore,
  storeControl,
  storeGraphqlLog,
} from "../support/local-store";
import { lifecycleBody } from "../support/order-lifecycle";
import { withOutboxApp } from "../support/outbox-app";
import { readShopifyFixture, signedWebhookRequest } from "../support/webhooks";
import { APP_ORIGIN, callRoute, type RouteFunction } from "../support/routes";
import {
  checkoutSessionToken,
  customerAccountSessionToken,
  sessionToken,
} from "../support/session-token";

/*
 * The post-purchase link routes (decision 034) as the extensions call them: requests with real
 * signed session tokens of each shape to the real route modules, the order's webhooks through
 * the real webhook route, the outbox worker delivering order_placed to the emulator, and the
 * local store answering the Admin API for orders no webhook has told the app of yet.
 */

const provider = testDatabaseProvider();
const SHOP = "links-store.myshopify.com";
const OTHER_SHOP = "links-elsewhere.myshopify.com";
const ORDER = "5558016491833";
const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";
const STOREFRONT_TIMEOUT_MS = 500;

/** Small limits that barely refill, so that a test sees each one hold (decision 043). */
const LIMITS = {
  SVC_STOREFRONT_TIMEOUT_MS: String(STOREFRONT_TIMEOUT_MS),
  SVC_PROXY_CLIENT_RATE_PER_SECOND: "0.1",
  SVC_PROXY_CLIENT_BURST: "10",
  SVC_BUYER_ADMIN_RATE_PER_SECOND: "0.1",
  SVC_BUYER_ADMIN_BURST: "5",
};
const VISITOR_BURST = 10;
const BUYER_ADMIN_BURST = 5;
Object.assign(process.env, LIMITS);
const app = withOutboxApp();
let routes: {
  checkout: typeof CheckoutRoute;
  customer: typeof CustomerRoute;
  admin: typeof AdminRoute;
  links: typeof LinksModule;
};

beforeAll(async () => {
  routes = {
    checkout: await import("../../app/routes/api.checkout.protection-link"),
    customer: await import("../../app/routes/api.customer-account.protection-link"),
    admin: await import("../../app/routes/api.admin.order-protection"),
    links: await import("../../app/post-purchase/links.server"),
  };
});

afterAll(() => {
  for (const name of Object.keys(LIMITS)) delete process.env[name];
});

beforeEach(async () => {
  await app.control.reset();
  await resetLocalStore();
  routes.links.forgetPostPurchaseLinks();
  await app.prisma.outboxEvent.deleteMany({});
  await app.prisma.orderSummary.deleteMany({});
  await app.prisma.webhookReceipt.deleteMany({});
  await app.prisma.shopConnection.deleteMany({});
  await app.prisma.session.deleteMany({});
  for (const shop of [SHOP, OTHER_SHOP]) {
    await app.connections.saveConnectionKeys(app.prisma, app.box.getSecretBox(), shop, {
      environment: "sandbox",
      sandboxSecretKey: (await import("../../emulator/test-support")).SANDBOX_KEY,
    });
    await installInStore(app.prisma, shop);
  }
});

/** The lifecycle sample's customer (past 2^53), as its orders/create names them. */
const CUSTOMER = "115310627314723950";

/** The sample's laptop, which the emulator's catalogue has plans for, and its charging cable. */
const LAPTOP_VARIANT = "44105305964857";
const CABLE_VARIANT = "44105305997625";

/**
 * The lifecycle sample's orders/create for `orderId`, placed just now (the Thank-you window).
 * Its plan protects the cable instead of the laptop, so that the service has a plan to offer
 * for the laptop after the sale.
 */
function freshOrderBody(orderId = ORDER, body?: string): string {
  const now = new Date().toISOString();
  const text =
    body ??
    lifecycleBody("orders/create", orderId).replace(
      `"value": "${LAPTOP_VARIANT}"`,
      `"value": "${CABLE_VARIANT}"`,
    );
  return text.replace(/"(created_at|processed_at|updated_at)":\s*"[^"]*"/g, `"$1": "${now}"`);
}

async function placeOrder(shop: string, body = freshOrderBody()) {
  const answer = await app.webhooks.sendOrderWebhook({ topic: "orders/create", shop, body });
  expect(answer.status).toBe(200);
}

async function deliverAll() {
  await app.worker.createOutboxWorker({ db: app.prisma, batchSize: 50, concurrency: 4 }).drain();
}

async function checkoutCalls() {
  return (await app.control.requests()).filter(
    (request) => request.method === "GET" && request.path.endsWith("/checkouts"),
  );
}

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };

/** How a request reached the app: its socket's address (server/serve.ts) and forwarding header. */
interface Via {
  socketAddress?: string;
  forwardedFor?: string;
}

async function answerOf(
  route: RouteFunction<Response>,
  path: string,
  token: string,
  via: Via = {},
): Promise<Answer> {
  const request = new Request(`${APP_ORIGIN}${path}`, {
    headers: {
      Authorization: `Bearer ${token}`,
      Origin: EXTENSION_ORIGIN,
      ...(via.forwardedFor ? { "X-Forwarded-For": via.forwardedFor } : {}),
    },
  });
  // As Remix calls it behind server/serve.ts, whose load context names the socket's address.
  const context = via.socketAddress ? { socketAddress: via.socketAddress } : {};
  const response = await route({ request, params: {}, context }).catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  });
  if (!(response instanceof Response)) throw new Error("The route must answer a Response");
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

const thankYou = (
  token: string,
  orderId: string = `gid://shopify/OrderIdentity/${ORDER}`,
  via: Via = {},
) =>
  answerOf(
    routes.checkout.loader,
    `/api/checkout/protection-link?order_id=${encodeURIComponent(orderId)}`,
    token,
    via,
  );

const orderStatus = (
  token: string,
  orderId: string = `gid://shopify/Order/${ORDER}`,
  via: Via = {},
) =>
  answerOf(
    routes.customer.loader,
    `/api/customer-account/protection-link?order_id=${encodeURIComponent(orderId)}`,
    token,
    via,
  );

/** The Admin API queries the link routes made of the local store: whether an order is the shop's. */
async function orderLookups() {
  return (await storeGraphqlLog()).filter((request) => request.operation_name === "OrderPlacedAt");
}

const adminView = (shop: string, orderId: string = `gid://shopify/Order/${ORDER}`) =>
  answerOf(
    routes.admin.loader,
    `/api/admin/order-protection?order_id=${encodeURIComponent(orderId)}&shop=${shop}`,
    sessionToken(shop),
  );

function expectCors(answer: Answer) {
  expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  expect(answer.headers.get("access-control-allow-headers")).toContain("Authorization");
  expect(answer.headers.get("cache-control")).toBe("no-store");
}

describe(`post-purchase links (${provider})`, () => {
  it("answers not_yet until order_placed is delivered, then the service's redirect link", async () => {
    await placeOrder(SHOP);
    const waiting = await thankYou(checkoutSessionToken(SHOP));
    expect(waiting.status).toBe(202);
    expect(waiting.body).toEqual({ status: "not_yet", retry_after_ms: 1500 });
    expectCors(waiting);
    expect(await checkoutCalls()).toEqual([]);

    await deliverAll();
    const ready = await thankYou(checkoutSessionToken(SHOP));
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body.status).toBe("ready");
    expect(String(ready.body.link)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/checkout\//);
    expect(Array.isArray(ready.body.available_plans)).toBe(true);
    expectCors(ready);
    const [call] = await checkoutCalls();
    expect(call?.query).toEqual({ order_id: ORDER, checkout_type: "redirect" });

    // The Order status page asks the same link, by the order's GID, for the order's customer.
    const status = await orderStatus(customerAccountSessionToken(SHOP, { customerId: CUSTOMER }));
    expect(status.body).toEqual(ready.body);
  });

  it("answers none when the service has no plan for the order (404)", async () => {
    const body = freshOrderBody(
      "820982911946154508",
      readShopifyFixture("orders_create", "real-eur-qty2_qrshirt_app.json"),
    );
    const orderId = (JSON.parse(body.replace(/"id":\s*(\d+)/, '"id":"$1"')) as { id: string }).id;
    await placeOrder(SHOP, body);
    await deliverAll();
    const answer = await thankYou(checkoutSessionToken(SHOP), orderId);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: "none" });
    expect((await checkoutCalls()).map((call) => call.status)).toEqual([404]);
    // Cached briefly: asked again, the service is not.
    await thankYou(checkoutSessionToken(SHOP), orderId);
    expect(await checkoutCalls()).toHaveLength(1);
  });

  it("waits for an order Shopify knows as the shop's before its webhook, and gives none for one it does not", async () => {
    // The order exists in the store, but its orders/create has not reached the app.
    expect((await storeControl("webhooks/drop", { count: 1, topic: "orders/create" })).status).toBe(
      200,
    );
    const created = await storeControl<{ id: string }>(`shops/${SHOP}/orders`, {
      line_items: [{ title: "Aurora 14 Laptop", price: "249.00", quantity: 1 }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const orderId = String(created.body.id);
    expect(await app.prisma.webhookReceipt.count()).toBe(0);

    const waiting = await thankYou(
      checkoutSessionToken(SHOP),
      `gid://shopify/OrderIdentity/${orderId}`,
    );
    expect(waiting.status).toBe(202);
    expect(waiting.body).toEqual({ status: "not_yet", retry_after_ms: 1500 });
    // Another shop's token for the same ID: Shopify has no such order of that shop.
    const other = await thankYou(checkoutSessionToken(OTHER_SHOP), orderId);
    expect(other.body).toEqual({ status: "none" });
    // An ID Shopify does not know at all.
    expect((await thankYou(checkoutSessionToken(SHOP), "424242")).body).toEqual({ status: "none" });
    expect(await checkoutCalls()).toEqual([]);
  });

  it("never gives a shop's link to another shop's token", async () => {
    await placeOrder(SHOP);
    await deliverAll();
    expect((await thankYou(checkoutSessionToken(SHOP))).body.status).toBe("ready");
    const calls = (await checkoutCalls()).length;

    const other = await thankYou(checkoutSessionToken(OTHER_SHOP));
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ status: "none" });
    expect(
      await orderStatus(customerAccountSessionToken(OTHER_SHOP, { customerId: CUSTOMER })),
    ).toMatchObject({ body: { status: "none" } });
    expect((await adminView(OTHER_SHOP)).status).toBe(404);
    expect(await checkoutCalls()).toHaveLength(calls);
  });

  it("caches a link per shop: the second call does not reach the service, another shop's same order does", async () => {
    await placeOrder(SHOP);
    await placeOrder(OTHER_SHOP);
    await deliverAll();
    const first = await thankYou(checkoutSessionToken(SHOP));
    const second = await thankYou(checkoutSessionToken(SHOP));
    expect(second.body).toEqual(first.body);
    expect(await checkoutCalls()).toHaveLength(1);

    const other = await thankYou(checkoutSessionToken(OTHER_SHOP));
    expect(other.body.status).toBe("ready");
    expect(await checkoutCalls()).toHaveLength(2);
  });

  it("answers an uncached 504 when the service times out", async () => {
    await placeOrder(SHOP);
    await deliverAll();
    const fault = await app.control.control("faults", {
      body: {
        count: 1,
        delay_ms: STOREFRONT_TIMEOUT_MS * 4,
        match: { method: "GET", path: "/sandbox/checkouts" },
      },
    });
    expect(fault.status).toBe(200);
    const slow = await thankYou(checkoutSessionToken(SHOP));
    expect(slow.status).toBe(504);
    expect(slow.body).toMatchObject({ status: "error", error: { code: "service_timeout" } });
    expectCors(slow);

    const again = await thankYou(checkoutSessionToken(SHOP));
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("ready");
  });

  it("answers 502 for a service error, not cached", async () => {
    await placeOrder(SHOP);
    await deliverAll();
    await app.control.control("faults", {
      body: { count: 1, status: 503, match: { method: "GET", path: "/sandbox/checkouts" } },
    });
    const failed = await thankYou(checkoutSessionToken(SHOP));
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ status: "error", error: { code: "service_unavailable" } });
    expect((await thankYou(checkoutSessionToken(SHOP))).body.status).toBe("ready");
  });

  it("refuses expired, forged and other apps' tokens with 401, and a bad order_id with 400", async () => {
    expect((await thankYou(checkoutSessionToken(SHOP, { expiresIn: -120 }))).status).toBe(401);
    expect((await thankYou(checkoutSessionToken(SHOP, { secret: "forged" }))).status).toBe(401);
    expect((await orderStatus(customerAccountSessionToken(SHOP, { expiresIn: -120 }))).status).toBe(
      401,
    );
    const otherApp = await thankYou(checkoutSessionToken(SHOP, { audience: "another-app" }));
    expect(otherApp.status).toBe(401);
    expectCors(otherApp);

    const bad = await thankYou(checkoutSessionToken(SHOP), "gid://shopify/Customer/1");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: "invalid_order_id" } });
    expectCors(bad);
    expect((await adminView(SHOP, "12a")).status).toBe(400);
  });

  it("answers the CORS preflight", async () => {
    for (const route of [routes.checkout.action, routes.customer.action, routes.admin.action]) {
      const request = new Request(`${APP_ORIGIN}/api/checkout/protection-link?order_id=1`, {
        method: "OPTIONS",
        headers: {
          Origin: EXTENSION_ORIGIN,
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "authorization",
        },
      });
      const answer = await callRoute(route, request);
      expect(answer).toBeInstanceOf(Response);
      const response = answer as Response;
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-headers")).toContain("Authorization");
    }
  });

  it("answers none on the buyer's pages when the merchant switched the link off; the admin keeps its guided link", async () => {
    await placeOrder(SHOP);
    await deliverAll();
    await app.prisma.shopConnection.update({
      where: { shop: SHOP },
      data: { selfServiceLink: false },
    });
    expect((await thankYou(checkoutSessionToken(SHOP))).body).toEqual({ status: "none" });
    expect(
      (await orderStatus(customerAccountSessionToken(SHOP, { customerId: CUSTOMER }))).body,
    ).toEqual({ status: "none" });
    expect(await checkoutCalls()).toEqual([]);

    const admin = await adminView(SHOP);
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    expect(admin.body.guided_checkout).toMatchObject({ status: "ready" });
    const [call] = await checkoutCalls();
    expect(call?.query).toEqual({ order_id: ORDER, checkout_type: "assist" });
  });

  it("gives the Order status page nothing for a token without a customer", async () => {
    await placeOrder(SHOP);
    await deliverAll();
    const answer = await orderStatus(customerAccountSessionToken(SHOP, { customerId: null }));
    expect(answer.body).toEqual({ status: "none" });
    expect(await checkoutCalls()).toEqual([]);
  });

  it("gives the Order status page's link only to the order's customer (decision 034)", async () => {
    await placeOrder(SHOP);
    await deliverAll();
    expect(
      await app.prisma.orderSummary.findUnique({
        where: { shop_orderId: { shop: SHOP, orderId: ORDER } },
        select: { customerId: true },
      }),
    ).toEqual({ customerId: CUSTOMER });

    // Another signed-in customer of the same shop, asking by the order's ID: nothing.
    const neighbour = String(BigInt(CUSTOMER) + 1n);
    for (const customerId of [neighbour, "7"]) {
      const other = await orderStatus(customerAccountSessionToken(SHOP, { customerId }));
      expect(other.status).toBe(200);
      expect(other.body, customerId).toEqual({ status: "none" });
      expectCors(other);
    }
    expect(await checkoutCalls()).toEqual([]);

    const own = await orderStatus(customerAccountSessionToken(SHOP, { customerId: CUSTOMER }));
    expect(own.status).toBe(200);
    expect(own.body.status).toBe("ready");
    // The link is cached now: another customer still gets nothing from the cache.
    const again = await orderStatus(customerAccountSessionToken(SHOP, { customerId: neighbour }));
    expect(again.body).toEqual({ status: "none" });
    expect(await checkoutCalls()).toHaveLength(1);
  });

  it("gives another customer nothing of an order whose placement is still on its way", async () => {
    await placeOrder(SHOP);
    const other = await orderStatus(customerAccountSessionToken(SHOP, { customerId: "7" }));
    expect(other.body).toEqual({ status: "none" });
    const own = await orderStatus(customerAccountSessionToken(SHOP, { customerId: CUSTOMER }));
    expect(own.status).toBe(202);
    expect(own.body).toEqual({ status: "not_yet", retry_after_ms: 1500 });
  });

  it("fails closed for a guest order, which names no customer", async () => {
    const guest = freshOrderBody().replace(/"customer":\s*\{/, '"guest_customer": {');
    expect(guest).not.toContain('"customer":');
    await placeOrder(SHOP, guest);
    await deliverAll();
    expect((await thankYou(checkoutSessionToken(SHOP))).body.status).toBe("ready");
    const answer = await orderStatus(customerAccountSessionToken(SHOP, { customerId: CUSTOMER }));
    expect(answer.body).toEqual({ status: "none" });
  });

  it("forgets the order's customer with customers/redact and data_request reports it: the match then fails closed", async () => {
    await placeOrder(SHOP);
    await deliverAll();
    const token = () => customerAccountSessionToken(SHOP, { customerId: CUSTOMER });
    expect((await orderStatus(token())).body.status).toBe("ready");
    const compliance = (key: string) =>
      `{"shop_id":954889,"shop_domain":"${SHOP}","customer":{"id":${CUSTOMER},"email":"nobody@example.com","phone":null},"${key}":[]}`;
    const { action: dataRequest } =
      await import("../../app/routes/webhooks.customers.data_request");
    const { action: redact } = await import("../../app/routes/webhooks.customers.redact");

    const asked = await callRoute(
      dataRequest,
      signedWebhookRequest({
        topic: "customers/data_request",
        shop: SHOP,
        body: compliance("orders_requested"),
      }),
    );
    expect((asked as Response).status).toBe(200);
    const report = await app.prisma.webhookReceipt.findFirstOrThrow({
      where: { shop: SHOP, topic: "customers/data_request" },
    });
    expect(report.detail).toContain("and 1 order summary(ies)");
    expect(report.detail).toContain(`order ${ORDER}: `);
    expect(report.detail).toContain("order summary: customerId");
    expect(report.detail).not.toContain(CUSTOMER);

    const redacted = await callRoute(
      redact,
      signedWebhookRequest({
        topic: "customers/redact",
        shop: SHOP,
        body: compliance("orders_to_redact"),
      }),
    );
    expect((redacted as Response).status).toBe(200);
    expect(
      await app.prisma.orderSummary.findUniqueOrThrow({
        where: { shop_orderId: { shop: SHOP, orderId: ORDER } },
      }),
    ).toMatchObject({ customerId: null, planLineCount: 1 });
    // The cached link is not handed out any more: the match comes first.
    expect((await orderStatus(token())).body).toEqual({ status: "none" });
  });

  it("shows the admin an order's lines, events and guided link, and 404 for an unknown order", async () => {
    await placeOrder(SHOP);
    const pending = await adminView(SHOP);
    expect(pending.status).toBe(200);
    expect(pending.body.guided_checkout).toEqual({ status: "not_yet", retry_after_ms: 1500 });
    expectCors(pending);

    await deliverAll();
    const view = await adminView(SHOP);
    expect(view.body.order).toMatchObject({ id: ORDER, environment: "sandbox" });
    expect(view.body.events).toEqual([
      expect.objectContaining({ type: "order_placed", status: "delivered" }),
    ]);
    expect(view.body.protected_lines).toEqual([
      {
        line_item_id: "13610349379897",
        title: "USB-C Charging Cable 2 m",
        quantity: 2,
        plan_line_item_id: "13610349412665",
        plan_title: "2-year protection",
        product_reference: CABLE_VARIANT,
      },
    ]);
    expect(view.body.guided_checkout).toMatchObject({ status: "ready" });

    const unknown = await adminView(SHOP, "999999");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: "order_not_found" } });
  });
});

describe(`post-purchase links against hostile buyers (${provider}, issue 27, decision 043)`, () => {
  /** An order the store has, whose orders/create has not reached the app; `customer` its buyer. */
  async function unrecordedOrder(customer?: { email: string }) {
    expect((await storeControl("webhooks/drop", { count: 1, topic: "orders/create" })).status).toBe(
      200,
    );
    const created = await storeControl<{ id: string; customer?: { id: string } }>(
      `shops/${SHOP}/orders`,
      {
        line_items: [{ title: "Aurora 14 Laptop", price: "249.00", quantity: 1 }],
        ...(customer ? { customer } : {}),
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { orderId: String(created.body.id), customerId: String(created.body.customer?.id) };
  }

  /** Order IDs the store does not have: each one a Shopify lookup unless something stops it. */
  const unknownOrders = (count: number) =>
    Array.from({ length: count }, (_, index) => `gid://shopify/OrderIdentity/${9_100_000 + index}`);

  it("keys the visitor on the socket's address: a rotating X-Forwarded-For does not get past the limit", async () => {
    const statuses: number[] = [];
    for (const [index, orderId] of unknownOrders(3 * VISITOR_BURST).entries()) {
      const answer = await thankYou(checkoutSessionToken(SHOP), orderId, {
        socketAddress: "203.0.113.7",
        forwardedFor: `198.51.100.${index + 1}`,
      });
      statuses.push(answer.status);
    }
    const accepted = statuses.filter((status) => status !== 429);
    // The burst, and at most one token refilled meanwhile (0.1 per second).
    expect(accepted.length).toBeGreaterThanOrEqual(VISITOR_BURST);
    expect(accepted.length).toBeLessThanOrEqual(VISITOR_BURST + 1);
    expect((await orderLookups()).length).toBeLessThanOrEqual(BUYER_ADMIN_BURST + 1);

    // Another address is another visitor.
    const other = await thankYou(checkoutSessionToken(SHOP), `gid://shopify/Order/${ORDER}`, {
      socketAddress: "203.0.113.8",
    });
    expect(other.status).toBe(200);
  });

  it("limits a token however many addresses it comes from", async () => {
    const token = checkoutSessionToken(SHOP);
    const statuses: number[] = [];
    for (const [index, orderId] of unknownOrders(2 * VISITOR_BURST).entries()) {
      const answer = await thankYou(token, orderId, { socketAddress: `192.0.2.${index + 1}` });
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(
      VISITOR_BURST + 1,
    );
    expect(statuses.at(-1)).toBe(429);
  });

  it("caps the buyer routes' Admin API calls per shop, whatever the addresses and tokens", async () => {
    const answers = [];
    for (const [index, orderId] of unknownOrders(4 * BUYER_ADMIN_BURST).entries()) {
      answers.push(
        await thankYou(checkoutSessionToken(SHOP), orderId, { socketAddress: `10.1.0.${index}` }),
      );
    }
    // Every answer is none (nothing of it is the shop's, or Shopify was not asked): no 429 here.
    expect(answers.map((answer) => answer.body)).toEqual(answers.map(() => ({ status: "none" })));
    const lookups = await orderLookups();
    expect(lookups.length).toBeGreaterThanOrEqual(BUYER_ADMIN_BURST);
    expect(lookups.length).toBeLessThanOrEqual(BUYER_ADMIN_BURST + 1);

    // The cap is the buyer routes' alone: the admin's own session still asks Shopify.
    expect((await adminView(SHOP, "9199999")).status).toBe(404);
    expect((await orderLookups()).length).toBe(lookups.length + 1);
  });

  it("asks Shopify once for an unknown order asked again and again", async () => {
    for (let index = 0; index < 6; index++) {
      const answer = await thankYou(checkoutSessionToken(SHOP), "gid://shopify/Order/9188888", {
        socketAddress: `10.2.0.${index}`,
      });
      expect(answer.body).toEqual({ status: "none" });
    }
    expect(await orderLookups()).toHaveLength(1);
  });

  it("answers the Order status page none for an unrecorded order that is not the customer's, as for a missing one", async () => {
    const { orderId, customerId } = await unrecordedOrder({ email: "ada@example.com" });
    const existing = await orderStatus(
      customerAccountSessionToken(SHOP, { customerId: "7" }),
      `gid://shopify/Order/${orderId}`,
    );
    const missing = await orderStatus(
      customerAccountSessionToken(SHOP, { customerId: "7" }),
      "gid://shopify/Order/9177777",
    );
    expect(existing.status).toBe(200);
    expect(existing.body).toEqual({ status: "none" });
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual(existing.body);
    // Nothing recorded names the order's customer: its own customer gets none too, and nothing
    // is asked of Shopify on the Order status page's behalf.
    expect(customerId).toMatch(/^\d+$/);
    const own = await orderStatus(
      customerAccountSessionToken(SHOP, { customerId }),
      `gid://shopify/Order/${orderId}`,
    );
    expect(own.body).toEqual({ status: "none" });
    expect(await orderLookups()).toEqual([]);
    // The Thank-you page still waits for the order's webhook.
    expect((await thankYou(checkoutSessionToken(SHOP), orderId)).status).toBe(202);
  });
});
