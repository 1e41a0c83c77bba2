import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { appProxyRequest } from "../support/app-proxy";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import {
  askToSend,
  sendRaw,
  startProductionServer,
  type RawExchange,
  type RunningServer,
} from "../support/production-server";
import { TEST_API_SECRET } from "../support/test-env";
import { readShopifyFixture } from "../support/webhooks";

// The public edge of the production server (issue 13, defects 1 and 7, decision 016; issue 27,
// defect 1, decision 041): hostile and oversized requests over real HTTP to what `npm start`
// runs. Each is answered within a second, before its body is read where it is too large, idle
// and slow senders hold no budget, and /healthz and signed webhooks stay fast meanwhile.
// Limits per address: each test that needs one sends from its own 127.0.0.x.

const SHOP = "edge-server.myshopify.com";
const BUDGET_BYTES = 400_000;
const RESERVE_BYTES = 100_000;
const app = withOutboxApp();
let server: RunningServer;

beforeAll(async () => {
  await connectShop(app.prisma, SHOP);
  server = await startProductionServer({
    SVC_BODY_BUDGET_BYTES: String(BUDGET_BYTES),
    SVC_WEBHOOK_BODY_RESERVE_BYTES: String(RESERVE_BYTES),
    SVC_BODY_RATE_WINDOW_MS: "1000",
    SVC_HTTP_HEADERS_TIMEOUT_MS: "1000",
  });
}, 60_000);

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

let nextOrderId = 27_100_000;

/** A correctly signed orders/create of a new order, as Shopify sends it. */
function signedOrder(): { body: string; headers: Record<string, string> } {
  const body = app.webhooks
    .readLifecycleFixture("orders-create.json")
    .replace(/"id":\s*\d+/, `"id": ${nextOrderId++}`);
  return {
    body,
    headers: shopifyWebhookHeaders({
      topic: "orders/create",
      shop: SHOP,
      body,
      secret: TEST_API_SECRET,
    }),
  };
}

async function postSignedOrder(target: RunningServer): Promise<{ status: number; ms: number }> {
  const delivery = signedOrder();
  const started = performance.now();
  const answer = await fetch(`${target.url}/webhooks/orders/create`, {
    method: "POST",
    body: delivery.body,
    headers: delivery.headers,
  });
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - started };
}

async function postCartUpdate(target: RunningServer): Promise<number> {
  const body = JSON.stringify({ user_session_id: randomUUID(), cart_token: "c1", items: [] });
  const signed = new URL(
    appProxyRequest({ path: "cart_updates", shop: SHOP, method: "POST", body }).url,
  );
  const answer = await fetch(`${target.url}${signed.pathname}${signed.search}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** Whether each exchange has been answered or closed, as of the moment the flags are read. */
function answeredFlags(exchanges: RawExchange[]): boolean[] {
  const flags = exchanges.map(() => false);
  exchanges.forEach((exchange, index) => {
    void exchange.answered.then(() => (flags[index] = true));
  });
  return flags;
}

function post(path: string, contentLength: number, extra: string[] = []): string[] {
  return [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${contentLength}`,
    ...extra,
  ];
}

