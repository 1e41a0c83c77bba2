// Every Shopify sample payload of an order topic, mapped with its exact expected result. A new
// fixture file without an expectation fails the completeness check below.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { shopifyFixturesDir } from "../../test/support/test-env";
import { readShopifyFixture } from "../../test/support/webhooks";
import { parseWebhookJson } from "../lib/json";
import { mapOrderWebhook } from "./map-webhook";
import {
  PLAN_ONLY,
  REPORT_ALL,
  RESTOCK_REFUND_CANCELLED,
  TEE_LINE,
  eventsOf,
  eventsResult,
  lineEvent,
  orderPlaced,
  placedPayload,
} from "./map-webhook.test-support";
import type { MappingResult, OrderTopic } from "./types";

type Expectation = (result: MappingResult) => void;

const SHOPIFY_SAMPLE_CUSTOMER = {
  customer: { first_name: "John", last_name: "Smith", email: "john@example.com" },
  customer_billing_address: {
    address_line_1: "123 Shipping Street",
    city: "Shippington",
    country: "us",
    zip: "40003",
  },
};

const IPOD_LINES = [
  {
    id: "866550311766439000",
    quantity: 1,
    price_amount: 19900,
    product_id: "808950810",
    product_title: "IPod Nano - 8GB",
    product_brand: "",
  },
  {
    id: "141249953214522980",
    quantity: 1,
    price_amount: 19900,
    product_id: "808950810",
    product_title: "IPod Nano - 8GB",
    product_brand: "",
  },
];

const ORDERS_CREATE: Record<string, Expectation> = {
  "real-eur-qty2_qrshirt_app.json": (result) => {
    expect(result).toEqual(
      eventsResult("6709529444685", "order_placed with 1 line item(s), 0 plan line(s)", [
        orderPlaced({
          order_id: "6709529444685",
          placed_at: "2025-06-03T14:34:21.000Z",
          order_currency: "eur",
          cart_id: "Z2NwLWV1cm9wZS13ZXN0MzowMUpXVjNEMks2Vzc0TTg0NERZTVdTMEZXVg",
          customer: {
            first_name: "David",
            last_name: "Michel",
            email: "davidmichel77@gmail.com",
          },
          customer_billing_address: {
            address_line_1: "43 rue des plantes",
            city: "Paris",
            country: "fr",
            zip: "75014",
          },
          line_items: [TEE_LINE],
        }),
      ]),
    );
  },
  "real-uah-discount-code_petschoice.json": (result) => {
    // A 100% discount code: price_amount is still the undiscounted unit price.
    expect(result).toEqual(
      eventsResult("6005860532298", "order_placed with 2 line item(s), 0 plan line(s)", [
        orderPlaced({
          order_id: "6005860532298",
          placed_at: "2025-02-05T16:10:43.000Z",
          order_currency: "uah",
          cart_id: "Z2NwLXVzLWVhc3QxOjAxSktCRFZSMDZSNzJKNzBLMktEOVJFVlQ1",
          customer: {
            first_name: "Mykyta",
            last_name: "Shevchenko",
            email: "anclemarvel@gmail.com",
          },
          customer_billing_address: {
            address_line_1: "обл. Львівська, Львів, Грушевського, 10",
            city: "Львів",
            country: "ua",
            zip: "79005",
          },
          line_items: [
            {
              id: "14854151340106",
              quantity: 1,
              price_amount: 39900,
              product_id: "41864347942986",
              product_title: "Шампунь для собак",
              product_brand: "Pets Choice Club",
            },
            {
              id: "14854151372874",
              quantity: 1,
              price_amount: 20000,
              product_id: "41899282661450",
              product_title: "Предоплата",
              product_brand: "Petschoice club",
            },
          ],
        }),
      ]),
    );
  },
  "real-usd-line-item-properties_pdf-generator-nodejs.json": (result) => {
    // Private "_" properties of other apps do not make a plan line; address2 "" is left out.
    const blanket = (id: string) => ({
      id,
      quantity: 1,
      price_amount: 5800,
      product_id: "32981500428372",
      product_title: "My Best Friend",
      product_brand: "My BlanketShop",
    });
    expect(result).toEqual(
      eventsResult("4047320907860", "order_placed with 2 line item(s), 0 plan line(s)", [
        orderPlaced({
          order_id: "4047320907860",
          placed_at: "2021-12-14T19:08:29.000Z",
          order_currency: "usd",
          cart_id: "905dea2191d3f12061a428a548ed0434",
          customer: {
            first_name: "Christine",
            last_name: "Tiemeyer",
            email: "ctiemeyer@cox.net",
          },
          customer_billing_address: {
            address_line_1: "4710 50th Street",
            city: "San Diego",
            country: "us",
            zip: "92115",
          },
          line_items: [blanket("10472468021332"), blanket("10472468054100")],
        }),
      ]),
    );
  },
  "shopify-docs-2026-04_gadget.json": (result) => {
    // The docs sample was rounded by a float parser upstream: 820982911946154508 became ...500.
    const events = eventsOf(result);
    expect(events.orderId).toBe("820982911946154500");
    expect(events.detail).toBe("order_placed with 5 line item(s), 0 plan line(s)");
    expect(events.events.map((event) => event.dedupeKey)).toEqual([
      "order:820982911946154500:placed",
    ]);
    const payload = placedPayload(result);
    expect(payload).toMatchObject({
      order_id: "820982911946154500",
      placed_at: "2022-01-01T00:00:00.000Z",
      order_currency: "usd",
      ...SHOPIFY_SAMPLE_CUSTOMER,
    });
    expect(payload).not.toHaveProperty("cart_id");
    expect(payload.line_items).toHaveLength(5);
    expect(payload.line_items[0]).toEqual({
      id: "487817672276298560",
      quantity: 1,
      price_amount: 8999,
      product_id: "788032119674292900",
      product_title: "Aviator sunglasses",
      product_brand: "",
    });
    // Custom lines without variant and product get a product ID of their own.
    expect(payload.line_items.map((line) => [line.product_id, line.price_amount])).toEqual([
      ["788032119674292900", 8999],
      ["custom:789012345678901200", 1999],
      ["custom:890123456789012400", 2499],
      ["788032119674292900", 15999],
      ["788032119674292900", 11999],
    ]);
  },
};

