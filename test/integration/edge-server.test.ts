import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appProxyRequest } from "../support/app-proxy";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { sendRaw, startProductionServer, type RunningServer } from "../support/production-server";

// The public edge of the production server (issue 13, defects 1 and 7; decision 016): hostile
// and oversized requests over real HTTP to what `npm start` runs. Each is answered within a
// second, before its body is read where it is too large, and /healthz stays fast meanwhile.

const SHOP = "edge-server.myshopify.com";
const BUDGET_BYTES = 400_000;
const app = withOutboxApp();
let server: RunningServer;

beforeAll(async () => {
  await connectShop(app.prisma, SHOP);
  server = await startProductionServer({
    SVC_BODY_BUDGET_BYTES: String(BUDGET_BYTES),
    SVC_HTTP_HEADERS_TIMEOUT_MS: "1000",
    SVC_HTTP_REQUEST_TIMEOUT_MS: "2000",
  });
}, 60_000);

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

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

  it("holds all bodies in flight to one byte budget: 503 with Retry-After when it is spent", async () => {
    // A sender declares 250 KB and sends it slowly: the budget holds it until it is answered.
    const held = await sendRaw(server.port, post("/webhooks/orders/create", 250_000), "{");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await sendRaw(server.port, post("/webhooks/customers/redact", 200_000));
    const answer = await refused.answered;
    refused.socket.destroy();
    expect(answer.status).toBe(503);
    expect(answer.text).toMatch(/Retry-After: 5/i);
    expect(answer.elapsedMs).toBeLessThan(1000);
    expect(await healthzMs()).toBeLessThan(1000);

    // The held request's connection goes: its bytes are free again.
    held.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const admitted = await sendRaw(
      server.port,
      post("/webhooks/customers/redact", 2, ["Connection: close"]),
      "{}",
    );
    expect((await admitted.answered).status).not.toBe(503);
    admitted.socket.destroy();
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