async function healthzMs(): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${server.url}/healthz`);
  expect(answer.status).toBe(200);
  return performance.now() - started;
}

describe("the production server's public edge", () => {
  it.each([
    ["an order webhook", "/webhooks/orders/create", 9 * 2 ** 20],
    ["a compliance webhook", "/webhooks/customers/redact", 30 * 2 ** 20],
    ["a lifecycle webhook", "/webhooks/app/uninstalled", 2 * 2 ** 20],
    ["the login form", "/auth/login", 100_000],
    ["the app proxy", "/proxy/cart_updates", 300_000],
  ])(
    "answers 413 to %s declaring too large a body, before reading it",
    async (_name, path, size) => {
      const { socket, answered } = await sendRaw(server.port, post(path, size));
      const answer = await answered;
      socket.destroy();
      expect(answer.status).toBe(413);
      expect(answer.elapsedMs).toBeLessThan(1000);
    },
  );

  it("answers 411 to a chunked body, whose size is not known before reading it", async () => {
    const head = [
      "POST /webhooks/customers/redact HTTP/1.1",
      "Host: 127.0.0.1",
      "Transfer-Encoding: chunked",
    ];
    const { socket, answered } = await sendRaw(server.port, head, "5\r\nhello\r\n");
    const answer = await answered;
    socket.destroy();
    expect(answer.status).toBe(411);
  });

  it("answers 250 KB of unclosed quoted quotes to the app proxy with 400 within a second, /healthz meanwhile", async () => {
    const signed = new URL(
      appProxyRequest({ path: "cart_updates", shop: SHOP, method: "POST", body: "" }).url,
    );
    const body = '{"user_session_id": "' + '\\"'.repeat(120_000);
    const started = performance.now();
    const cart = fetch(`${server.url}${signed.pathname}${signed.search}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    const health = await Promise.all([healthzMs(), healthzMs(), healthzMs()]);
    const answer = await cart;
    expect(answer.status).toBe(400);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(Math.max(...health)).toBeLessThan(1000);
  });

  it("counts the bytes that arrived against one budget, cuts off a sender below the minimum rate with 408, and frees its bytes", async () => {
    // Whether the server would take a 100 KB body now: it answers before the body is sent.
    const wouldAdmit = async () => {
      const probe = await askToSend(server.port, post("/webhooks/customers/redact", 100_000));
      probe.socket.destroy();
      if (probe.decision !== 100) {
        expect(probe.decision).toBe(503);
        expect((await probe.rest).text).toMatch(/Retry-After: 5/i);
      }
      return probe.decision === 100;
    };
    // A sender declares 290 KB, sends 250 KB at once, then a byte every 200 ms: below 16 KiB/s.
    // The general part of the budget (300 KB) keeps only 50 KB free while it holds them.
    const trickler = await sendRaw(
      server.port,
      post("/webhooks/customers/redact", 290_000),
      "x".repeat(250_000),
      true,
      { localAddress: "127.0.0.3" },
    );
    const drip = setInterval(() => trickler.socket.write("x"), 200);
    try {
      await expect.poll(wouldAdmit, { timeout: 5_000, interval: 50 }).toBe(false);
      expect(await healthzMs()).toBeLessThan(1000);
      // Cut off after a window or two, long before the 30 s request time-out.
      const cut = await trickler.answered;
      expect(cut.status).toBe(408);
      expect(cut.elapsedMs).toBeLessThan(4_000);
      // Its 250 KB are free again.
      await expect.poll(wouldAdmit, { timeout: 2_000, interval: 50 }).toBe(true);
    } finally {
      clearInterval(drip);
      trickler.socket.destroy();
    }
  });

  it("hands Remix each body exactly as it arrived: a compliance webhook sent in pieces passes the HMAC check", async () => {
    const body = readShopifyFixture("customers_redact", "shopify-docs-2026-04_gadget.json").replace(
      "{shop}.myshopify.com",
      SHOP,
    );
    const headers = shopifyWebhookHeaders({
      topic: "customers/redact",
      shop: SHOP,
      body,
      secret: TEST_API_SECRET,
    });
    const bytes = Buffer.from(body);
    const third = Math.ceil(bytes.length / 3);
    const exchange = await sendRaw(
      server.port,
      [
        ...post("/webhooks/customers/redact", bytes.length, ["Connection: close"]),
        ...Object.entries(headers)
          .filter(([name]) => name !== "Content-Type")
          .map(([name, value]) => `${name}: ${value}`),
      ],
      bytes.subarray(0, third),
    );
    for (const start of [third, 2 * third]) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      exchange.socket.write(bytes.subarray(start, start + third));
    }
    const answer = await exchange.answered;
    exchange.socket.destroy();
    expect(answer.status).toBe(200);
  });

  it("closes a connection whose headers or body arrive too slowly", async () => {
    const slowHeaders = await sendRaw(
      server.port,
      ["GET /healthz HTTP/1.1", "Host: 127.0.0.1"],
      "",
      false,
    );
    const slowBody = await sendRaw(
      server.port,
      post("/webhooks/customers/redact", 1000, [`X-Request-Id: ${randomUUID()}`]),
      "{",
    );
    const [headers, body] = await Promise.all([slowHeaders.answered, slowBody.answered]);
    // Node answers 408 (or just closes) once the deadline and its one-second check have passed.
    expect(headers.elapsedMs).toBeLessThan(4000);
    expect(body.elapsedMs).toBeLessThan(5000);
    expect([0, 408]).toContain(headers.status);
    expect([0, 408]).toContain(body.status);
    expect(await healthzMs()).toBeLessThan(1000);
  });
});

