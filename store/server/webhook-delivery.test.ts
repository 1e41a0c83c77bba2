import { getHmac } from "@shopify/shopify-api/test-helpers";
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  API_SECRET,
  SCOPES,
  SHOP,
  startFakeApp,
  withTestStore,
  type FakeApp,
  type ReceivedRequest,
} from "./test-support";
import { startStore } from "./server";
import type { DeliveryAttempt } from "./webhook-delivery";

const RETRY_DELAYS_MS = [50, 100];
const TIMEOUT_MS = 300;
const client = withTestStore({ retryDelaysMs: RETRY_DELAYS_MS, deliveryTimeoutMs: TIMEOUT_MS });
let app: FakeApp;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  app = await startFakeApp();
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  app.received.length = 0;
  app.handle = (_request, response) => {
    response.writeHead(200).end();
  };
  await client.createShop(app.url);
  client.store.state.install(SHOP, SCOPES);
});

async function createOrder(): Promise<{ admin_graphql_api_id: string; line_items: unknown[] }> {
  const answer = await client.control<{ admin_graphql_api_id: string; line_items: unknown[] }>(
    `shops/${SHOP}/orders`,
    { line_items: [{ title: "Walnut side table", price: "149.00", quantity: 1 }] },
  );
  expect(answer.status).toBe(201);
  return answer.body;
}

async function waitUntilIdle(): Promise<void> {
  const answer = await client.control<{ idle: boolean }>("webhooks/idle?timeout_ms=5000");
  expect(answer.status).toBe(200);
  expect(answer.body.idle).toBe(true);
}

async function deliveries(): Promise<DeliveryAttempt[]> {
  return (await client.control<{ deliveries: DeliveryAttempt[] }>("webhooks")).body.deliveries;
}

