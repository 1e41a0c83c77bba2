import { describe, expect, it } from "vitest";
import { parseWebhookJson } from "../lib/json";
import {
  customerSubjectOf,
  isEventExpired,
  parseRetentionDays,
  personalDataOfEvent,
  personalFieldsOfBody,
  rawBodyConcerns,
  REDACTED_ORDER_PLACED_TEXT,
  redactEventPayload,
  redactRawBody,
  retentionCutoff,
  withoutPersonalText,
  withoutValues,
} from "./customer-data";

const EVENT = JSON.stringify({
  type: "order_placed",
  payload: {
    order_id: "1",
    customer: { first_name: "Jo", last_name: "Doe", email: "Jo@Example.com" },
    customer_billing_address: {
      address_line_1: "1 Main St",
      city: "Berlin",
      zip: "10115",
      country: "de",
    },
    line_items: [],
  },
});

describe("customer data", () => {
  it("reads the subject losslessly and the e-mail in lower case", () => {
    const body = parseWebhookJson(
      '{"customer":{"id":115310627314723950,"email":" John@Example.COM "},"orders_to_redact":[9007199254740993,7]}',
    );
    expect(customerSubjectOf(body)).toEqual({
      orderIds: ["9007199254740993", "7"],
      email: "john@example.com",
      customerId: "115310627314723950",
    });
  });

  it("blanks an event's customer to what an order without one maps to, and finds nothing after", () => {
    expect(personalDataOfEvent(EVENT).map(([field]) => field)).toContain("customer.email");
    const redacted = redactEventPayload(EVENT);
    expect(personalDataOfEvent(redacted)).toEqual([]);
    expect(redacted).toContain(REDACTED_ORDER_PLACED_TEXT);
    expect(JSON.parse(redacted).payload.order_id).toBe("1");
  });

  it("redacts every personal field of a raw body, nested ones too", () => {
    const raw =
      '{"id":5,"email":"a@b.c","shipping_lines":[{"phone":"555"}],"customer":{"id":1},"total_price":"3.00"}';
    expect(personalFieldsOfBody(JSON.parse(raw))).toEqual([
      "customer",
      "email",
      "shipping_lines[].phone",
    ]);
    const redacted = redactRawBody(raw, "retention", new Date("2026-01-01T00:00:00Z"))!;
    expect(JSON.parse(redacted)).toEqual({
      svc_redacted: { at: "2026-01-01T00:00:00.000Z", reason: "retention" },
      id: 5,
      email: null,
      shipping_lines: [{ phone: null }],
      customer: null,
      total_price: "3.00",
    });
    expect(redactRawBody("{not json", "retention", new Date())).toBeNull();
  });

  it("ties a raw body to the subject by order, customer ID or e-mail", () => {
    const subject = { orderIds: [], email: "a@b.c", customerId: null };
    const receipt = {
      topic: "orders/create",
      orderId: null,
      payload: '{"id":5,"contact_email":"A@B.C"}',
    };
    expect(rawBodyConcerns(receipt, subject)).toBe(true);
    expect(rawBodyConcerns(receipt, { ...subject, email: "x@y.z" })).toBe(false);
    expect(
      rawBodyConcerns(
        { ...receipt, payload: "{broken 12345" },
        { ...subject, email: null, orderIds: ["12345"] },
      ),
    ).toBe(true);
  });

  it("expires settled events and receipts older than the period", () => {
    const now = new Date("2026-06-01T00:00:00Z");
    const cutoff = retentionCutoff(now, 90);
    expect(cutoff.toISOString()).toBe("2026-03-03T00:00:00.000Z");
    const old = new Date("2026-03-01T00:00:00Z");
    expect(isEventExpired({ status: "delivered", createdAt: old }, cutoff)).toBe(true);
    expect(isEventExpired({ status: "pending", createdAt: old }, cutoff)).toBe(false);
    expect(isEventExpired({ status: "dead", createdAt: now }, cutoff)).toBe(false);
    expect([
      parseRetentionDays(undefined),
      parseRetentionDays("30"),
      parseRetentionDays("0"),
    ]).toEqual([90, 30, null]);
  });

  it("cuts the longest values out of a service's text first, so no part of one is left", () => {
    const text = '"jane.doe@example.com" is not accepted (customer Jane Doe)';
    // In the event's field order the first name would go first and break up the e-mail.
    expect(withoutValues(text, ["Jane", "Doe", "jane.doe@example.com"])).toBe(
      '"[redacted]" is not accepted (customer [redacted] [redacted])',
    );
  });

  it("cuts any e-mail address out of an attempt's text, keeping a JSON answer's escapes", () => {
    expect(withoutPersonalText('422 {"error":"\\"Max.Muster@Example.org\\" is invalid"}', [])).toBe(
      '422 {"error":"\\"[redacted]\\" is invalid"}',
    );
    expect(withoutPersonalText("Order 1001: 503 Service Unavailable", [])).toBe(
      "Order 1001: 503 Service Unavailable",
    );
  });
});
