import { describe, expect, it } from "vitest";
import type { ErrorBody, ValidationErrorEntry } from "./errors";
import {
  cartUpdate,
  lineItem,
  orderPlacedPayload,
  PRODUCTS,
  withTestEmulator,
  USER_SESSION_ID,
} from "./test-support";

const client = withTestEmulator();

async function expectValidationErrors(
  path: string,
  body: unknown,
  expected: ValidationErrorEntry[],
): Promise<ValidationErrorEntry[]> {
  const answer = await client.call<ErrorBody>(path, { body });
  expect(answer.status).toBe(400);
  expect(answer.body.error.error_code).toBe("validation_failed");
  expect(answer.body.error.validation_errors).toEqual(expect.arrayContaining(expected));
  return answer.body.error.validation_errors;
}

describe("order_placed payload", () => {
  it("names a string amount by its full path", async () => {
    const payload = orderPlacedPayload();
    const lines: unknown[] = [...payload.line_items];
    lines[1] = { ...payload.line_items[1], price_amount: "1999" };
    const errors = await expectValidationErrors(
      "events",
      { type: "order_placed", payload: { ...payload, line_items: lines } },
      [{ field: "payload.line_items[1].price_amount", message: "must be integer" }],
    );
    expect(errors).toHaveLength(1);
  });

  it("reports every problem at once", async () => {
    const payload = {
      ...orderPlacedPayload(),
      order_currency: "EUR",
      placed_at: "2025-03-14T09:26:53Z",
      customer_billing_address: { city: "Berlin", country: "DE" },
    };
    const errors = await expectValidationErrors("events", { type: "order_placed", payload }, [
      {
        field: "payload.order_currency",
        message: expect.stringContaining("lowercase three-letter"),
      },
      { field: "payload.placed_at", message: expect.stringContaining("with milliseconds") },
      {
        field: "payload.customer_billing_address.country",
        message: expect.stringContaining("two-letter"),
      },
    ]);
    expect(errors).toHaveLength(3);
  });

  it("rejects a timestamp of a date that does not exist", async () => {
    await expectValidationErrors(
      "events",
      {
        type: "order_placed",
        payload: orderPlacedPayload({ placed_at: "2025-02-30T10:00:00.000Z" }),
      },
      [{ field: "payload.placed_at", message: expect.stringContaining("real date") }],
    );
  });

  it("names missing required fields and fields the spec does not list", async () => {
    const { order_id: _orderId, ...withoutOrderId } = orderPlacedPayload();
    await expectValidationErrors(
      "events",
      { type: "order_placed", payload: { ...withoutOrderId, financial_status: "paid" } },
      [
        { field: "payload.order_id", message: "is required" },
        { field: "payload.financial_status", message: "is not allowed" },
      ],
    );
  });

  it("requires at least one line item and the line item's ids", async () => {
    await expectValidationErrors(
      "events",
      { type: "order_placed", payload: orderPlacedPayload({ line_items: [] }) },
      [{ field: "payload.line_items", message: expect.stringContaining("fewer than 1") }],
    );
    const { product_id: _productId, ...withoutProductId } = lineItem(
      "13612765970489",
      PRODUCTS.laptop,
    );
    await expectValidationErrors(
      "events",
      {
        type: "order_placed",
        payload: { ...orderPlacedPayload(), line_items: [withoutProductId] },
      },
      [{ field: "payload.line_items[0].product_id", message: "is required" }],
    );
  });

  it("accepts an order without cart_id, customer and address, which the events-only guide omits", async () => {
    const {
      cart_id: _cartId,
      customer: _customer,
      customer_billing_address: _address,
      ...minimal
    } = orderPlacedPayload();
    const answer = await client.call("events", {
      body: { type: "order_placed", payload: minimal },
    });
    expect(answer.status).toBe(200);
  });
});