const ignored = (orderId: string, detail: string) => ({ kind: "ignored", orderId, detail });

const FULFILLMENTS_PENDING = (result: MappingResult) =>
  expect(result).toEqual(
    ignored(
      "820982911946154500",
      "fulfillment 123456 has status pending; only success is reported",
    ),
  );

const FULFILLMENTS_CREATE: Record<string, Expectation> = {
  "real-cad-store_bold-shopify-toolkit.json": (result) =>
    expect(result).toEqual(
      eventsResult("521087516777", "order_fulfillment_added with 1 line item(s)", [
        lineEvent(
          "order_fulfillment_added",
          { dedupeKey: "fulfillment:536610799721" },
          "521087516777",
          "2018-08-10T16:52:00.000Z",
          [["1308796420201", 1]],
        ),
      ]),
    ),
  "shopify-docs-2026-04_gadget.json": FULFILLMENTS_PENDING,
  "shopify-docs-example_triggerdev.json": FULFILLMENTS_PENDING,
};

const FULFILLMENTS_UPDATE: Record<string, Expectation> = {
  "real-inr-status-cancelled_valmi.json": (result) =>
    expect(result).toEqual(
      ignored(
        "5361237360854",
        "fulfillment 4829430743254 has status cancelled; only success is reported",
      ),
    ),
  "shopify-docs-2025-01_gadget.json": FULFILLMENTS_PENDING,
  "shopify-docs-2025-01_shopify-webhooks-go.json": FULFILLMENTS_PENDING,
};

const SAMPLE_REFUND_OF_IPODS = (result: MappingResult) =>
  expect(result).toEqual(
    eventsResult("820982911946154500", "order_refund_added with 2 line item(s)", [
      lineEvent(
        "order_refund_added",
        { dedupeKey: "refund:890088186047892400:refunded", refundId: "890088186047892400" },
        "820982911946154500",
        "2022-01-01T00:00:00.000Z",
        [
          ["866550311766439000", 1],
          ["141249953214522980", 1],
        ],
      ),
    ]),
  );

