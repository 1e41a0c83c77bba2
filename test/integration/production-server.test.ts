import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { appProxyRequest } from "../support/app-proxy";
import { withOutboxApp } from "../support/outbox-app";
import { startProductionServer, type RunningServer } from "../support/production-server";
import { connectShop } from "../support/shops";
import { TEST_API_SECRET } from "../support/test-env";

// `npm start` as production runs it: the built app behind server/serve.ts, with order webhooks
// answered before Express and Remix (decision 009), real HTTP, and the embedded worker.

const SHOP = "server-store.myshopify.com";
const app = withOutboxApp();

function startServer(env: Record<string, string>): Promise<RunningServer> {
  return startProductionServer({ LOG_LEVEL: "debug", ...env });
}

let nextOrderId = 9_500_000;

function orderDelivery(secret = TEST_API_SECRET) {
  const body = app.webhooks
    .readLifecycleFixture("orders-create.json")
    .replace(/"id":\s*\d+/, `"id": ${nextOrderId++}`);
  return {
    body,
    headers: shopifyWebhookHeaders({ topic: "orders/create", shop: SHOP, body, secret }),
  };
}

function post(server: RunningServer, delivery: ReturnType<typeof orderDelivery>) {
  return fetch(`${server.url}/webhooks/orders/create`, {
    method: "POST",
    body: delivery.body,
    headers: delivery.headers,
  });
}

