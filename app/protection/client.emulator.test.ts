// The client over real HTTP against the local protection-service emulator: every endpoint,
// both environments, both API versions and every result kind the emulator can produce.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/server";
import { EmulatorClient } from "../../emulator/test-support";
import { createProtectionClient } from "./client.server";
import type { ProtectionClient, ProtectionClientOptions } from "./client.server";
import { describeResult } from "./results";
import type { ServiceResult } from "./results";
import type {
  ApiVersion,
  CartLineItem,
  CartUpdateRequest,
  Environment,
  OrderEvent,
  OrderPlacedPayload,
} from "./types";

const SANDBOX_KEY = "sk_test_emulator_sandbox_7Qx";
const LIVE_KEY = "sk_live_emulator_production_9Zr";
const KEYS: Record<Environment, string> = { sandbox: SANDBOX_KEY, production: LIVE_KEY };

let emulator: { url: string; close(): Promise<void> };
let control: EmulatorClient;

beforeAll(async () => {
  emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port: 0 });
  control = new EmulatorClient(emulator);
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  await control.reset();
});

async function injectFault(fault: { count: number; status?: number; delay_ms?: number }) {
  const response = await fetch(new URL("__emulator/faults", emulator.url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(fault),
  });
  expect(response.status).toBe(200);
}

function client(overrides: Partial<ProtectionClientOptions> = {}): ProtectionClient {
  const environment = overrides.environment ?? "sandbox";
  return createProtectionClient({
    baseUrl: emulator.url,
    environment,
    secretKey: KEYS[environment],
    apiVersion: "v2.0",
    timeoutMs: 3000,
    ...overrides,
  });
}

function expectNoKey(result: ServiceResult<unknown>) {
  const text = `${JSON.stringify(result)} ${describeResult(result)}`;
  expect(text).not.toContain(SANDBOX_KEY);
  expect(text).not.toContain(LIVE_KEY);
}

// The emulator records only the last three characters of the key it was sent.
function keyHint(key: string): string {
  return `Bearer …${key.slice(-3)}`;
}

const SESSION_ID = "3f1c9a52-8d4b-4e0a-9b6f-2c7d1e5a9b40";
const laptop: CartLineItem = {
  id: "11",
  quantity: 2,
  price_amount: 79900,
  product_id: "laptop-14",
  product_title: "Acme Laptop 14",
  product_brand: "Acme",
};
const laptopPlan: CartLineItem = {
  id: "12",
  quantity: 1,
  price_amount: 5999,
  product_id: "8104420102003",
  product_title: "2-year protection",
  product_brand: "svc",
  custom_properties: { product_reference: "laptop-14" },
};
const headphones: CartLineItem = {
  id: "13",
  quantity: 1,
  price_amount: 19900,
  product_id: "headphones-x",
  product_title: "Studio Headphones X",
  product_brand: "Acme",
};
const gardenChair: CartLineItem = {
  id: "14",
  quantity: 1,
  price_amount: 4999,
  product_id: "chair-1",
  product_title: "Garden chair",
  product_brand: "Outdoor",
};

function cart(lineItems: CartLineItem[]): CartUpdateRequest {
  return {
    cart_id: "cart-1",
    user_session_id: SESSION_ID,
    cart_currency: "eur",
    line_items: lineItems,
  };
}

function orderPlaced(orderId: string, lineItems: CartLineItem[]): OrderEvent {
  const payload: OrderPlacedPayload = {
    order_id: orderId,
    placed_at: "2025-03-01T12:00:00.000Z",
    order_currency: "eur",
    cart_id: "cart-1",
    customer: { first_name: "Erika", last_name: "Mustermann", email: "erika@example.com" },
    customer_billing_address: {
      address_line_1: "Hauptstr. 1",
      address_line_2: "",
      city: "Berlin",
      country: "de",
      zip: "10115",
    },
    line_items: lineItems,
  };
  return { type: "order_placed", payload };
}