const REFUNDS_CREATE: Record<string, Expectation> = {
  "real-vnd-restock_pipedream.json": (result) =>
    expect(result).toEqual(
      eventsResult("6273085767965", "order_line_items_cancelled with 1 line item(s)", [
        RESTOCK_REFUND_CANCELLED,
      ]),
    ),
  "shopify-docs-2024-01_gadget.json": SAMPLE_REFUND_OF_IPODS,
  "shopify-docs-2026-04_gadget.json": (result) => {
    const events = eventsOf(result);
    expect(events.orderId).toBe("820982911946154500");
    expect(events.detail).toBe("order_refund_added with 5 line item(s)");
    expect(events.events.map(({ dedupeKey, refundId }) => ({ dedupeKey, refundId }))).toEqual([
      { dedupeKey: "refund:890088186047892400:refunded", refundId: "890088186047892400" },
    ]);
    const event = events.events[0]?.event;
    if (event?.type !== "order_refund_added") throw new Error("expected order_refund_added");
    expect(event.payload.order_id).toBe("820982911946154500");
    expect(event.payload.refund_items).toHaveLength(5);
    expect(event.payload.refund_items[0]).toEqual({
      line_item_id: "487817672276298560",
      quantity: 1,
      refunded_at: "2022-01-01T00:00:00.000Z",
    });
    expect(event.payload.refund_items.map((item) => item.line_item_id)).toEqual([
      "487817672276298560",
      "789012345678901200",
      "890123456789012400",
      "976318377106520300",
      "315789986012684400",
    ]);
  },
  // This copy of the docs sample has null timestamps; the service needs refunded_at.
  "shopify-docs-example_triggerdev.json": (result) =>
    expect(result).toEqual({
      kind: "unprocessable",
      orderId: "820982911946154500",
      reason: "processed_at and created_at are missing",
    }),
};

/** One order_cancelled event, and the cancel refunds the order lists. */
const cancelledOrder =
  (orderId: string, cancelledAt: string, detail: string, cancelRefundIds: string[]): Expectation =>
  (result) => {
    const event = {
      dedupeKey: `order:${orderId}:cancelled`,
      event: { type: "order_cancelled", payload: { order_id: orderId, cancelled_at: cancelledAt } },
    };
    expect(result).toEqual({ ...eventsResult(orderId, detail, [event]), cancelRefundIds });
  };

const SAMPLE_CANCELLED_AT = "2022-01-01T00:00:00.000Z";
const NO_REFUNDS = "order_cancelled; no refunds listed";

const ORDERS_CANCELLED: Record<string, Expectation> = {
  "real-inr-cancelled-refunded_valmi.json": cancelledOrder(
    "5364772372694",
    "2024-01-12T09:36:00.000Z",
    "order_cancelled; 1 cancel refund(s) listed",
    ["887837196502"],
  ),
  "shopify-docs-2026-04_gadget.json": cancelledOrder(
    "820982911946154500",
    SAMPLE_CANCELLED_AT,
    NO_REFUNDS,
    [],
  ),
  // The same sample with the IDs Shopify really sends: parseWebhookJson keeps the last digits.
  "shopify-sample-full-precision-ids_petschoice.json": cancelledOrder(
    "820982911946154508",
    SAMPLE_CANCELLED_AT,
    NO_REFUNDS,
    [],
  ),
};

const editEvent = (lineItemId: string) =>
  eventsResult(
    "820982911946154500",
    "order_line_items_cancelled with 1 line item(s); 1 added line(s) not reported",
    [
      lineEvent(
        "order_line_items_cancelled",
        { dedupeKey: "order-edit:78912328793123780" },
        "820982911946154500",
        "2022-01-01T00:00:00.000Z",
        [[lineItemId, 1]],
      ),
    ],
  );

const ORDERS_EDITED: Record<string, Expectation> = {
  "real-anonymized_gadget-exemplar.json": (result) =>
    expect(result).toEqual(
      ignored("123", "order edit 123 removes no line items; 1 added line(s) not reported"),
    ),
  "shopify-docs-2025-01_shopify-webhooks-go.json": (result) =>
    expect(result).toEqual(editEvent("866550311766439000")),
  "shopify-docs-2026-04_gadget.json": (result) =>
    expect(result).toEqual(editEvent("487817672276298560")),
  // No committed_at here: created_at is used.
  "shopify-docs-example_triggerdev.json": (result) =>
    expect(result).toEqual(editEvent("866550311766439000")),
};

/** Other order-shaped topics, mapped as orders/create to prove the order mapping reads them. */
const orderShaped =
  (orderId: string, lineCount: number, currency: string, placedAt: string): Expectation =>
  (result) => {
    const payload = placedPayload(result);
    expect(result).toMatchObject({
      kind: "events",
      orderId,
      detail: `order_placed with ${lineCount} line item(s), 0 plan line(s)`,
    });
    expect(payload.line_items).toHaveLength(lineCount);
    expect(payload).toMatchObject({
      order_id: orderId,
      order_currency: currency,
      placed_at: placedAt,
    });
  };

