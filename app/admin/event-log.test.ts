import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatJson, orderAdminUrl, parseServiceAnswer } from "./event-log";

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
