import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  acceptedWithoutEventIdOf,
  attemptTimeline,
  formatDuration,
  formatJson,
  orderAdminUrl,
  parseServiceAnswer,
} from "./event-log";

const fixture = (file: string) =>
  readFileSync(path.resolve(import.meta.dirname, "../../test/fixtures/lifecycle", file), "utf8");

describe("parseServiceAnswer", () => {
  it("lists a 400's validation errors with their fields", () => {
    const stored = JSON.stringify({
      status: 400,
      error: {
        error_code: "invalid_request",
        validation_errors: [
          { field: "payload.line_items[0].price_amount", message: "must be a positive integer" },
          "currency is not supported",
          { path: "payload.order_id", message: "is required" },
          { code: 17 },
        ],
      },
    });
    expect(parseServiceAnswer(stored)).toEqual({
      status: 400,
      errorCode: "invalid_request",
      summary: null,
      validationErrors: [
        { field: "payload.line_items[0].price_amount", message: "must be a positive integer" },
        { field: null, message: "currency is not supported" },
        { field: "payload.order_id", message: "is required" },
        { field: null, message: '{"code":17}' },
      ],
    });
  });

  it("reads a success and a failure without a body", () => {
    expect(
      parseServiceAnswer(JSON.stringify({ status: 200, body: { event_id: "evt_1" } })),
    ).toEqual({ status: 200, errorCode: null, validationErrors: [], summary: null });
    expect(
      parseServiceAnswer(JSON.stringify({ status: null, summary: "timed out after 10000 ms" })),
    ).toEqual({
      status: null,
      errorCode: null,
      validationErrors: [],
      summary: "timed out after 10000 ms",
    });
  });

  it("returns null before any answer and never throws on text that is not JSON", () => {
    expect(parseServiceAnswer(null)).toBeNull();
    expect(parseServiceAnswer("")).toBeNull();
    expect(parseServiceAnswer("<html>502</html>")).toMatchObject({
      summary: "<html>502</html>",
      validationErrors: [],
    });
    expect(parseServiceAnswer("[1,2]")).toMatchObject({ validationErrors: [] });
  });
});