/** One valid call per endpoint, for checks that hold whatever the endpoint. */
const endpointCalls: Record<string, (c: ProtectionClient) => Promise<ServiceResult<unknown>>> = {
  reportCartUpdate: (c) => c.reportCartUpdate(cart([laptop])),
  confirmCartCheckout: (c) =>
    c.confirmCartCheckout({ cart_id: "cart-1", user_session_id: SESSION_ID, order_id: "5001" }),
  sendOrderEvent: (c) => c.sendOrderEvent(orderPlaced("5001", [laptop])),
  lookupPlans: (c) =>
    c.lookupPlans({
      product_id: "laptop-14",
      product_title: "Acme Laptop 14",
      price_amount: 79900,
      price_currency: "eur",
    }),
  getCheckout: (c) => c.getCheckout({ order_id: "5001", checkout_type: "redirect" }),
};
const endpointNames = Object.keys(endpointCalls);

describe.each(["sandbox", "production"] as const)("in %s", (environment) => {
  const prefix = environment === "sandbox" ? "/sandbox/" : "/";

  it("addresses the environment's URL", () => {
    const expected = environment === "sandbox" ? `${emulator.url}sandbox/` : emulator.url;
    expect(client({ environment }).serviceUrl).toBe(expected);
  });

  it("reports cart updates and gets the quantity action back until the cart is consistent", async () => {
    const c = client({ environment });
    const first = await c.reportCartUpdate(cart([laptop, laptopPlan]));
    expect(first).toEqual({
      kind: "success",
      status: 200,
      data: {
        cart_id: "cart-1",
        user_session_id: SESSION_ID,
        actions: [
          { type: "update_line_item", payload: { line_item_id: "12", line_item_quantity: 2 } },
        ],
      },
    });

    const second = await c.reportCartUpdate(cart([laptop, { ...laptopPlan, quantity: 2 }]));
    expect(second.kind === "success" && second.data.actions).toEqual([]);

    const [request] = await control.requests();
    expect(request).toMatchObject({
      method: "POST",
      path: `${prefix}cart_updates`,
      environment,
      body: cart([laptop, laptopPlan]),
      status: 200,
    });
    expect(request?.headers.authorization).toBe(keyHint(KEYS[environment]));
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.accept).toBe("application/json");
  });

  it("confirms a cart checkout and gets the accepted data back", async () => {
    const confirmation = { cart_id: "cart-1", user_session_id: SESSION_ID, order_id: "5001" };
    const c = client({ environment });
    expect((await c.sendOrderEvent(orderPlaced("5001", [laptop]))).kind).toBe("success");
    const result = await c.confirmCartCheckout(confirmation, { idempotencyKey: "confirm-5001" });
    expect(result).toEqual({ kind: "success", status: 200, data: confirmation });
    const sent = (await control.requests())[1];
    expect(sent?.path).toBe(`${prefix}cart_checkout`);
    expect(sent?.idempotency_key).toBe("confirm-5001");
  });

  it("sends all five order event kinds and gets a distinct event_id for each", async () => {
    const c = client({ environment });
    const events: OrderEvent[] = [
      orderPlaced("6001", [laptop, laptopPlan, headphones]),
      {
        type: "order_fulfillment_added",
        payload: {
          order_id: "6001",
          fulfillment_items: [
            { line_item_id: "11", quantity: 2, fulfilled_at: "2025-03-02T09:00:00.000Z" },
          ],
        },
      },
      {
        type: "order_refund_added",
        payload: {
          order_id: "6001",
          refund_items: [
            { line_item_id: "13", quantity: 1, refunded_at: "2025-03-03T09:00:00.000Z" },
          ],
        },
      },
      {
        type: "order_line_items_cancelled",
        payload: {
          order_id: "6001",
          cancelled_line_items: [
            { line_item_id: "12", quantity: 1, cancelled_at: "2025-03-04T09:00:00.000Z" },
          ],
        },
      },
      {
        type: "order_cancelled",
        payload: { order_id: "6001", cancelled_at: "2025-03-05T09:00:00.000Z" },
      },
    ];

    const eventIds: string[] = [];
    for (const event of events) {
      const result = await c.sendOrderEvent(event);
      expect(result, event.type).toMatchObject({ kind: "success", status: 200 });
      if (result.kind === "success") eventIds.push(result.data.event_id ?? "");
    }
    expect(new Set(eventIds).size).toBe(5);

    const requests = await control.requests();
    expect(requests.map((r) => r.path)).toEqual(Array(5).fill(`${prefix}events`));
    expect(requests.map((r) => r.body)).toEqual(events);
  });

  it("looks up plans with the chosen query names", async () => {
    const result = await client({ environment }).lookupPlans({
      product_id: "laptop-14",
      product_title: "Acme Laptop 14",
      product_brand: "Acme",
      price_amount: 79900,
      price_currency: "eur",
      user_session_id: SESSION_ID,
    });

    expect(result.kind).toBe("success");
    if (result.kind !== "success") return;
    expect(result.data.product).toMatchObject({ id: "laptop-14", price_amount: 79900 });
    expect(result.data.plans.length).toBeGreaterThan(0);
    for (const plan of result.data.plans) {
      expect(plan).toMatchObject({ product_reference: "laptop-14", price_currency: "eur" });
      expect(Number.isInteger(plan.price_amount)).toBe(true);
    }

    const [request] = await control.requests();
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe(`${prefix}plans`);
    expect(request?.query).toEqual({
      product_id: "laptop-14",
      product_title: "Acme Laptop 14",
      product_brand: "Acme",
      price_amount: "79900",
      price_currency: "eur",
      user_session_id: SESSION_ID,
    });
    expect(request?.headers["content-type"]).toBeUndefined();
  });

  it("gets redirect and assist checkouts for a placed order", async () => {
    const c = client({ environment });
    expect((await c.sendOrderEvent(orderPlaced("7001", [laptop, headphones]))).kind).toBe(
      "success",
    );

    const redirect = await c.getCheckout({ order_id: "7001", checkout_type: "redirect" });
    expect(redirect.kind).toBe("success");
    if (redirect.kind !== "success") return;
    expect(redirect.data.order_id).toBe("7001");
    expect(redirect.data.redirect_link).toMatch(/^http/);
    expect(redirect.data.assist_link).toBeUndefined();
    expect(redirect.data.available_plans.map((plan) => plan.line_item_id).sort()).toEqual([
      "11",
      "13",
    ]);

    const assist = await c.getCheckout({ order_id: "7001", checkout_type: "assist" });
    expect(assist.kind === "success" && assist.data.assist_link).toMatch(/^http/);

    const requests = await control.requests();
    expect(requests[1]).toMatchObject({
      method: "GET",
      path: `${prefix}checkouts`,
      query: { order_id: "7001", checkout_type: "redirect" },
    });
  });

  it("gets unauthorized with the other environment's key", async () => {
    const other = environment === "sandbox" ? "production" : "sandbox";
    const c = client({ environment, secretKey: KEYS[other] });
    const result = await c.sendOrderEvent(orderPlaced("8001", [laptop]));
    expect(result).toEqual({ kind: "unauthorized", status: 401, errorCode: "unauthorized" });
    expectNoKey(result);
    const [request] = await control.requests();
    expect(request?.environment).toBe(environment);
    expect(request?.headers.authorization).toBe(keyHint(KEYS[other]));
  });

  it("keeps orders apart from the other environment", async () => {
    expect((await client({ environment }).sendOrderEvent(orderPlaced("8101", [laptop]))).kind).toBe(
      "success",
    );
    const other = environment === "sandbox" ? "production" : "sandbox";
    const result = await client({ environment: other }).getCheckout({
      order_id: "8101",
      checkout_type: "redirect",
    });
    expect(result).toEqual({ kind: "not_found", status: 404, errorCode: "order_not_found" });
  });
});