describe("event envelope", () => {
  it("names an unknown event type", async () => {
    await expectValidationErrors(
      "events",
      { type: "order_updated", payload: { order_id: "5558016491833" } },
      [{ field: "type", message: expect.stringContaining("order_placed") }],
    );
  });

  it("requires type and payload and refuses other envelope fields", async () => {
    await expectValidationErrors(
      "events",
      { payload: {}, occurred_at: "2025-03-14T09:26:53.589Z" },
      [{ field: "type", message: "is required" }],
    );
    await expectValidationErrors(
      "events",
      {
        type: "order_cancelled",
        payload: { order_id: "1", cancelled_at: "2025-03-14T09:26:53.589Z" },
        id: "x",
      },
      [{ field: "id", message: "is not allowed" }],
    );
  });

  it("calls a body that is not an object `body`", async () => {
    await expectValidationErrors("events", [], [{ field: "body", message: "must be object" }]);
  });

  it("requires exactly one of fulfillment_items and fulfillment_line_items", async () => {
    const entry = {
      line_item_id: "13612765970489",
      quantity: 1,
      fulfilled_at: "2025-03-15T08:00:00.000Z",
    };
    await expectValidationErrors(
      "events",
      { type: "order_fulfillment_added", payload: { order_id: "5558016491833" } },
      [{ field: "payload", message: "must have one of fulfillment_items, fulfillment_line_items" }],
    );
    await expectValidationErrors(
      "events",
      {
        type: "order_fulfillment_added",
        payload: {
          order_id: "5558016491833",
          fulfillment_items: [entry],
          fulfillment_line_items: [entry],
        },
      },
      [
        {
          field: "payload",
          message: expect.stringContaining("only one of fulfillment_items, fulfillment_line_items"),
        },
      ],
    );
  });

  it("checks refund entries field by field", async () => {
    await expectValidationErrors(
      "events",
      {
        type: "order_refund_added",
        payload: {
          order_id: "5558016491833",
          refund_items: [
            { line_item_id: "13612765970489", quantity: 0, refunded_at: "2025-03-20 12:00:00" },
          ],
        },
      },
      [
        { field: "payload.refund_items[0].quantity", message: "must be >= 1" },
        {
          field: "payload.refund_items[0].refunded_at",
          message: expect.stringContaining("ISO 8601"),
        },
      ],
    );
  });

  it("requires cancelled_at, or quantity and refunded_at, on a cancelled line item", async () => {
    await expectValidationErrors(
      "events",
      {
        type: "order_line_items_cancelled",
        payload: {
          order_id: "5558016491833",
          cancelled_line_items: [{ line_item_id: "13612765970489", quantity: 1 }],
        },
      },
      [
        {
          field: "payload.cancelled_line_items[0]",
          message: "must have cancelled_at, or quantity and refunded_at",
        },
      ],
    );
  });
});

describe("other bodies and query strings", () => {
  it("checks cart updates, including the user session id's UUID form", async () => {
    const cart = {
      ...cartUpdate([lineItem("52011", PRODUCTS.laptop, 1.5)]),
      user_session_id: "session-42",
    };
    await expectValidationErrors("cart_updates", cart, [
      { field: "user_session_id", message: expect.stringContaining("UUID") },
      { field: "line_items[0].quantity", message: "must be integer" },
    ]);
  });

  it("checks a custom_properties object against the one field the spec lists", async () => {
    const planLine = {
      ...lineItem("52012", PRODUCTS.cable),
      custom_properties: { productReference: "8457293627449" },
    };
    await expectValidationErrors("cart_updates", { ...cartUpdate([]), line_items: [planLine] }, [
      { field: "line_items[0].custom_properties.productReference", message: "is not allowed" },
    ]);
  });

  it("checks checkout confirmations", async () => {
    await expectValidationErrors(
      "cart_checkout",
      { cart_id: "Z2NwLWV1cm9wZS13ZXN0MTowMUpDNEs", user_session_id: USER_SESSION_ID },
      [{ field: "order_id", message: "is required" }],
    );
  });

  it("prefixes query string fields with query.", async () => {
    const answer = await client.call<ErrorBody>("plans", {
      query: { product_id: PRODUCTS.laptop.product_id, price_amount: "1299.00", currency: "eur" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.error_code).toBe("validation_failed");
    expect(answer.body.error.validation_errors).toEqual(
      expect.arrayContaining([
        {
          field: "query.price_amount",
          message: expect.stringContaining("integer amount in cents"),
        },
        { field: "query.price_currency", message: "is required" },
        { field: "query.currency", message: "is not allowed" },
      ]),
    );
  });

  it("names the allowed checkout types", async () => {
    const answer = await client.call<ErrorBody>("checkouts", {
      query: { order_id: "5558016491833", checkout_type: "email" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.validation_errors).toEqual([
      { field: "query.checkout_type", message: "must be one of redirect, assist" },
    ]);
  });
});

describe("malformed JSON", () => {
  it("answers 400 invalid_json", async () => {
    const answer = await client.call("events", { rawBody: '{"type":"order_placed","payload":{' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        error_code: "invalid_json",
        validation_errors: [{ field: "body", message: "is not valid JSON" }],
      },
    });
  });

  it("treats an empty JSON body as invalid JSON", async () => {
    const answer = await client.call<ErrorBody>("cart_updates", { rawBody: "" });
    expect(answer.status).toBe(400);
    expect(answer.body.error.error_code).toBe("invalid_json");
  });
});
