import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "./errors";
import type { FaultRule, RecordedRequest } from "./state";
import { orderPlacedPayload, SANDBOX_KEY, withTestEmulator } from "./test-support";

// The faults the chaos suite (scripts/chaos/) injects, and the Idempotency-Key it counts by.

const client = withTestEmulator();

async function injectFault(fault: object): Promise<FaultRule[]> {
  const answer = await client.control<{ faults: FaultRule[] }>("faults", { body: fault });
  expect(answer.status).toBe(200);
  return answer.body.faults;
}

function placeOrder(orderId: string, headers: Record<string, string> = {}) {
  return client.call<{ event_id?: string }>("events", {
    body: { type: "order_placed", payload: orderPlacedPayload({ order_id: orderId }) },
    headers,
  });
}

/** Like a client with a request time-out: gives up after `timeoutMs`, as the app's client does. */
async function placeOrderGivingUpAfter(orderId: string, timeoutMs: number): Promise<string> {
  try {
    await fetch(new URL("sandbox/events", client.emulator.url), {
      method: "POST",
      headers: {
        authorization: `Bearer ${SANDBOX_KEY}`,
        "content-type": "application/json",
        "idempotency-key": `key-${orderId}`,
      },
      body: JSON.stringify({
        type: "order_placed",
        payload: orderPlacedPayload({ order_id: orderId }),
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return "answered";
  } catch (error) {
    return error instanceof Error ? error.name : String(error);
  }
}

/** The recorded requests once every answer is finished (answered is no longer null). */
async function finishedRequests(): Promise<RecordedRequest[]> {
  for (let tries = 0; tries < 50; tries += 1) {
    const requests = await client.requests();
    if (requests.every((request) => request.answered !== null)) return requests;
    await sleep(50);
  }
  throw new Error("Failed to read the recorded requests: an answer never finished");
}

describe("Idempotency-Key", () => {
  it("is recorded on each request and each stored event, and never used to deduplicate", async () => {
    const first = await placeOrder("7001", { "Idempotency-Key": "evt-7001-placed" });
    const again = await placeOrder("7001", { "Idempotency-Key": "evt-7001-placed" });
    await placeOrder("7002");

    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.event_id).not.toBe(first.body.event_id);
    const [order, other] = (await client.state("sandbox")).orders;
    expect(order?.placement_count).toBe(2);
    expect(order?.events.map((event) => [event.event_id, event.idempotency_key])).toEqual([
      [first.body.event_id, "evt-7001-placed"],
      [again.body.event_id, "evt-7001-placed"],
    ]);
    expect(other?.events.map((event) => event.idempotency_key)).toEqual([null]);

    const requests = await finishedRequests();
    expect(
      requests.map((request) => [request.idempotency_key, request.event_id, request.answered]),
    ).toEqual([
      ["evt-7001-placed", first.body.event_id, true],
      ["evt-7001-placed", again.body.event_id, true],
      [null, expect.stringMatching(/^evt_/), true],
    ]);
  });
});

describe('faults "after": "commit"', () => {
  it("stores the event, then answers too late for a client that gave up", async () => {
    await injectFault({ count: 1, after: "commit", delay_ms: 600 });
    const started = performance.now();
    expect(await placeOrderGivingUpAfter("7101", 200)).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(550);

    // Stored although the client never heard so: the case only an idempotency key can settle.
    const [order] = (await client.state("sandbox")).orders;
    expect(order?.order_id).toBe("7101");
    expect(order?.events[0]?.idempotency_key).toBe("key-7101");
    const [request] = await finishedRequests();
    expect(request).toMatchObject({
      status: 200,
      event_id: order?.events[0]?.event_id,
      fault: "commit",
      idempotency_key: "key-7101",
      answered: false,
    });
  });

  it("answers the real answer late to a client that waits", async () => {
    await injectFault({ count: 1, after: "commit", delay_ms: 300 });
    const started = performance.now();
    const answer = await placeOrder("7102");
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(answer.status).toBe(200);
    expect(answer.body.event_id).toMatch(/^evt_/);
    const [request] = await finishedRequests();
    expect(request?.answered).toBe(true);
  });

  it("stores the event and answers a 2xx without event_id: {} or an empty body", async () => {
    await injectFault({ count: 1, after: "commit", body: {} });
    await injectFault({ count: 1, after: "commit", status: 201, raw_body: "" });
    const withEmptyObject = await placeOrder("7103");
    const withEmptyBody = await placeOrder("7104");

    expect(withEmptyObject.status).toBe(200);
    expect(withEmptyObject.body).toEqual({});
    expect(withEmptyBody.status).toBe(201);
    expect(withEmptyBody.body).toBe("");
    expect(withEmptyBody.headers.get("content-length")).toBe("0");
    const orders = (await client.state("sandbox")).orders;
    expect(orders.map((order) => order.order_id)).toEqual(["7103", "7104"]);
    const requests = await finishedRequests();
    expect(requests.map((request) => [request.status, request.fault])).toEqual([
      [200, "commit"],
      [201, "commit"],
    ]);
    expect(requests.map((request) => request.event_id)).toEqual(
      orders.map((order) => order.events[0]?.event_id),
    );
  });

  it("stores the event and then fails with the asked status", async () => {
    await injectFault({ count: 1, after: "commit", status: 503 });
    const answer = await placeOrder("7105");
    expect(answer.status).toBe(503);
    expect((answer.body as unknown as ErrorBody).error.error_code).toBe("injected_fault");
    expect((await client.state("sandbox")).orders.map((order) => order.order_id)).toEqual(["7105"]);
    const [request] = await finishedRequests();
    expect(request).toMatchObject({ status: 503, fault: "commit" });
    expect(request?.event_id).toMatch(/^evt_/);
  });
});

describe("raw_body", () => {
  it("answers the text as is in place of the service, which stores nothing", async () => {
    await injectFault({ count: 1, raw_body: "" });
    await injectFault({ count: 1, status: 502, raw_body: "<html>Bad gateway</html>" });
    const empty = await placeOrder("7201");
    const html = await placeOrder("7202");

    expect(empty.status).toBe(200);
    expect(empty.body).toBe("");
    expect(html.status).toBe(502);
    expect(html.body).toBe("<html>Bad gateway</html>");
    expect((await client.state("sandbox")).orders).toEqual([]);
    const requests = await finishedRequests();
    expect(requests.map((request) => [request.status, request.fault, request.event_id])).toEqual([
      [200, "before", undefined],
      [502, "before", undefined],
    ]);
  });
});

describe("duration_ms", () => {
  it("applies to every matching request for its window, then stops", async () => {
    const [rule] = await injectFault({
      duration_ms: 400,
      status: 401,
      match: { path: "/sandbox/events" },
    });
    expect(rule).toMatchObject({ remaining: null, status: 401, expires_at: expect.any(String) });

    const during = await Promise.all(["7301", "7302", "7303"].map((id) => placeOrder(id)));
    expect(during.map((answer) => answer.status)).toEqual([401, 401, 401]);
    await sleep(450);
    expect((await placeOrder("7304")).status).toBe(200);
    expect((await client.control<{ faults: FaultRule[] }>("faults")).body.faults).toEqual([]);
  });

  it("ends at whichever comes first with a count", async () => {
    await injectFault({ duration_ms: 60_000, count: 2, status: 500 });
    const statuses = [];
    for (const id of ["7311", "7312", "7313"]) statuses.push((await placeOrder(id)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it("slows every request of the window down and still processes it (a slow service)", async () => {
    await injectFault({ duration_ms: 2_000, delay_ms: 250 });
    const started = performance.now();
    const answers = await Promise.all(["7321", "7322"].map((id) => placeOrder(id)));
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await client.state("sandbox")).orders).toHaveLength(2);
  });
});

describe("fault requests the emulator refuses", () => {
  it.each([
    [{ status: 500 }, "count"],
    [{ count: 1, body: {}, raw_body: "" }, "raw_body"],
    [{ count: 1, status: 200 }, "status"],
    [{ count: 1, after: "answer" }, "after"],
  ])("%j is refused on %s", async (fault, field) => {
    const answer = await client.control<ErrorBody>("faults", { body: fault });
    expect(answer.status).toBe(400);
    expect(answer.body.error.validation_errors.map((entry) => entry.field)).toEqual([field]);
    expect((await client.control<{ faults: FaultRule[] }>("faults")).body.faults).toEqual([]);
  });
});