function header(request: ReceivedRequest | undefined, name: string): string | undefined {
  const value = request?.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

describe("webhook delivery", () => {
  it("posts a subscribed topic to the app, signed with its secret, with Shopify's headers", async () => {
    const order = await createOrder();
    await waitUntilIdle();

    // orders/paid fires too, but the app does not subscribe to it.
    expect(app.received.map((request) => request.url)).toEqual(["/webhooks/orders/create"]);
    const [delivered] = app.received;
    expect(delivered?.method).toBe("POST");
    expect(header(delivered, "x-shopify-hmac-sha256")).toBe(
      getHmac(delivered?.body ?? "", API_SECRET),
    );
    expect(header(delivered, "x-shopify-hmac-sha256")).not.toBe(
      getHmac(delivered?.body ?? "", "another-secret"),
    );
    expect(header(delivered, "x-shopify-topic")).toBe("orders/create");
    expect(header(delivered, "x-shopify-shop-domain")).toBe(SHOP);
    expect(header(delivered, "x-shopify-api-version")).toBe("2026-10");
    expect(header(delivered, "x-shopify-webhook-id")).toMatch(UUID);
    expect(header(delivered, "x-shopify-event-id")).toMatch(UUID);
    expect(Date.parse(header(delivered, "x-shopify-triggered-at") ?? "")).not.toBeNaN();
    expect(header(delivered, "content-type")).toBe("application/json");
    expect(header(delivered, "user-agent")).toBe("Shopify-Captain-Hook");
    expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({
      admin_graphql_api_id: order.admin_graphql_api_id,
    });

    expect(await deliveries()).toEqual([
      expect.objectContaining({
        shop: SHOP,
        topic: "orders/create",
        webhook_id: header(delivered, "x-shopify-webhook-id"),
        event_id: header(delivered, "x-shopify-event-id"),
        subject: order.admin_graphql_api_id,
        url: `${app.url}/webhooks/orders/create`,
        attempt: 1,
        outcome: "delivered",
        status: 200,
        error: null,
        next_attempt_at: null,
      }),
    ]);
  });

  it("gives every topic of one action the same event ID and its own webhook ID", async () => {
    const order = await createOrder();
    await waitUntilIdle();
    const cancelled = await client.control(
      `shops/${SHOP}/orders/${encodeURIComponent(order.admin_graphql_api_id)}/cancel`,
      { reason: "customer", refund: true },
    );
    expect(cancelled.status).toBe(200);
    await waitUntilIdle();

    const byTopic = new Map(
      app.received.map((request) => [header(request, "x-shopify-topic"), request]),
    );
    expect([...byTopic.keys()].sort()).toEqual([
      "orders/cancelled",
      "orders/create",
      "refunds/create",
    ]);
    const refund = byTopic.get("refunds/create");
    const cancel = byTopic.get("orders/cancelled");
    expect(header(refund, "x-shopify-event-id")).toBe(header(cancel, "x-shopify-event-id"));
    expect(header(refund, "x-shopify-triggered-at")).toBe(header(cancel, "x-shopify-triggered-at"));
    expect(header(refund, "x-shopify-webhook-id")).not.toBe(header(cancel, "x-shopify-webhook-id"));
    expect(header(byTopic.get("orders/create"), "x-shopify-event-id")).not.toBe(
      header(cancel, "x-shopify-event-id"),
    );
  });

  it("retries a non-2xx answer with the same body, webhook ID, event ID and signature", async () => {
    let answered = 0;
    app.handle = (_request, response) => {
      answered += 1;
      response.writeHead(answered === 1 ? 500 : 200).end();
    };
    await createOrder();
    await waitUntilIdle();

    expect(app.received).toHaveLength(2);
    const [first, retry] = app.received;
    expect(retry?.body).toBe(first?.body);
    for (const name of [
      "x-shopify-webhook-id",
      "x-shopify-event-id",
      "x-shopify-hmac-sha256",
      "x-shopify-triggered-at",
      "x-shopify-topic",
    ])
      expect(header(retry, name)).toBe(header(first, name));

    const attempts = await deliveries();
    expect(attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.status])).toEqual([
      [1, "failed", 500],
      [2, "delivered", 200],
    ]);
    expect(attempts[0]?.error).toBe("the app answered 500");
    expect(attempts[0]?.next_attempt_at).not.toBeNull();
    expect(attempts[1]?.webhook_id).toBe(attempts[0]?.webhook_id);
  });

  it("retries when the app does not answer within the time-out", async () => {
    const hanging: ServerResponse[] = [];
    app.handle = (_request, response) => {
      if (hanging.length === 0) hanging.push(response);
      else response.writeHead(200).end();
    };
    await createOrder();
    await waitUntilIdle();

    const attempts = await deliveries();
    expect(attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.status])).toEqual([
      [1, "failed", null],
      [2, "delivered", 200],
    ]);
    expect(attempts[0]?.error).toBe(`no answer within ${TIMEOUT_MS} ms`);
    expect(attempts[0]?.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(app.received[1]?.body).toBe(app.received[0]?.body);
    expect(header(app.received[1], "x-shopify-webhook-id")).toBe(
      header(app.received[0], "x-shopify-webhook-id"),
    );
    for (const response of hanging) response.destroy();
  });

  it("stops after the last retry", async () => {
    app.handle = (_request, response) => {
      response.writeHead(503).end();
    };
    await createOrder();
    await waitUntilIdle();

    const attempts = await deliveries();
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
    ]);
    expect(attempts.map((attempt) => attempt.next_attempt_at === null)).toEqual([
      false,
      false,
      true,
    ]);
    expect(app.received).toHaveLength(1 + RETRY_DELAYS_MS.length);
  });

  it("drops the next matching deliveries, as lost webhooks, and logs them", async () => {
    const drop = await client.control("webhooks/drop", { count: 1, topic: "orders/create" });
    expect(drop.status).toBe(200);
    expect(drop.body).toEqual({ drops: [{ remaining: 1, topic: "orders/create" }] });

    const lost = await createOrder();
    const kept = await createOrder();
    await waitUntilIdle();

    expect(app.received.map((request) => JSON.parse(request.body).admin_graphql_api_id)).toEqual([
      kept.admin_graphql_api_id,
    ]);
    const attempts = await deliveries();
    expect(attempts.map((attempt) => [attempt.subject, attempt.outcome])).toEqual([
      [lost.admin_graphql_api_id, "dropped"],
      [kept.admin_graphql_api_id, "delivered"],
    ]);
    expect((await client.control<{ drops: unknown[] }>("webhooks")).body.drops).toEqual([]);
  });

  it("answers idle only once nothing waits or is in flight, and 408 on its time-out", async () => {
    const hanging: ServerResponse[] = [];
    app.handle = (_request, response) => {
      hanging.push(response);
    };
    await createOrder();
    const busy = await client.control<{ idle: boolean; in_flight: number; pending: number }>(
      "webhooks/idle?timeout_ms=50",
    );
    expect(busy.status).toBe(408);
    expect(busy.body.idle).toBe(false);
    expect(busy.body.in_flight + busy.body.pending).toBe(1);

    app.handle = (_request, response) => {
      response.writeHead(200).end();
    };
    await waitUntilIdle();
    expect((await deliveries()).at(-1)?.outcome).toBe("delivered");
    for (const response of hanging) response.destroy();

    const badQuery = await client.control("webhooks/idle?timeout_ms=soon");
    expect(badQuery.status).toBe(400);
    expect(badQuery.body).toMatchObject({
      problems: [{ field: "timeout_ms", message: "must be a whole number of milliseconds" }],
    });
  });

  it("delivers nothing to a shop without the app, and app/uninstalled after the removal", async () => {
    const uninstalled = await client.control(`shops/${SHOP}/uninstall`, {});
    expect(uninstalled.status).toBe(200);
    await createOrder();
    await waitUntilIdle();

    expect(app.received.map((request) => request.url)).toEqual(["/webhooks/app/uninstalled"]);
    expect(JSON.parse(app.received[0]?.body ?? "{}")).toMatchObject({ domain: SHOP });
  });

  /** Ada's order, and her customer ID as the order's body carries it. */
  async function customerId(): Promise<string> {
    const answer = await client.control<{ customer: { admin_graphql_api_id: string } }>(
      `shops/${SHOP}/orders`,
      {
        line_items: [{ title: "Lamp", price: "20.00", quantity: 1 }],
        customer: { email: "ada@example.com" },
      },
    );
    expect(answer.status).toBe(201);
    return answer.body.customer.admin_graphql_api_id.replace(/^gid:\/\/shopify\/Customer\//, "");
  }

  async function uninstall(): Promise<void> {
    expect((await client.control(`shops/${SHOP}/uninstall`, {})).status).toBe(200);
  }

  const PRIVACY_AND_SCOPES: [topic: string, act: () => Promise<unknown>][] = [
    [
      "customers/data_request",
      async () => client.control(`shops/${SHOP}/customers/${await customerId()}/data_request`, {}),
    ],
    [
      // After the uninstall, as Shopify sends a customer's redaction to an app that had it.
      "customers/redact",
      async () => {
        const id = await customerId();
        await uninstall();
        return client.control(`shops/${SHOP}/customers/${id}/redact`, {});
      },
    ],
    [
      "shop/redact",
      async () => {
        await uninstall();
        return client.control(`shops/${SHOP}/redact`, {});
      },
    ],
    [
      "app/scopes_update",
      () => client.control(`shops/${SHOP}/scopes`, { scopes: [...SCOPES, "write_publications"] }),
    ],
  ];

  it.each(PRIVACY_AND_SCOPES)(
    "posts %s, signed, to its subscription's URI in shopify.app.toml",
    async (topic, act) => {
      const answer = (await act()) as { status: number; text: string };
      expect(answer.status, answer.text).toBe(200);
      await waitUntilIdle();

      const delivered = app.received.find(
        (request) => header(request, "x-shopify-topic") === topic,
      );
      expect(delivered?.url).toBe(`/webhooks/${topic}`);
      expect(header(delivered, "x-shopify-hmac-sha256")).toBe(
        getHmac(delivered?.body ?? "", API_SECRET),
      );
      expect(header(delivered, "x-shopify-shop-domain")).toBe(SHOP);
      expect(header(delivered, "x-shopify-webhook-id")).toMatch(UUID);
      // The control call answers the body the app was sent.
      expect(delivered?.body).toBe(answer.text);
      expect((await deliveries()).find((attempt) => attempt.topic === topic)).toMatchObject({
        url: `${app.url}/webhooks/${topic}`,
        outcome: "delivered",
      });
    },
  );

  it("forgets waiting retries and abandons deliveries in flight on reset", async () => {
    const store = await startStore({ port: 0, retryDelaysMs: [60_000] });
    const control = (path: string, body?: unknown) =>
      fetch(`${store.url}/__store/${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const webhooks = async () =>
      (await (await control("webhooks")).json()) as { deliveries: unknown[]; pending: number };
    try {
      app.handle = (_request, response) => {
        response.writeHead(500).end();
      };
      await control("shops", { shop: SHOP, app_url: app.url, api_key: "k", api_secret: "s" });
      store.state.install(SHOP, SCOPES);
      await control(`shops/${SHOP}/orders`, {
        line_items: [{ title: "Lamp", price: "20.00", quantity: 1 }],
      });
      await expect.poll(async () => (await webhooks()).deliveries.length).toBe(1);
      expect((await webhooks()).pending).toBe(1);

      expect((await control("reset", {})).status).toBe(204);

      expect(await webhooks()).toMatchObject({ deliveries: [], pending: 0 });
      expect((await control("webhooks/idle?timeout_ms=1")).status).toBe(200);
    } finally {
      await store.close();
    }
  });

  it("checks the drop request", async () => {
    const answer = await client.control("webhooks/drop", { count: 0, topics: "orders/create" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: "invalid_request",
      problems: [
        { field: "count", message: "must be at least 1" },
        { field: "topics", message: "is not a known field" },
      ],
    });
  });
});
