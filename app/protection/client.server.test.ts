// Client behaviour the emulator cannot produce (bad bodies, Retry-After, redirects, a
// key echoed back, stalled bodies), over real HTTP against a tiny in-test server.
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createProtectionClient } from "./client.server";
import type { ProtectionClientOptions } from "./client.server";
import { describeResult } from "./results";
import type { OrderEvent } from "./types";

type RecordedRequest = {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
};
type Handler = (request: RecordedRequest, response: ServerResponse) => void;

const SECRET = "sk_test_4f9c2b7e1a0d8c3b";
let handler: Handler = (_request, response) => response.writeHead(500).end();
let recorded: RecordedRequest[] = [];
let baseUrl = "";
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const request = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    recorded.push(request);
    handler(request, res);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  recorded = [];
});

function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, { "Content-Type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };
}

function client(overrides: Partial<ProtectionClientOptions> = {}) {
  return createProtectionClient({
    baseUrl,
    environment: "production",
    secretKey: SECRET,
    apiVersion: "v2.0",
    timeoutMs: 2000,
    ...overrides,
  });
}

async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const cancelled: OrderEvent = {
  type: "order_cancelled",
  payload: { order_id: "1001", cancelled_at: "2025-03-01T12:00:00.000Z" },
};

describe("request shape", () => {
  it("sends the auth, version, accept and content-type headers and the JSON body", async () => {
    handler = json(200, { event_id: "evt_1" });
    const result = await client({ apiVersion: "v1.1" }).sendOrderEvent(cancelled);

    expect(result).toEqual({
      kind: "success",
      status: 200,
      data: { event_id: "evt_1", body: expect.any(String) },
    });
    const [request] = recorded;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/events");
    expect(request?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request?.headers["svc-version"]).toBe("v1.1");
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual(cancelled);
  });

  it("sends GET /plans with the chosen query names, omitting undefined ones, and no content-type", async () => {
    handler = json(200, {
      product: {
        id: "p1",
        category: "laptops",
        title: "Laptop 14",
        brand: "Acme",
        price_amount: 79900,
        price_currency: "eur",
      },
      plans: [],
    });
    const result = await client().lookupPlans({
      product_id: "p1",
      product_title: "Laptop 14",
      product_brand: "Acme",
      price_amount: 79900,
      price_currency: "eur",
    });

    expect(result.kind).toBe("success");
    const url = new URL(recorded[0]?.url ?? "", baseUrl);
    expect(url.pathname).toBe("/plans");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      product_id: "p1",
      product_title: "Laptop 14",
      product_brand: "Acme",
      price_amount: "79900",
      price_currency: "eur",
    });
    expect(recorded[0]?.headers["content-type"]).toBeUndefined();
    expect(recorded[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("sends events and checkout confirmations to /orders when configured so", async () => {
    handler = (request, response) => {
      const body = request.url.endsWith("orders") ? JSON.parse(request.body) : {};
      json(200, "type" in body ? { event_id: "evt_2" } : body)(request, response);
    };
    const orders = client({ paths: { events: "orders", cartCheckout: "orders" } });
    const confirmation = { cart_id: "c1", user_session_id: "u1", order_id: "1001" };

    expect((await orders.sendOrderEvent(cancelled)).kind).toBe("success");
    expect(await orders.confirmCartCheckout(confirmation)).toEqual({
      kind: "success",
      status: 200,
      data: confirmation,
    });
    expect(recorded.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /orders", "POST /orders"]);
  });

  it("uses the fetch it is given", async () => {
    handler = json(200, { event_id: "evt_3" });
    const seen: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    await client({ environment: "sandbox", fetch: fetchSpy }).sendOrderEvent(cancelled);
    expect(seen).toEqual([`${baseUrl}/sandbox/events`]);
  });
});

describe("invalid responses are retryable", () => {
  it("treats a 200 whose body is not JSON as invalid_response", async () => {
    handler = (_request, response) => response.writeHead(200).end("<html>ok</html>");
    const result = await client().getCheckout({ order_id: "1", checkout_type: "redirect" });
    expect(result).toMatchObject({ kind: "retryable", reason: "invalid_response", status: 200 });
    expect(describeResult(result)).toContain("not JSON");
  });

  it("treats a 200 with an empty body as invalid_response", async () => {
    handler = (_request, response) => response.writeHead(200).end();
    const result = await client().getCheckout({ order_id: "1", checkout_type: "redirect" });
    expect(result).toMatchObject({ kind: "retryable", reason: "invalid_response" });
  });

  it("treats a 200 whose JSON does not match the shape as invalid_response, naming the field", async () => {
    handler = json(200, { order_id: 42 });
    const result = await client().getCheckout({ order_id: "1", checkout_type: "redirect" });
    expect(result).toMatchObject({ kind: "retryable", reason: "invalid_response", status: 200 });
    expect(result.kind === "retryable" && result.message).toMatch(/order_id/);
  });

  it("refuses a cart update answer with an action type the spec does not show", async () => {
    handler = json(200, {
      cart_id: "c1",
      user_session_id: "u1",
      actions: [{ type: "remove_line_item", payload: { line_item_id: "2" } }],
    });
    const result = await client().reportCartUpdate({
      cart_id: "c1",
      user_session_id: "u1",
      cart_currency: "eur",
      line_items: [],
    });
    expect(result).toMatchObject({ kind: "retryable", reason: "invalid_response" });
  });

  it("accepts any 2xx as success", async () => {
    handler = json(201, { event_id: "evt_4" });
    expect(await client().sendOrderEvent(cancelled)).toEqual({
      kind: "success",
      status: 201,
      data: { event_id: "evt_4", body: JSON.stringify({ event_id: "evt_4" }) },
    });
  });
});

describe("an order event's 2xx is acceptance, whatever its body", () => {
  const answers: Array<[string, (response: ServerResponse) => void]> = [
    ["an empty body", (response) => response.writeHead(200).end()],
    ["{}", (response) => response.writeHead(200).end("{}")],
    ["a body that is not JSON", (response) => response.writeHead(202).end("<html>ok</html>")],
    ["a non-string event_id", (response) => response.writeHead(200).end('{"event_id":42}')],
  ];
  it.each(answers)(
    "delivers on %s, with no event ID and the raw answer kept",
    async (_, answer) => {
      handler = (_request, response) => answer(response);
      const result = await client().sendOrderEvent(cancelled);
      expect(result).toMatchObject({ kind: "success", data: { event_id: null } });
      expect(result.kind === "success" && typeof result.data.body).toBe("string");
    },
  );

  it("sends the Idempotency-Key it is given, and none when it is not", async () => {
    const keys: Array<string | undefined> = [];
    handler = (request, response) => {
      keys.push(request.headers["idempotency-key"] as string | undefined);
      response.writeHead(200).end('{"event_id":"e1"}');
    };
    await client().sendOrderEvent(cancelled, { idempotencyKey: "key-1" });
    await client().sendOrderEvent(cancelled);
    expect(keys).toEqual(["key-1", undefined]);
  });
});

describe("status mapping", () => {
  it("reads Retry-After in seconds on 429", async () => {
    handler = json(429, { error: { error_code: "rate_limited" } }, { "Retry-After": "3" });
    const result = await client().sendOrderEvent(cancelled);
    expect(result).toMatchObject({
      kind: "retryable",
      reason: "rate_limited",
      status: 429,
      retryAfterMs: 3000,
    });
  });

  it("reads Retry-After as an HTTP date on 429", async () => {
    const at = new Date(Date.now() + 10_000).toUTCString();
    handler = json(429, {}, { "Retry-After": at });
    const result = await client().sendOrderEvent(cancelled);
    expect(result).toMatchObject({ kind: "retryable", reason: "rate_limited" });
    const retryAfterMs = result.kind === "retryable" ? result.retryAfterMs : undefined;
    expect(retryAfterMs).toBeGreaterThan(7_000);
    expect(retryAfterMs).toBeLessThanOrEqual(10_000);
  });

  it("keeps Retry-After on a 503 and leaves it out when absent", async () => {
    handler = json(503, {}, { "Retry-After": "5" });
    expect(await client().sendOrderEvent(cancelled)).toMatchObject({
      kind: "retryable",
      reason: "server_error",
      status: 503,
      retryAfterMs: 5000,
    });
    handler = json(500, {});
    const result = await client().sendOrderEvent(cancelled);
    expect(result).toMatchObject({ kind: "retryable", reason: "server_error", status: 500 });
    expect(result).not.toHaveProperty("retryAfterMs");
  });

  it.each([403, 409, 422])("maps %i to rejected with the service's error code", async (status) => {
    handler = json(status, { error: { error_code: `code_${status}`, validation_errors: [] } });
    const result = await client().sendOrderEvent(cancelled);
    expect(result).toMatchObject({ kind: "rejected", status, errorCode: `code_${status}` });
    expect(describeResult(result)).toBe(
      `rejected (${status} code_${status}): POST /events answered ${status} code_${status}`,
    );
  });

  it("maps a 400 without an error body to validation_error bad_request", async () => {
    handler = (_request, response) => response.writeHead(400).end("Bad Request");
    expect(await client().sendOrderEvent(cancelled)).toEqual({
      kind: "validation_error",
      status: 400,
      errorCode: "bad_request",
      validationErrors: [],
    });
  });

  it("does not follow a redirect, so the key never travels to another address", async () => {
    handler = (request, response) => {
      if (request.url === "/events") response.writeHead(302, { Location: "/elsewhere" }).end();
      else json(200, { event_id: "evt_redirected" })(request, response);
    };
    const result = await client().sendOrderEvent(cancelled);
    expect(result).toMatchObject({ kind: "rejected", status: 302 });
    expect(recorded.map((r) => r.url)).toEqual(["/events"]);
  });
});

describe("transport failures", () => {
  it("reports a refused connection as a network failure", async () => {
    const port = await unusedPort();
    const result = await client({ baseUrl: `http://127.0.0.1:${port}/` }).sendOrderEvent(cancelled);
    expect(result).toMatchObject({ kind: "retryable", reason: "network" });
    expect(result).not.toHaveProperty("status");
    expect(result.kind === "retryable" && result.message).toContain("ECONNREFUSED");
  });

  it("reports no answer in time as a timeout, not a network failure", async () => {
    handler = () => {
      /* never answers */
    };
    const started = Date.now();
    const result = await client({ timeoutMs: 200 }).sendOrderEvent(cancelled);
    expect(result).toMatchObject({ kind: "retryable", reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("reports a body that stalls after the headers as a timeout", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.write('{"event_id":');
    };
    const result = await client({ timeoutMs: 300 }).sendOrderEvent(cancelled);
    expect(result).toMatchObject({ kind: "retryable", reason: "timeout" });
  });
});

describe("the secret key never leaves the client", () => {
  it("removes a key the service echoes back, in every kind of answer", async () => {
    handler = (request, response) => {
      const echoed = String(request.headers.authorization);
      const status = Number(new URL(request.url, baseUrl).searchParams.get("order_id"));
      if (status === 200)
        return json(200, { order_id: echoed, available_plans: [] })(request, response);
      json(status, {
        error: { error_code: echoed, validation_errors: [{ field: "auth", message: echoed }] },
      })(request, response);
    };
    for (const status of [200, 400, 401, 404, 409, 503]) {
      const result = await client().getCheckout({
        order_id: String(status),
        checkout_type: "redirect",
      });
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(describeResult(result)).not.toContain(SECRET);
      expect(JSON.stringify(result)).toContain("[redacted]");
    }
  });

  it("keeps the key out of network failure messages", async () => {
    const port = await unusedPort();
    const result = await client({ baseUrl: `http://127.0.0.1:${port}/` }).sendOrderEvent(cancelled);
    expect(result.kind).toBe("retryable");
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("refuses bad configuration without naming the key", () => {
    const badKey = "sk_live with space";
    expect(() => client({ secretKey: badKey })).toThrow(/secret key contains whitespace/);
    try {
      client({ secretKey: badKey });
    } catch (error) {
      expect(String(error)).not.toContain(badKey);
    }
    expect(() => client({ secretKey: "" })).toThrow(/secret key is empty/);
    expect(() => client({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => client({ baseUrl: "nope" })).toThrow(/base URL/);
  });
});