const ORDERS_FULFILLED: Record<string, Expectation> = {
  "real-inr-fulfilled_valmi.json": (result) =>
    orderShaped("5361240244438", 1, "inr", "2024-01-08T10:19:25.000Z")(result),
  "real-pln-multi-qty-2-fulfillments_erp_addons.json": (result) => {
    orderShaped("100500", 2, "pln", "2024-10-08T12:03:30.000Z")(result);
    expect(placedPayload(result).line_items[1]).toEqual({
      id: "31108738875684",
      quantity: 3,
      price_amount: 50000,
      product_id: "47738503495000",
      product_title: "Guitar1",
      product_brand: "vendevstore2",
    });
  },
  "shopify-docs-2024-01_gadget.json": (result) => {
    orderShaped("820982911946154500", 2, "usd", "2022-01-01T00:00:00.000Z")(result);
    expect(placedPayload(result)).toMatchObject(SHOPIFY_SAMPLE_CUSTOMER);
    expect(placedPayload(result).line_items).toEqual(IPOD_LINES);
  },
};

const ORDERS_UPDATED: Record<string, Expectation> = {
  "real-inr-partially-refunded_valmi.json": (result) => {
    // The ordered quantity (4), not what is left after the refunds (current_quantity 1).
    orderShaped("5361237360854", 2, "inr", "2024-01-08T10:12:28.000Z")(result);
    expect(placedPayload(result).line_items[0]).toMatchObject({ quantity: 4, price_amount: 74995 });
  },
  "shopify-docs-2025-01_gadget.json": (result) =>
    orderShaped("820982911946154500", 3, "usd", "2022-01-01T00:00:00.000Z")(result),
  // processed_at is null in this copy: created_at is used.
  "shopify-docs-example_triggerdev.json": (result) => {
    orderShaped("820982911946154500", 2, "usd", "2022-01-01T00:00:00.000Z")(result);
    expect(placedPayload(result).line_items).toEqual(IPOD_LINES);
  },
};

const FOLDERS: { folder: string; topic: OrderTopic; expectations: Record<string, Expectation> }[] =
  [
    { folder: "orders_create", topic: "orders/create", expectations: ORDERS_CREATE },
    {
      folder: "fulfillments_create",
      topic: "fulfillments/create",
      expectations: FULFILLMENTS_CREATE,
    },
    {
      folder: "fulfillments_update",
      topic: "fulfillments/update",
      expectations: FULFILLMENTS_UPDATE,
    },
    { folder: "refunds_create", topic: "refunds/create", expectations: REFUNDS_CREATE },
    { folder: "orders_cancelled", topic: "orders/cancelled", expectations: ORDERS_CANCELLED },
    { folder: "orders_edited", topic: "orders/edited", expectations: ORDERS_EDITED },
    { folder: "orders_fulfilled", topic: "orders/create", expectations: ORDERS_FULFILLED },
    { folder: "orders_updated", topic: "orders/create", expectations: ORDERS_UPDATED },
  ];

describe.each(FOLDERS)("Shopify $folder fixtures as $topic", ({ folder, topic, expectations }) => {
  it("has an expectation for every fixture file and a file for every expectation", () => {
    const files = readdirSync(path.join(shopifyFixturesDir, folder))
      .filter((file) => file.endsWith(".json"))
      .sort();
    expect(files.length).toBeGreaterThan(0);
    expect(files).toEqual(Object.keys(expectations).sort());
  });

  it.each(Object.entries(expectations))("maps %s", (file, expectation) => {
    const payload = parseWebhookJson(readShopifyFixture(folder, file));
    expectation(mapOrderWebhook(topic, payload, REPORT_ALL));
  });
});

describe("orders/create fixtures without a plan line", () => {
  it.each(Object.keys(ORDERS_CREATE))(
    "ignores %s when orders without a plan are not reported",
    (file) => {
      const payload = parseWebhookJson(readShopifyFixture("orders_create", file)) as {
        id: unknown;
      };
      const result = mapOrderWebhook("orders/create", payload, PLAN_ONLY);
      const orderId = String(payload.id);
      expect(result).toEqual(
        ignored(
          orderId,
          `order ${orderId} has no protection plan line; not reported (reportOrdersWithoutPlan is off)`,
        ),
      );
    },
  );
});