describe("formatJson", () => {
  it("indents like JSON.stringify(value, null, 2) for the real lifecycle payloads", () => {
    for (const file of ["orders-create.json", "refunds-create.json", "orders-cancelled.json"]) {
      const compact = JSON.stringify(JSON.parse(fixture(file)));
      expect(formatJson(compact)).toBe(JSON.stringify(JSON.parse(compact), null, 2));
    }
  });

  it("keeps IDs above 2^53 and string contents exactly as sent", () => {
    const text =
      '{"order_id":820982911946154508,"note":"a, b: {c} [d] \\"quoted\\" \\\\","empty":{},"list":[ ]}';
    const formatted = formatJson(text);
    expect(formatted).toContain('"order_id": 820982911946154508');
    expect(formatted).toContain('"note": "a, b: {c} [d] \\"quoted\\" \\\\"');
    expect(formatted).toContain('"empty": {}');
    expect(formatted).toContain('"list": []');
    expect(formatted.replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
  });

  it("returns text that is not JSON as it is", () => {
    expect(formatJson("not json {")).toBe("not json {");
  });
});

describe("orderAdminUrl", () => {
  it("links to the order in the Shopify admin", () => {
    expect(orderAdminUrl("5558016491833")).toBe("shopify:admin/orders/5558016491833");
  });
});

describe("acceptedWithoutEventIdOf", () => {
  const delivered = { eventType: "order_placed", status: "delivered", serviceEventId: null };

  it("shows the raw answer of a 2xx without event_id, as stored by the worker", () => {
    expect(
      acceptedWithoutEventIdOf({
        ...delivered,
        lastResponse: JSON.stringify({ status: 202, raw: "accepted" }),
      }),
    ).toEqual({ httpStatus: 202, raw: "accepted" });
    expect(
      acceptedWithoutEventIdOf({ ...delivered, lastResponse: '{"status":200,"raw":""}' }),
    ).toEqual({ httpStatus: 200, raw: "" });
  });

  it("is null for an event with a service event ID or one not delivered", () => {
    const answer = JSON.stringify({ status: 200, body: { event_id: "evt_1" } });
    expect(
      acceptedWithoutEventIdOf({ ...delivered, serviceEventId: "evt_1", lastResponse: answer }),
    ).toBeNull();
    expect(
      acceptedWithoutEventIdOf({ ...delivered, status: "failed", lastResponse: null }),
    ).toBeNull();
  });

  it("is null for a checkout confirmation, whose answer never has an event_id", () => {
    const answer = JSON.stringify({ status: 200, raw: '{"cart_id":"c1"}' });
    expect(
      acceptedWithoutEventIdOf({ ...delivered, eventType: "cart_checkout", lastResponse: answer }),
    ).toBeNull();
  });

  it("says so when the answer's body was not kept", () => {
    expect(acceptedWithoutEventIdOf({ ...delivered, lastResponse: null })).toEqual({
      httpStatus: null,
      raw: null,
    });
    expect(
      acceptedWithoutEventIdOf({ ...delivered, lastResponse: '{"status":204,"summary":"x"}' }),
    ).toEqual({ httpStatus: 204, raw: null });
  });
});

describe("attemptTimeline", () => {
  const rows = (...numbers: number[]) => numbers.map((attempt) => ({ attempt }));
  const logged = (attempt: number) => ({ kind: "logged", attempt: { attempt } });
  const cutOff = (from: number, to: number) => ({ kind: "cut_off", from, to });
  const progress = (sendsStarted: number, loggedTotal: number, sending = false) => ({
    sendsStarted,
    loggedTotal,
    sending,
  });

  it("lists logged sends in order, with nothing cut off when every send was logged", () => {
    const timeline = attemptTimeline(rows(1, 2), progress(2, 2));
    expect(timeline).toEqual({ entries: [logged(1), logged(2)], cutOff: 0, earlierLogged: 0 });
  });

  it("places sends cut off mid-send where they happened, and counts them", () => {
    const timeline = attemptTimeline(rows(1, 4), progress(5, 2));
    expect(timeline.entries).toEqual([logged(1), cutOff(2, 3), logged(4), cutOff(5, 5)]);
    expect(timeline.cutOff).toBe(3);
  });

  it("does not call the send a worker is making now cut off", () => {
    const timeline = attemptTimeline(rows(1), progress(2, 1, true));
    expect(timeline.entries).toEqual([logged(1), { kind: "sending", number: 2 }]);
    expect(timeline.cutOff).toBe(0);
    // Claimed again but not yet sent: the last send is logged, nothing is under way.
    const claimed = attemptTimeline(rows(1, 2), progress(2, 2, true));
    expect(claimed.entries).toEqual([logged(1), logged(2)]);
  });

  it("starts at the page's first row when older rows are left out, and counts them", () => {
    const timeline = attemptTimeline(rows(51, 53), progress(53, 100));
    expect(timeline.entries).toEqual([logged(51), cutOff(52, 52), logged(53)]);
    expect(timeline.earlierLogged).toBe(98);
  });

  it("shows nothing for an event never sent", () => {
    expect(attemptTimeline([], progress(0, 0))).toEqual({
      entries: [],
      cutOff: 0,
      earlierLogged: 0,
    });
  });
});

describe("formatDuration", () => {
  it("gives milliseconds below a second and seconds above, in the admin's language", () => {
    expect(formatDuration(350, "en")).toBe("350 ms");
    expect(formatDuration(2_540, "en")).toBe("2.5 sec");
    expect(formatDuration(2_540, "de")).toBe("2,5 Sek.");
    expect(formatDuration(-3, "en")).toBe("0 ms");
  });
});