describe.each(["v1.1", "v2.0"] as const)("API version %s", (apiVersion: ApiVersion) => {
  it.each(endpointNames)("sends Svc-Version on %s", async (name) => {
    const call = endpointCalls[name];
    if (call === undefined) throw new Error(`no call for ${name}`);
    await call(client({ apiVersion }));
    const requests = await control.requests();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers["svc-version"]).toBe(apiVersion);
  });
});

describe("configured paths", () => {
  it("sends events and checkout confirmations to /orders when configured so", async () => {
    const c = client({ paths: { events: "orders", cartCheckout: "orders" } });
    const placed = await c.sendOrderEvent(orderPlaced("9001", [laptop]));
    expect(placed.kind).toBe("success");
    const confirmation = { cart_id: "cart-1", user_session_id: SESSION_ID, order_id: "9001" };
    expect(await c.confirmCartCheckout(confirmation)).toEqual({
      kind: "success",
      status: 200,
      data: confirmation,
    });
    expect((await control.requests()).map((r) => r.path)).toEqual([
      "/sandbox/orders",
      "/sandbox/orders",
    ]);
  });
});

describe("result kinds from the emulator", () => {
  it("maps a 400 to validation_error with the service's entries", async () => {
    const result = await client().reportCartUpdate({
      ...cart([laptop]),
      user_session_id: "not-a-uuid",
    });
    expect(result).toMatchObject({
      kind: "validation_error",
      status: 400,
      errorCode: "validation_failed",
    });
    expect(result.kind === "validation_error" && result.validationErrors).toContainEqual(
      expect.objectContaining({ field: "user_session_id" }),
    );
    expect(describeResult(result)).toContain("user_session_id");
  });

  it("maps an event for an order never placed to not_found order_not_found", async () => {
    const result = await client().sendOrderEvent({
      type: "order_cancelled",
      payload: { order_id: "never-placed", cancelled_at: "2025-03-05T09:00:00.000Z" },
    });
    expect(result).toEqual({ kind: "not_found", status: 404, errorCode: "order_not_found" });
  });

  it("maps a checkout for an order without protectable products to not_found no_plan_available", async () => {
    const c = client();
    expect((await c.sendOrderEvent(orderPlaced("9101", [gardenChair]))).kind).toBe("success");
    const result = await c.getCheckout({ order_id: "9101", checkout_type: "assist" });
    expect(result).toEqual({ kind: "not_found", status: 404, errorCode: "no_plan_available" });
  });

  it("maps an unknown key to unauthorized without repeating it", async () => {
    const badKey = "sk_test_not_a_real_key_123";
    const result = await client({ secretKey: badKey }).lookupPlans({
      product_id: "laptop-14",
      product_title: "Acme Laptop 14",
      price_amount: 79900,
      price_currency: "eur",
    });
    expect(result).toEqual({ kind: "unauthorized", status: 401, errorCode: "unauthorized" });
    expect(JSON.stringify(result) + describeResult(result)).not.toContain(badKey);
  });

  it.each(endpointNames)("maps a 503 on %s to retryable server_error", async (name) => {
    await injectFault({ count: 1, status: 503 });
    const call = endpointCalls[name];
    if (call === undefined) throw new Error(`no call for ${name}`);
    const result = await call(client());
    expect(result).toMatchObject({ kind: "retryable", reason: "server_error", status: 503 });
    expectNoKey(result);
  });

  it("succeeds on the next call once a fault has passed", async () => {
    await injectFault({ count: 1, status: 500 });
    const c = client();
    expect((await c.sendOrderEvent(orderPlaced("9201", [laptop]))).kind).toBe("retryable");
    expect((await c.sendOrderEvent(orderPlaced("9201", [laptop]))).kind).toBe("success");
  });

  it("maps a 429 to retryable rate_limited", async () => {
    await injectFault({ count: 1, status: 429 });
    const result = await client().reportCartUpdate(cart([laptop]));
    expect(result).toMatchObject({ kind: "retryable", reason: "rate_limited", status: 429 });
  });

  it.each([403, 409, 422])("maps a %i to rejected, which is not retryable", async (status) => {
    await injectFault({ count: 1, status });
    const result = await client().sendOrderEvent(orderPlaced("9301", [laptop]));
    expect(result).toMatchObject({ kind: "rejected", status, errorCode: "injected_fault" });
    expectNoKey(result);
  });

  it("maps a slow answer to retryable timeout", async () => {
    await injectFault({ count: 1, delay_ms: 1500 });
    const started = Date.now();
    const result = await client({ timeoutMs: 300 }).getCheckout({
      order_id: "9401",
      checkout_type: "redirect",
    });
    expect(result).toMatchObject({ kind: "retryable", reason: "timeout" });
    expect(result).not.toHaveProperty("status");
    expect(Date.now() - started).toBeLessThan(1400);

    // The emulator still finishes the request; wait for it so it cannot leak into later tests.
    await expect
      .poll(async () => (await control.requests()).map((r) => r.path), { timeout: 5000 })
      .toEqual(["/sandbox/checkouts"]);
  });

  it("maps a refused connection to retryable network, not timeout", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const result = await client({ baseUrl: `http://127.0.0.1:${port}/` }).sendOrderEvent(
      orderPlaced("9501", [laptop]),
    );
    expect(result).toMatchObject({ kind: "retryable", reason: "network" });
    expectNoKey(result);
  });
});
