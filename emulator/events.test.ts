import { describe, expect, it } from "vitest";
import type { ErrorBody } from "./errors";
import { orderPlacedPayload, withTestEmulator, USER_SESSION_ID } from "./test-support";

const client = withTestEmulator();

const ORDER_ID = "5558016491833";
const LAPTOP_LINE = "13612765970489";
const CABLE_LINE = "13612765970490";
const HEADPHONES_LINE = "13612765970491";

async function sendEvent(type: string, payload: object, path = "events") {
  return client.call<{ event_id: string } & Partial<ErrorBody>>(path, { body: { type, payload } });
}

describe("POST /events", () => {
  it("accepts the five event kinds in order, each with a fresh event_id, and keeps what they said", async () => {
    const placedId = await client.placeOrder(orderPlacedPayload());
    const fulfilled = await sendEvent("order_fulfillment_added", {
      order_id: ORDER_ID,
      fulfillment_items: [
        { line_item_id: LAPTOP_LINE, quantity: 1, fulfilled_at: "2025-03-15T08:12:44.000Z" },
        { line_item_id: CABLE_LINE, quantity: 2, fulfilled_at: "2025-03-15T08:12:44.000Z" },
      ],
    });
    const refunded = await sendEvent("order_refund_added", {
      order_id: ORDER_ID,
      refund_items: [
        { line_item_id: CABLE_LINE, quantity: 1, refunded_at: "2025-03-20T14:03:10.250Z" },
      ],
    });
    const lineCancelled = await sendEvent("order_line_items_cancelled", {
      order_id: ORDER_ID,
      cancelled_line_items: [
        { line_item_id: HEADPHONES_LINE, cancelled_at: "2025-03-14T11:00:00.000Z" },
      ],
    });
    const cancelled = await sendEvent("order_cancelled", {
      order_id: ORDER_ID,
      cancelled_at: "2025-03-21T10:00:00.000Z",
    });

    const answers = [fulfilled, refunded, lineCancelled, cancelled];
    for (const answer of answers) expect(answer.status).toBe(200);
    const eventIds = [placedId, ...answers.map((answer) => answer.body.event_id)];
    for (const eventId of eventIds) expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(new Set(eventIds).size).toBe(5);

    const [order] = (await client.state("sandbox")).orders;
    expect(order?.order_id).toBe(ORDER_ID);
    expect(order?.placed.line_items).toHaveLength(3);
    expect(order?.placement_count).toBe(1);
    expect(order?.events.map((event) => event.event_id)).toEqual(eventIds);
    expect(order?.events.map((event) => event.type)).toEqual([
      "order_placed",
      "order_fulfillment_added",
      "order_refund_added",
      "order_line_items_cancelled",
      "order_cancelled",
    ]);
    expect(order?.fulfillments.map((entry) => [entry.line_item_id, entry.quantity])).toEqual([
      [LAPTOP_LINE, 1],
      [CABLE_LINE, 2],
    ]);
    expect(order?.refunds).toEqual([
      {
        line_item_id: CABLE_LINE,
        quantity: 1,
        refunded_at: "2025-03-20T14:03:10.250Z",
        event_id: refunded.body.event_id,
      },
    ]);
    expect(order?.cancelled_line_items.map((entry) => entry.line_item_id)).toEqual([
      HEADPHONES_LINE,
    ]);
    expect(order?.cancelled_at).toBe("2025-03-21T10:00:00.000Z");
  });

  it("accepts the other list names, fulfillment_line_items and refund_line_items", async () => {
    await client.placeOrder(orderPlacedPayload());
    const fulfilled = await sendEvent("order_fulfillment_added", {
      order_id: ORDER_ID,
      fulfillment_line_items: [
        { line_item_id: LAPTOP_LINE, quantity: 1, fulfilled_at: "2025-03-15T08:12:44.000Z" },
      ],
    });
    const refunded = await sendEvent("order_refund_added", {
      order_id: ORDER_ID,
      refund_line_items: [
        { line_item_id: LAPTOP_LINE, quantity: 1, refunded_at: "2025-03-22T09:30:00.000Z" },
      ],
    });
    expect(fulfilled.status).toBe(200);
    expect(refunded.status).toBe(200);
    const [order] = (await client.state("sandbox")).orders;
    expect(order?.fulfillments).toHaveLength(1);
    expect(order?.refunds).toHaveLength(1);
  });

  it("accepts the spec's sample form of a cancelled line item, with quantity and refunded_at", async () => {
    await client.placeOrder(orderPlacedPayload());
    const answer = await sendEvent("order_line_items_cancelled", {
      order_id: ORDER_ID,
      cancelled_line_items: [
        { line_item_id: CABLE_LINE, quantity: 1, refunded_at: "2025-03-14T12:00:00.000Z" },
      ],
    });
    expect(answer.status).toBe(200);
    const [order] = (await client.state("sandbox")).orders;
    expect(order?.cancelled_line_items).toEqual([
      {
        line_item_id: CABLE_LINE,
        quantity: 1,
        refunded_at: "2025-03-14T12:00:00.000Z",
        event_id: answer.body.event_id,
      },
    ]);
  });

  it("refuses an event for an order whose placement was never reported", async () => {
    const answer = await sendEvent("order_fulfillment_added", {
      order_id: ORDER_ID,
      fulfillment_items: [
        { line_item_id: LAPTOP_LINE, quantity: 1, fulfilled_at: "2025-03-15T08:12:44.000Z" },
      ],
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      error: { error_code: "order_not_found", validation_errors: [] },
    });
    expect((await client.state("sandbox")).orders).toEqual([]);
  });

  it("accepts a repeated order_placed with a new event_id and counts the placements", async () => {
    const first = await client.placeOrder(orderPlacedPayload());
    const retried = await client.placeOrder(orderPlacedPayload());
    expect(retried).not.toBe(first);
    const orders = (await client.state("sandbox")).orders;
    expect(orders).toHaveLength(1);
    expect(orders[0]?.placement_count).toBe(2);
    expect(orders[0]?.events.map((event) => event.event_id)).toEqual([first, retried]);
  });

  it("refuses entries that name a line item the placed order does not have, and records nothing", async () => {
    await client.placeOrder(orderPlacedPayload());
    const answer = await sendEvent("order_refund_added", {
      order_id: ORDER_ID,
      refund_items: [
        { line_item_id: LAPTOP_LINE, quantity: 1, refunded_at: "2025-03-20T14:03:10.250Z" },
        { line_item_id: "99999999999999", quantity: 1, refunded_at: "2025-03-20T14:03:10.250Z" },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      error_code: "validation_failed",
      validation_errors: [
        {
          field: "payload.refund_items[1].line_item_id",
          message: `is not a line item of order ${ORDER_ID}`,
        },
      ],
    });
    const [order] = (await client.state("sandbox")).orders;
    expect(order?.refunds).toEqual([]);
    expect(order?.events).toHaveLength(1);
  });
});

describe("POST /orders, the path of the spec's samples", () => {
  it("takes an event envelope like /events", async () => {
    const placed = await sendEvent("order_placed", orderPlacedPayload(), "orders");
    const cancelled = await sendEvent(
      "order_cancelled",
      { order_id: ORDER_ID, cancelled_at: "2025-03-21T10:00:00.000Z" },
      "orders",
    );
    expect(placed.status).toBe(200);
    expect(cancelled.status).toBe(200);
    const [order] = (await client.state("sandbox")).orders;
    expect(order?.events.map((event) => event.event_id)).toEqual([
      placed.body.event_id,
      cancelled.body.event_id,
    ]);
    expect(order?.cancelled_at).toBe("2025-03-21T10:00:00.000Z");
  });

  it("takes a checkout confirmation like /cart_checkout", async () => {
    const confirmation = {
      cart_id: "Z2NwLWV1cm9wZS13ZXN0MTowMUpDNEs",
      user_session_id: USER_SESSION_ID,
      order_id: ORDER_ID,
    };
    await client.placeOrder(orderPlacedPayload());
    const answer = await client.call("orders", { body: confirmation });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(confirmation);
    expect((await client.state("sandbox")).checkout_confirmations).toEqual([
      { ...confirmation, received_at: expect.any(String), idempotency_key: null },
    ]);
  });

  it("validates each shape against its own schema", async () => {
    const asConfirmation = await client.call<ErrorBody>("orders", {
      body: { cart_id: "Z2NwLWV1cm9wZS13ZXN0MTowMUpDNEs" },
    });
    expect(asConfirmation.status).toBe(400);
    expect(asConfirmation.body.error.validation_errors).toEqual([
      { field: "user_session_id", message: "is required" },
      { field: "order_id", message: "is required" },
    ]);
    const asEvent = await client.call<ErrorBody>("orders", {
      body: { type: "order_cancelled", payload: { order_id: ORDER_ID, cancelled_at: "yesterday" } },
    });
    expect(asEvent.status).toBe(400);
    expect(asEvent.body.error.validation_errors).toEqual([
      { field: "payload.cancelled_at", message: expect.stringContaining("ISO 8601") },
    ]);
  });

  it("refuses an event for an unplaced order on /orders too", async () => {
    const answer = await sendEvent(
      "order_cancelled",
      { order_id: ORDER_ID, cancelled_at: "2025-03-21T10:00:00.000Z" },
      "orders",
    );
    expect(answer.status).toBe(404);
    expect(answer.body.error?.error_code).toBe("order_not_found");
  });
});

describe("POST /cart_checkout", () => {
  it("echoes the accepted confirmation and remembers it", async () => {
    const confirmation = {
      cart_id: "Z2NwLWV1cm9wZS13ZXN0MTowMUpDNEs",
      user_session_id: USER_SESSION_ID,
      order_id: ORDER_ID,
    };
    await client.placeOrder(orderPlacedPayload());
    const answer = await client.call("cart_checkout", {
      body: confirmation,
      version: "v2.0",
      headers: { "Idempotency-Key": "confirm-1" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(confirmation);
    expect((await client.state("sandbox")).checkout_confirmations).toEqual([
      { ...confirmation, received_at: expect.any(String), idempotency_key: "confirm-1" },
    ]);
  });

  it("refuses a confirmation of an order not placed before, as a strict service would", async () => {
    const answer = await client.call<ErrorBody>("cart_checkout", {
      body: { cart_id: "c1", user_session_id: USER_SESSION_ID, order_id: "404404" },
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error.error_code).toBe("order_not_found");
    expect((await client.state("sandbox")).checkout_confirmations).toEqual([]);
  });
});

describe("environments", () => {
  it("keeps sandbox and production state apart", async () => {
    await client.placeOrder(orderPlacedPayload(), "sandbox");
    await client.placeOrder(orderPlacedPayload({ order_id: "5558016491999" }), "production");

    expect((await client.state("sandbox")).orders.map((order) => order.order_id)).toEqual([
      ORDER_ID,
    ]);
    expect((await client.state("production")).orders.map((order) => order.order_id)).toEqual([
      "5558016491999",
    ]);

    const crossed = await client.call<ErrorBody>("events", {
      environment: "production",
      body: {
        type: "order_cancelled",
        payload: { order_id: ORDER_ID, cancelled_at: "2025-03-21T10:00:00.000Z" },
      },
    });
    expect(crossed.status).toBe(404);
    expect(crossed.body.error.error_code).toBe("order_not_found");
  });

  it("answers the same event in both versions", async () => {
    const current = await client.call<{ event_id: string }>("events", {
      version: "v2.0",
      body: { type: "order_placed", payload: orderPlacedPayload() },
    });
    const earliest = await client.call<{ event_id: string }>("events", {
      version: "v1.1",
      body: { type: "order_placed", payload: orderPlacedPayload() },
    });
    expect(current.status).toBe(200);
    expect(earliest.status).toBe(200);
    expect(current.headers.get("svc-version")).toBe("v2.0");
    expect(earliest.headers.get("svc-version")).toBe("v1.1");
    expect((await client.state("sandbox")).orders[0]?.placement_count).toBe(2);
  });
});
