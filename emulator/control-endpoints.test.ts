import { describe, expect, it } from "vitest";
import type { ErrorBody } from "./errors";
import type { FaultRule } from "./state";
import {
  cartUpdate,
  LIVE_KEY,
  lineItem,
  orderPlacedPayload,
  PRODUCTS,
  SANDBOX_KEY,
  withTestEmulator,
} from "./test-support";

const client = withTestEmulator();

const laptopQuery = {
  product_id: PRODUCTS.laptop.product_id,
  product_title: PRODUCTS.laptop.product_title,
  price_amount: String(PRODUCTS.laptop.price_amount),
  price_currency: "eur",
};

async function injectFault(fault: object): Promise<FaultRule[]> {
  const answer = await client.control<{ faults: FaultRule[] }>("faults", { body: fault });
  expect(answer.status).toBe(200);
  return answer.body.faults;
}

describe("GET /__emulator/requests", () => {
  it("lists every API request in order with environment, headers, query, parsed body and status", async () => {
    const cart = cartUpdate([lineItem("52011", PRODUCTS.laptop, 1)]);
    await client.call("cart_updates", { environment: "sandbox", body: cart, version: "v2.0" });
    await client.call("plans", { environment: "production", query: laptopQuery });
    await client.call("plans", {
      environment: "production",
      query: laptopQuery,
      key: "sk_live_wrong_key",
    });
    await client.call("events", { rawBody: "{not json" });
    await client.call("no_such_endpoint");

    const requests = await client.requests();
    expect(
      requests.map((request) => [
        request.method,
        request.path,
        request.environment,
        request.status,
      ]),
    ).toEqual([
      ["POST", "/sandbox/cart_updates", "sandbox", 200],
      ["GET", "/plans", "production", 200],
      ["GET", "/plans", "production", 401],
      ["POST", "/sandbox/events", "sandbox", 400],
      ["GET", "/sandbox/no_such_endpoint", "sandbox", 404],
    ]);
    const [cartRequest, plansRequest, , invalidJsonRequest] = requests;
    expect(cartRequest?.body).toEqual(cart);
    expect(cartRequest?.headers["svc-version"]).toBe("v2.0");
    expect(cartRequest?.headers["content-type"]).toBe("application/json");
    expect(plansRequest?.query).toEqual(laptopQuery);
    expect(invalidJsonRequest?.body).toBeNull();
    expect(invalidJsonRequest?.unparsed_body).toBe("{not json");
  });

  it("shows only a hint of each key, never the key", async () => {
    await client.call("plans", { environment: "sandbox", query: laptopQuery });
    await client.call("plans", { environment: "production", query: laptopQuery });
    const requests = await client.requests();
    expect(requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer …${SANDBOX_KEY.slice(-3)}`,
      `Bearer …${LIVE_KEY.slice(-3)}`,
    ]);
    const logText = JSON.stringify(requests);
    expect(logText).not.toContain(SANDBOX_KEY);
    expect(logText).not.toContain(LIVE_KEY);
  });

  it("does not list its own control requests", async () => {
    await client.control("state?environment=sandbox");
    await client.control("faults", { body: { count: 1, match: { path: "/never" } } });
    expect(await client.requests()).toEqual([]);
  });
});

describe("POST /__emulator/reset", () => {
  it("clears requests, faults and the state of both environments", async () => {
    await client.placeOrder(orderPlacedPayload(), "sandbox");
    await client.placeOrder(orderPlacedPayload(), "production");
    await injectFault({ count: 5, status: 500 });

    await client.reset();

    expect(await client.requests()).toEqual([]);
    expect((await client.control<{ faults: FaultRule[] }>("faults")).body.faults).toEqual([]);
    expect((await client.state("sandbox")).orders).toEqual([]);
    expect((await client.state("production")).orders).toEqual([]);
    const afterReset = await client.call("plans", { query: laptopQuery });
    expect(afterReset.status).toBe(200);
  });
});

describe("POST /__emulator/faults", () => {
  it("fails the next N API requests with 503 injected_fault by default, then recovers", async () => {
    await injectFault({ count: 2 });
    const first = await client.call<ErrorBody>("plans", { query: laptopQuery });
    const second = await client.call<ErrorBody>("events", {
      body: { type: "order_placed", payload: orderPlacedPayload() },
    });
    const third = await client.call("plans", { query: laptopQuery });

    expect(first.status).toBe(503);
    expect(first.body).toEqual({ error: { error_code: "injected_fault", validation_errors: [] } });
    expect(second.status).toBe(503);
    expect(third.status).toBe(200);
    // The faulted order_placed never reached the service.
    expect((await client.state("sandbox")).orders).toEqual([]);
    expect((await client.requests()).map((request) => request.status)).toEqual([503, 503, 200]);
  });

  it("injects the asked status, such as 429, and records the faulted request with its body", async () => {
    await injectFault({ count: 1, status: 429 });
    const cart = cartUpdate([lineItem("52011", PRODUCTS.laptop, 1)]);
    const answer = await client.call<ErrorBody>("cart_updates", { body: cart });
    expect(answer.status).toBe(429);
    expect(answer.body.error.error_code).toBe("injected_fault");
    const [recorded] = await client.requests();
    expect(recorded?.status).toBe(429);
    expect(recorded?.body).toEqual(cart);
  });

  it("fails before authentication, as infrastructure in front of the service would", async () => {
    await injectFault({ count: 1, status: 502 });
    const answer = await client.call("plans", { query: laptopQuery, key: null });
    expect(answer.status).toBe(502);
  });

  it("fails only requests matching method and path", async () => {
    await injectFault({
      count: 1,
      status: 500,
      match: { method: "post", path: "/sandbox/events" },
    });
    const otherPath = await client.call("plans", { query: laptopQuery });
    const otherEnvironment = await client.call("events", {
      environment: "production",
      body: { type: "order_placed", payload: orderPlacedPayload() },
    });
    const matching = await client.call("events", {
      body: { type: "order_placed", payload: orderPlacedPayload() },
    });
    expect(otherPath.status).toBe(200);
    expect(otherEnvironment.status).toBe(200);
    expect(matching.status).toBe(500);
  });

  it("delays an answer by delay_ms and then answers normally", async () => {
    const rules = await injectFault({ count: 1, delay_ms: 300 });
    expect(rules).toEqual([{ remaining: 1, status: null, delay_ms: 300, match: {} }]);
    const started = performance.now();
    const delayed = await client.call("plans", { query: laptopQuery });
    const delayedMs = performance.now() - started;
    expect(delayed.status).toBe(200);
    expect(delayedMs).toBeGreaterThanOrEqual(290);

    const startedAgain = performance.now();
    await client.call("plans", { query: laptopQuery });
    expect(performance.now() - startedAgain).toBeLessThan(250);
  });

  it("delays and then fails when given both delay_ms and status", async () => {
    await injectFault({ count: 1, delay_ms: 200, status: 504 });
    const started = performance.now();
    const answer = await client.call("checkouts", {
      query: { order_id: "5558016491833", checkout_type: "redirect" },
    });
    expect(answer.status).toBe(504);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("answers a scripted body, 200 unless a status is given, in place of the real answer", async () => {
    const scripted = {
      cart_id: "another-cart",
      user_session_id: "3f9a6c1e-8b2d-4e7a-9c5f-1d2e3b4a5c6d",
      actions: [
        { type: "update_line_item", payload: { line_item_id: "nope", line_item_quantity: 3 } },
      ],
    };
    const rules = await injectFault({
      count: 1,
      body: scripted,
      match: { path: "/sandbox/cart_updates" },
    });
    expect(rules).toEqual([
      {
        remaining: 1,
        status: null,
        delay_ms: 0,
        body: scripted,
        match: { path: "/sandbox/cart_updates" },
      },
    ]);
    const cart = cartUpdate([lineItem("52011", PRODUCTS.laptop, 1)]);
    const faked = await client.call("cart_updates", { body: cart });
    expect(faked.status).toBe(200);
    expect(faked.body).toEqual(scripted);
    // Not recorded as a cart of the environment: the service never saw it.
    expect((await client.state("sandbox")).carts).toEqual([]);
    const real = await client.call<{ actions: unknown[] }>("cart_updates", { body: cart });
    expect(real.body.actions).toEqual([]);

    await injectFault({ count: 1, status: 422, body: { error: "scripted" } });
    const failed = await client.call("plans", { query: laptopQuery });
    expect(failed.status).toBe(422);
    expect(failed.body).toEqual({ error: "scripted" });
  });

  it("refuses a fault request it cannot follow", async () => {
    const answer = await client.control<ErrorBody>("faults", { body: { count: 0, status: 200 } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.validation_errors.map((entry) => entry.field)).toEqual([
      "count",
      "status",
    ]);
  });
});

describe("GET /__emulator/state", () => {
  it("requires the environment", async () => {
    const answer = await client.control<ErrorBody>("state");
    expect(answer.status).toBe(400);
    expect(answer.body.error.validation_errors).toEqual([
      { field: "query.environment", message: "is required" },
    ]);
  });

  it("shows orders, checkout confirmations and checkout links of one environment", async () => {
    await client.placeOrder(orderPlacedPayload());
    const checkout = await client.call<{ redirect_link: string }>("checkouts", {
      query: { order_id: "5558016491833", checkout_type: "redirect" },
    });
    const state = await client.state("sandbox");
    expect(state.environment).toBe("sandbox");
    expect(state.orders.map((order) => order.order_id)).toEqual(["5558016491833"]);
    expect(state.checkout_links).toEqual([
      {
        order_id: "5558016491833",
        checkout_type: "redirect",
        token: expect.any(String),
        link: checkout.body.redirect_link,
      },
    ]);
  });
});