describe("six connections that declare 8 MiB bodies and send nothing (issue 27, defect 1)", () => {
  // The default limits, as `npm start` runs.
  let defaults: RunningServer;

  beforeAll(async () => {
    defaults = await startProductionServer({});
  }, 60_000);

  afterAll(async () => {
    if (defaults) expect(await defaults.stop()).toBe(0);
  });

  it("leave a signed orders/create answered 200 within a second, and the app proxy open", async () => {
    const idle = await Promise.all(
      Array.from({ length: 6 }, () =>
        sendRaw(defaults.port, post("/webhooks/orders/create", 8 * 2 ** 20), "", true, {
          localAddress: "127.0.0.2",
        }),
      ),
    );
    const answered = answeredFlags(idle);
    try {
      // The six were written first: once the server has decided on a later request, it has
      // read their headers too (on loopback a write is in the server's buffer at once).
      const barrier = await askToSend(defaults.port, post("/webhooks/customers/redact", 2));
      barrier.socket.destroy();

      const order = await postSignedOrder(defaults);
      expect(order.status).toBe(200);
      expect(order.ms).toBeLessThan(1_000);
      expect(await postCartUpdate(defaults)).not.toBe(503);
      // The six were still there meanwhile.
      expect(answered).toEqual(idle.map(() => false));

      // Idle past the rate window after their headers (5 s): cut off with 408, not held 30 s.
      const cut = await Promise.all(idle.map((exchange) => exchange.answered));
      for (const answer of cut) {
        expect(answer.status).toBe(408);
        expect(answer.elapsedMs).toBeLessThan(8_000);
      }
    } finally {
      for (const exchange of idle) exchange.socket.destroy();
    }
  });

  it("keeps a reserve for Shopify's deliveries: with the rest of the budget held, a signed orders/create is still taken", async () => {
    // Four senders from one address bring 8 MiB each but the last byte: 32 MiB, the whole of
    // the budget outside the 16 MiB reserve.
    const almost = Buffer.alloc(8 * 2 ** 20 - 1, 0x20);
    const fillers = await Promise.all(
      Array.from({ length: 4 }, () =>
        sendRaw(defaults.port, post("/webhooks/orders/create", 8 * 2 ** 20), almost, true, {
          localAddress: "127.0.0.6",
        }),
      ),
    );
    const answered = answeredFlags(fillers);
    try {
      // Until an unauthenticated body of 64 KiB finds no room.
      await expect
        .poll(
          async () => {
            const probe = await askToSend(
              defaults.port,
              post("/webhooks/customers/redact", 65_536),
              { localAddress: "127.0.0.7" },
            );
            probe.socket.destroy();
            return probe.decision;
          },
          { timeout: 5_000, interval: 50 },
        )
        .toBe(503);
      const order = await postSignedOrder(defaults);
      expect(order.status).toBe(200);
      expect(order.ms).toBeLessThan(1_000);
      expect(answered).toEqual(fillers.map(() => false));
    } finally {
      for (const filler of fillers) filler.socket.destroy();
    }
  });

  it("lets one address send only SVC_BODIES_PER_SOURCE unauthenticated bodies at once (429 with Retry-After)", async () => {
    const from = { localAddress: "127.0.0.4" };
    const held = [];
    for (let index = 0; index < 8; index += 1) {
      const asked = await askToSend(defaults.port, post("/proxy/cart_updates", 1_000), from);
      held.push(asked);
      expect(asked.decision).toBe(100);
    }
    try {
      const ninth = await askToSend(defaults.port, post("/proxy/cart_updates", 1_000), from);
      expect(ninth.decision).toBe(429);
      expect((await ninth.rest).text).toMatch(/Retry-After: 5/i);
      // Another address is not limited by this one's bodies.
      const other = await askToSend(defaults.port, post("/proxy/cart_updates", 1_000), {
        localAddress: "127.0.0.5",
      });
      other.socket.destroy();
      expect(other.decision).toBe(100);
      // One body completes: its address may start another.
      held[0]!.socket.write("x".repeat(1_000));
      await expect
        .poll(
          async () => {
            const next = await askToSend(defaults.port, post("/proxy/cart_updates", 1_000), from);
            next.socket.destroy();
            return next.decision;
          },
          { timeout: 2_000, interval: 50 },
        )
        .toBe(100);
    } finally {
      for (const asked of held) asked.socket.destroy();
    }
  });
});

describe("behind a proxy of ours (SVC_TRUSTED_PROXY_COUNT=1)", () => {
  let proxied: RunningServer;

  beforeAll(async () => {
    proxied = await startProductionServer({ SVC_TRUSTED_PROXY_COUNT: "1" });
  }, 60_000);

  afterAll(async () => {
    if (proxied) expect(await proxied.stop()).toBe(0);
  });

  it("limits each client the proxy forwarded, not the proxy's own address, and ignores entries the client wrote", async () => {
    // Every connection comes from the proxy's one address, as behind a load balancer.
    const viaProxy = { localAddress: "127.0.0.8" };
    const forwardedFor = (entries: string) =>
      post("/proxy/cart_updates", 1_000, [`X-Forwarded-For: ${entries}`]);
    const held = [];
    try {
      for (let index = 0; index < 8; index += 1) {
        // The client writes an entry of its own each time; the proxy appends the true address.
        const asked = await askToSend(
          proxied.port,
          forwardedFor(`203.0.113.${index}, 198.51.100.1`),
          viaProxy,
        );
        held.push(asked);
        expect(asked.decision).toBe(100);
      }
      const ninth = await askToSend(
        proxied.port,
        forwardedFor("203.0.113.99, 198.51.100.1"),
        viaProxy,
      );
      ninth.socket.destroy();
      expect(ninth.decision).toBe(429);
      // Another client behind the same proxy is not limited by the first one's bodies.
      const other = await askToSend(proxied.port, forwardedFor("198.51.100.2"), viaProxy);
      other.socket.destroy();
      expect(other.decision).toBe(100);
    } finally {
      for (const asked of held) asked.socket.destroy();
    }
  });
});