describe("the production server", () => {
  let server: RunningServer;

  beforeAll(async () => {
    await connectShop(app.prisma, SHOP);
    server = await startServer({ SVC_OUTBOX_WORKER: "embedded" });
  }, 60_000);

  afterAll(async () => {
    if (!server) return;
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain("Stopping: no new requests");
  });

  beforeEach(async () => {
    await app.control.reset();
  });

  it("serves Remix routes through Express", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    // A GET on a webhook path is not a delivery: Remix answers it, and nothing is stored.
    const get = await fetch(`${server.url}/webhooks/orders/create`);
    expect(get.status).not.toBe(200);
  });

  it("answers the storefront's signed app proxy calls with JSON", async () => {
    const requestId = `proxy-${randomUUID()}`;
    const request = appProxyRequest({
      path: "plans",
      shop: SHOP,
      query: {
        variant_id: "7982301839417",
        price: "19900",
        currency: "EUR",
        user_session_id: randomUUID(),
        product_title: "Aurora 14 Laptop",
        product_brand: "Nimbus",
      },
    });
    const answer = await fetch(
      `${server.url}${new URL(request.url).pathname}${new URL(request.url).search}`,
      { headers: { "X-Request-Id": requestId } },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await answer.json()) as { plans: unknown[] };
    expect(body.plans.length).toBeGreaterThan(0);
    // The HTTP line names the shop that signed the proxy call, and not the query's customer.
    const line = await logLine(server, (entry) => entry.requestId === requestId);
    expect(line).toMatchObject({
      shop: SHOP,
      method: "GET",
      path: "/proxy/plans",
      statusCode: 200,
    });
    expect(JSON.stringify(line)).not.toContain("user_session_id");
  });

  it("logs a webhook's path with its request ID, shop, topic and webhook ID, and the send with its event ID", async () => {
    const delivery = orderDelivery();
    const orderId = String(nextOrderId - 1);
    const webhookId = delivery.headers["X-Shopify-Webhook-Id"];
    const requestId = `req-${randomUUID()}`;
    const answer = await fetch(`${server.url}/webhooks/orders/create`, {
      method: "POST",
      body: delivery.body,
      headers: { ...delivery.headers, "X-Request-Id": requestId },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-request-id")).toBe(requestId);
    const receipt = await app.prisma.webhookReceipt.findFirstOrThrow({ where: { orderId } });
    const http = await logLine(
      server,
      (entry) => entry.requestId === requestId && "statusCode" in entry,
    );
    expect(http).toMatchObject({
      shop: SHOP,
      topic: "orders/create",
      webhookId,
      method: "POST",
      path: "/webhooks/orders/create",
      statusCode: 200,
    });
    const recorded = await logLine(
      server,
      (entry) => entry.msg === "Webhook recorded" && entry.webhookId === webhookId,
    );
    expect(recorded).toMatchObject({
      requestId,
      shop: SHOP,
      topic: "orders/create",
      receiptId: receipt.id,
    });
    const group = await logLine(
      server,
      (entry) =>
        entry.msg === "New orders committed as one group" &&
        (entry.webhookIds as string[]).includes(webhookId!),
    );
    expect(group.level).toBe(20);
    // The worker's send: the outbox event's ID, and the webhook it came from.
    const event = await app.prisma.outboxEvent.findFirstOrThrow({ where: { orderId } });
    const sent = await logLine(
      server,
      (entry) => entry.msg === "Event delivered" && entry.eventId === event.id,
    );
    expect(sent).toMatchObject({ shop: SHOP, orderId, webhookId, receiptId: receipt.id });
  });

  it("gives a request without a well-formed X-Request-Id one of its own", async () => {
    const answer = await fetch(`${server.url}/webhooks/orders/create`, {
      headers: { "X-Request-Id": "not a request id; it has spaces" },
    });
    const requestId = answer.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await logLine(server, (entry) => entry.requestId === requestId)).toMatchObject({
      method: "GET",
      path: "/webhooks/orders/create",
    });
  });

  it("leaves no log line for the health probes", async () => {
    const before = server.output().length;
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    // A request that is logged, after the probes: once its line is out, theirs would be too.
    const marker = `after-probes-${randomUUID()}`;
    await fetch(`${server.url}/webhooks/orders/create`, { headers: { "X-Request-Id": marker } });
    await logLine(server, (entry) => entry.requestId === marker);
    expect(server.output().slice(before)).not.toMatch(/healthz|readyz/);
  });

  it("takes a signed orders/create over HTTP and the embedded worker delivers it", async () => {
    const delivery = orderDelivery();
    const orderId = String(nextOrderId - 1);
    const answer = await post(server, delivery);
    expect(answer.status).toBe(200);
    const receipt = await app.prisma.webhookReceipt.findFirstOrThrow({ where: { orderId } });
    expect(receipt.webhookId).toBe(delivery.headers["X-Shopify-Webhook-Id"]);
    await expect
      .poll(
        async () => {
          const state = await app.control.state("sandbox");
          return state.orders.find((order) => order.order_id === orderId)?.placement_count;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(1);
  });

  it("refuses a forged delivery with 401 and stores nothing", async () => {
    const before = await app.prisma.webhookReceipt.count();
    const answer = await post(server, orderDelivery("a-forger's-secret"));
    expect(answer.status).toBe(401);
    expect(await app.prisma.webhookReceipt.count()).toBe(before);
  });

  it("stores a burst of deliveries that arrive together, each once", async () => {
    const groupLines = () => server.output().split("New orders committed as one group").length - 1;
    const groupsBefore = groupLines();
    const receiptsBefore = await app.prisma.webhookReceipt.count();
    const deliveries = Array.from({ length: 60 }, () => orderDelivery());

    const statuses = await sendAtOnce(server, deliveries);

    expect(statuses).toEqual(deliveries.map(() => 200));
    expect(await app.prisma.webhookReceipt.count()).toBe(receiptsBefore + 60);
    // How many share a transaction depends on how the reads interleave; group-commit.test.ts
    // pins the grouping down, and npm run bench:webhooks measures what it is worth.
    expect(groupLines()).toBeGreaterThan(groupsBefore);
  });
});

type LogEntry = Record<string, unknown>;

/** The first JSON line of the server's output that `matches`, waiting up to 10 s for it. */
async function logLine(server: RunningServer, matches: (entry: LogEntry) => boolean) {
  let found: LogEntry | undefined;
  await expect
    .poll(
      () => {
        found = server
          .output()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as LogEntry)
          .find(matches);
        return found !== undefined;
      },
      { timeout: 10_000, interval: 50 },
    )
    .toBe(true);
  return found!;
}

/**
 * Opens one connection per delivery, then writes every request in the same tick, so that they
 * reach the server together, as a burst of Shopify deliveries does. Answers the status codes.
 */
async function sendAtOnce(
  server: RunningServer,
  deliveries: ReturnType<typeof orderDelivery>[],
): Promise<number[]> {
  const { port } = new URL(server.url);
  const sockets = await Promise.all(
    deliveries.map(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(Number(port), "127.0.0.1", () => resolve(socket));
          socket.once("error", reject);
        }),
    ),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<number>((resolve, reject) => {
        let text = "";
        socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
        socket.once("error", reject);
        socket.once("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
      }),
  );
  deliveries.forEach((delivery, index) => {
    const head = [
      "POST /webhooks/orders/create HTTP/1.1",
      "Host: 127.0.0.1",
      "Connection: close",
      `Content-Length: ${Buffer.byteLength(delivery.body)}`,
      ...Object.entries(delivery.headers).map(([name, value]) => `${name}: ${value}`),
    ].join("\r\n");
    sockets[index]!.write(`${head}\r\n\r\n${delivery.body}`);
  });
  return Promise.all(answers);
}
