import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/support/test-env";
import { readShopifyFixture } from "../../test/support/webhooks";
import { parseWebhookJson } from "../lib/json";
import { ORDER_TOPICS, isOrderTopic, mapOrderWebhook } from "./index";
import {
  PLAN_ONLY,
  REPORT_ALL,
  RESTOCK_REFUND_CANCELLED,
  TEE_LINE,
  eventsResult,
  lineEvent,
  placedPayload,
} from "./map-webhook.test-support";

type Json = Record<string, unknown>;

function ownFixtureText(file: string): string {
  return readFileSync(path.join(repoRoot, "test/fixtures/orders", file), "utf8");
}

function ownFixture(file: string): Json {
  return parseWebhookJson(ownFixtureText(file)) as Json;
}

function shopifyFixture(folder: string, file: string): Json {
  return parseWebhookJson(readShopifyFixture(folder, file)) as Json;
}

/** The EUR order with a plan line, changed by `edit`. */
function eurOrder(edit: (order: Json & { line_items: Json[] }) => void = () => {}): Json {
  const order = ownFixture("orders-create-eur-with-plan.json") as Json & { line_items: Json[] };
  edit(order);
  return order;
}

function lineAt(order: Json & { line_items: Json[] }, index: number): Json {
  const line = order.line_items[index];
  if (!line) throw new Error(`no line ${index}`);
  return line;
}

describe("isOrderTopic", () => {
  it("accepts the order topics and nothing else", () => {
    expect(ORDER_TOPICS.every((topic) => isOrderTopic(topic))).toBe(true);
    expect(isOrderTopic("orders/updated")).toBe(false);
    expect(isOrderTopic("ORDERS_CREATE")).toBe(false);
  });
});

describe("orders/create with a protection plan line", () => {
  it("marks the plan line with the protected variant, which is the product line's product_id", () => {
    const result = mapOrderWebhook("orders/create", eurOrder(), PLAN_ONLY);
    expect(result).toMatchObject({
      kind: "events",
      orderId: "6709529444685",
      detail: "order_placed with 2 line item(s), 1 plan line(s)",
    });
    const payload = placedPayload(result);
    expect(payload.order_currency).toBe("eur");
    expect(payload.line_items).toEqual([
      TEE_LINE,
      {
        id: "16735263883597",
        quantity: 2,
        price_amount: 299,
        product_id: "51734600000001",
        product_title: "Protection plan 2 years",
        product_brand: "svc",
        custom_properties: { product_reference: "51734523248973" },
      },
    ]);
    expect(payload.line_items[1]?.custom_properties?.product_reference).toBe(
      payload.line_items[0]?.product_id,
    );
  });

  it("reads yen amounts with no minor digits", () => {
    const payload = placedPayload(
      mapOrderWebhook("orders/create", ownFixture("orders-create-jpy-with-plan.json"), PLAN_ONLY),
    );
    expect(payload.order_currency).toBe("jpy");
    expect(payload.line_items.map((line) => line.price_amount)).toEqual([1500, 300]);
  });

  it("reads dinar amounts with three minor digits", () => {
    const result = mapOrderWebhook(
      "orders/create",
      ownFixture("orders-create-kwd-with-plan.json"),
      PLAN_ONLY,
    );
    expect(result).toMatchObject({ detail: "order_placed with 3 line item(s), 1 plan line(s)" });
    const payload = placedPayload(result);
    expect(payload.order_currency).toBe("kwd");
    expect(payload.line_items.map((line) => line.price_amount)).toEqual([12345, 12345, 1250]);
    expect(payload.line_items[2]).toEqual({
      id: "10472468086868",
      quantity: 2,
      price_amount: 1250,
      product_id: "32981500461140",
      product_title: "Protection plan 2 years",
      product_brand: "svc",
      custom_properties: { product_reference: "32981500428372" },
    });
    expect(payload.line_items[0]?.product_id).toBe("32981500428372");
  });

  it("keeps 19-digit IDs exact from the raw webhook text", () => {
    const raw = ownFixtureText("orders-create-19-digit-ids.json");
    const result = mapOrderWebhook("orders/create", parseWebhookJson(raw), PLAN_ONLY);
    expect(result).toMatchObject({
      kind: "events",
      orderId: "6709529444685123457",
      events: [{ dedupeKey: "order:6709529444685123457:placed" }],
    });
    const payload = placedPayload(result);
    expect(payload.order_id).toBe("6709529444685123457");
    expect(payload.line_items.map((line) => [line.id, line.product_id])).toEqual([
      ["1673526385082912345", "5173452324897312347"],
      ["1673526388359712349", "51734600000001"],
    ]);
    expect(payload.line_items[1]?.custom_properties).toEqual({
      product_reference: "5173452324897312347",
    });

    // The same text through plain JSON.parse loses the digits; this is what the app avoids.
    const lossy = mapOrderWebhook("orders/create", JSON.parse(raw), PLAN_ONLY);
    expect(lossy.orderId).not.toBe("6709529444685123457");
  });

  it("finds the plan property when properties are an object map", () => {
    const order = eurOrder((o) => {
      lineAt(o, 1).properties = { _svc_protected_product_ref: 51734523248973, gift: "no" };
    });
    const payload = placedPayload(mapOrderWebhook("orders/create", order, PLAN_ONLY));
    expect(payload.line_items[1]?.custom_properties).toEqual({
      product_reference: "51734523248973",
    });
    expect(payload.line_items[0]).not.toHaveProperty("custom_properties");
  });

  it("takes the REST API's {order: ...} wrapper off", () => {
    const wrapped = mapOrderWebhook("orders/create", { order: eurOrder() }, PLAN_ONLY);
    expect(wrapped).toEqual(mapOrderWebhook("orders/create", eurOrder(), PLAN_ONLY));
    expect(wrapped.kind).toBe("events");
  });

  it("does not unwrap an object that has more than the wrapper key", () => {
    expect(mapOrderWebhook("orders/create", { order: eurOrder(), id: 5 }, PLAN_ONLY)).toEqual({
      kind: "unprocessable",
      orderId: "5",
      reason: "line_items is missing",
    });
  });
});

describe("orders/create without a plan line", () => {
  const withoutPlan = () => eurOrder((o) => void o.line_items.pop());

  it("is ignored when such orders are not reported", () => {
    expect(mapOrderWebhook("orders/create", withoutPlan(), PLAN_ONLY)).toEqual({
      kind: "ignored",
      orderId: "6709529444685",
      detail:
        "order 6709529444685 has no protection plan line; not reported (reportOrdersWithoutPlan is off)",
    });
  });

  it("is reported when such orders are reported", () => {
    const result = mapOrderWebhook("orders/create", withoutPlan(), REPORT_ALL);
    expect(result).toMatchObject({
      kind: "events",
      detail: "order_placed with 1 line item(s), 0 plan line(s)",
    });
    expect(placedPayload(result).line_items).toHaveLength(1);
  });

  it("is ignored, not unprocessable, even when a field the service would need is broken", () => {
    const order = withoutPlan();
    order.currency = "EURO";
    expect(mapOrderWebhook("orders/create", order, PLAN_ONLY).kind).toBe("ignored");
  });

  it("is ignored when it has no line items at all", () => {
    const order = eurOrder((o) => (o.line_items = []));
    expect(mapOrderWebhook("orders/create", order, REPORT_ALL)).toEqual({
      kind: "ignored",
      orderId: "6709529444685",
      detail: "order 6709529444685 has no line items; nothing to report",
    });
  });
});

describe("orders/create fallbacks", () => {
  it("takes missing customer fields from the order and its billing address", () => {
    const order = eurOrder((o) => {
      o.customer = null;
      o.email = null;
      o.contact_email = "contact@example.com";
      o.cart_token = "";
      o.processed_at = null;
    });
    const payload = placedPayload(mapOrderWebhook("orders/create", order, PLAN_ONLY));
    expect(payload.customer).toEqual({
      first_name: "David",
      last_name: "Michel",
      email: "contact@example.com",
    });
    expect(payload).not.toHaveProperty("cart_id");
    expect(payload.placed_at).toBe("2025-06-03T14:34:24.000Z");
  });

  it("uses the shipping address when there is no billing address, and keeps address2", () => {
    const order = eurOrder((o) => {
      o.billing_address = null;
      o.shipping_address = {
        first_name: "Ship",
        last_name: "To",
        address1: "1 Quai",
        address2: "Bât. B",
        city: "Lyon",
        country_code: "FR",
        zip: 69001,
      };
      o.customer = { email: "c@example.com" };
    });
    const payload = placedPayload(mapOrderWebhook("orders/create", order, PLAN_ONLY));
    expect(payload.customer).toEqual({
      first_name: "Ship",
      last_name: "To",
      email: "c@example.com",
    });
    expect(payload.customer_billing_address).toEqual({
      address_line_1: "1 Quai",
      address_line_2: "Bât. B",
      city: "Lyon",
      country: "fr",
      zip: "69001",
    });
  });

  it("sends empty strings and no country when there is no customer and no address", () => {
    const order = eurOrder((o) => {
      for (const key of [
        "customer",
        "billing_address",
        "shipping_address",
        "email",
        "contact_email",
      ]) {
        delete o[key];
      }
    });
    const payload = placedPayload(mapOrderWebhook("orders/create", order, PLAN_ONLY));
    expect(payload.customer).toEqual({ first_name: "", last_name: "", email: "" });
    expect(payload.customer_billing_address).toEqual({
      address_line_1: "",
      city: "",
      zip: "",
    });
  });

  it("uses price only when the line has no price_set", () => {
    const order = eurOrder((o) => {
      delete lineAt(o, 0).price_set;
      lineAt(o, 0).price = "12.50";
    });
    const payload = placedPayload(mapOrderWebhook("orders/create", order, PLAN_ONLY));
    expect(payload.line_items[0]?.price_amount).toBe(1250);
  });

  it("uses the line's product_id for a custom line without variant, and brand '' without vendor", () => {
    const order = eurOrder((o) => {
      lineAt(o, 0).variant_id = null;
      lineAt(o, 0).vendor = null;
    });
    const payload = placedPayload(mapOrderWebhook("orders/create", order, PLAN_ONLY));
    expect(payload.line_items[0]).toMatchObject({
      product_id: "10102729146701",
      product_brand: "",
    });
  });
});

describe("unprocessable orders/create payloads", () => {
  const unprocessable = (
    payload: unknown,
    reason: string,
    orderId: string | null = "6709529444685",
  ) =>
    expect(mapOrderWebhook("orders/create", payload, PLAN_ONLY)).toEqual({
      kind: "unprocessable",
      orderId,
      reason,
    });
  const shopMoneyOf = (line: Json) => (line.price_set as { shop_money: Json }).shop_money;

  it("names a missing order ID", () => {
    unprocessable(
      eurOrder((o) => delete o.id),
      "id is missing",
      null,
    );
  });

  it("names a line's missing amount by its index", () => {
    const order = eurOrder((o) => {
      const third = structuredClone(lineAt(o, 0));
      third.id = 16735263900000;
      shopMoneyOf(third).amount = null;
      o.line_items.push(third);
    });
    unprocessable(order, "line_items[2].price_set.shop_money.amount is missing");
  });

  it.each<[string, (order: Json & { line_items: Json[] }) => void, string]>([
    ["missing line items", (o) => delete (o as Json).line_items, "line_items is missing"],
    [
      "a bad amount",
      (o) => (shopMoneyOf(lineAt(o, 1)).amount = "abc"),
      'line_items[1].price_set.shop_money.amount is invalid: Cannot convert "abc" to minor units of EUR: not a decimal amount',
    ],
    [
      "an unknown currency",
      (o) => (o.currency = "EURO"),
      'currency is invalid: Unknown currency code "EURO": expected three letters such as "EUR"',
    ],
    [
      "a line priced in another currency than the order",
      (o) => (shopMoneyOf(lineAt(o, 0)).currency_code = "USD"),
      "line_items[0].price_set.shop_money.currency_code is USD but the order currency is EUR",
    ],
    [
      "a quantity that is not a whole number",
      (o) => (lineAt(o, 0).quantity = "2"),
      'line_items[0].quantity is not a whole number of at least 0: "2"',
    ],
    [
      "a bad timestamp",
      (o) => (o.processed_at = "03/06/2025"),
      'processed_at is invalid: Cannot read "03/06/2025" as an ISO 8601 timestamp with a UTC offset, such as "2025-01-31T12:00:00+01:00"',
    ],
    [
      "an empty protected product reference",
      (o) => (lineAt(o, 1).properties = [{ name: "_svc_protected_product_ref", value: " " }]),
      "line_items[1].properties._svc_protected_product_ref is empty",
    ],
  ])("names %s", (_problem, edit, reason) => {
    unprocessable(eurOrder(edit), reason);
  });

  it("refuses a payload that is not an object", () => {
    unprocessable([], "payload is not a JSON object", null);
    unprocessable("order", "payload is not a JSON object", null);
  });
});

describe("fulfillments", () => {
  const success = (edit: (fulfillment: Json & { line_items: Json[] }) => void = () => {}) => {
    const fulfillment = shopifyFixture(
      "fulfillments_update",
      "real-inr-status-cancelled_valmi.json",
    );
    fulfillment.status = "success";
    edit(fulfillment as Json & { line_items: Json[] });
    return fulfillment;
  };

  it("reports an update to success at updated_at, under the same key as a create", () => {
    const updated = mapOrderWebhook("fulfillments/update", success(), PLAN_ONLY);
    expect(updated).toEqual(
      eventsResult("5361237360854", "order_fulfillment_added with 2 line item(s)", [
        lineEvent(
          "order_fulfillment_added",
          { dedupeKey: "fulfillment:4829430743254" },
          "5361237360854",
          "2024-01-12T09:32:03.000Z",
          [
            ["13340248965334", 4],
            ["13340248998102", 1],
          ],
        ),
      ]),
    );
    const created = mapOrderWebhook("fulfillments/create", success(), PLAN_ONLY);
    expect(created).toMatchObject({
      events: [
        {
          dedupeKey: "fulfillment:4829430743254",
          event: {
            payload: { fulfillment_items: [{ fulfilled_at: "2024-01-12T08:51:44.000Z" }, {}] },
          },
        },
      ],
    });
  });

  it("falls back to created_at when an update has no updated_at", () => {
    const result = mapOrderWebhook(
      "fulfillments/update",
      success((f) => delete f.updated_at),
      PLAN_ONLY,
    );
    expect(result).toMatchObject({
      events: [
        {
          event: {
            payload: { fulfillment_items: [{ fulfilled_at: "2024-01-12T08:51:44.000Z" }, {}] },
          },
        },
      ],
    });
  });

  it("drops lines with quantity 0 and ignores a fulfillment left with none", () => {
    const one = success((f) => (lineAt(f, 0).quantity = 0));
    expect(mapOrderWebhook("fulfillments/create", one, PLAN_ONLY)).toMatchObject({
      detail: "order_fulfillment_added with 1 line item(s)",
      events: [{ event: { payload: { fulfillment_items: [{ line_item_id: "13340248998102" }] } } }],
    });
    const none = success((f) => f.line_items.forEach((line) => (line.quantity = 0)));
    expect(mapOrderWebhook("fulfillments/create", none, PLAN_ONLY)).toEqual({
      kind: "ignored",
      orderId: "5361237360854",
      detail: "fulfillment 4829430743254 has no line item with a quantity; nothing to report",
    });
  });

  it.each(["open", "failure", "error"])("ignores status %s", (status) => {
    const fulfillment = success((f) => (f.status = status));
    expect(mapOrderWebhook("fulfillments/update", fulfillment, PLAN_ONLY)).toEqual({
      kind: "ignored",
      orderId: "5361237360854",
      detail: `fulfillment 4829430743254 has status ${status}; only success is reported`,
    });
  });

  it("refuses a fulfillment without status or order", () => {
    expect(
      mapOrderWebhook(
        "fulfillments/create",
        success((f) => delete f.status),
        PLAN_ONLY,
      ),
    ).toEqual({
      kind: "unprocessable",
      orderId: "5361237360854",
      reason: "status is missing",
    });
    expect(
      mapOrderWebhook(
        "fulfillments/create",
        success((f) => delete f.order_id),
        PLAN_ONLY,
      ),
    ).toEqual({
      kind: "unprocessable",
      orderId: null,
      reason: "order_id is missing",
    });
  });

  it("takes the {fulfillment: ...} wrapper off", () => {
    expect(mapOrderWebhook("fulfillments/create", { fulfillment: success() }, PLAN_ONLY)).toEqual(
      mapOrderWebhook("fulfillments/create", success(), PLAN_ONLY),
    );
  });
});

describe("refunds/create", () => {
  const refundCopy = () =>
    ownFixture("refunds-create-cancel-and-return.json") as Json & {
      refund_line_items: Json[];
    };

  it("splits cancelled lines from returned lines into two events", () => {
    expect(mapOrderWebhook("refunds/create", refundCopy(), PLAN_ONLY)).toEqual(
      eventsResult(
        "6273085767965",
        "order_line_items_cancelled with 1 line item(s); order_refund_added with 1 line item(s)",
        [
          RESTOCK_REFUND_CANCELLED,
          lineEvent(
            "order_refund_added",
            { dedupeKey: "refund:1002961240349:refunded", refundId: "1002961240349" },
            "6273085767965",
            "2024-08-20T15:19:18.000Z",
            [["16014782628125", 2]],
          ),
        ],
      ),
    );
  });

  it.each([["no_restock"], ["legacy_restock"], [undefined]])(
    "treats restock_type %s as a refund",
    (restockType) => {
      const refund = refundCopy();
      const line = lineAt({ line_items: refund.refund_line_items }, 0);
      if (restockType === undefined) delete line.restock_type;
      else line.restock_type = restockType;
      const result = mapOrderWebhook("refunds/create", refund, PLAN_ONLY);
      expect(result).toMatchObject({
        detail: "order_refund_added with 2 line item(s)",
        events: [{ dedupeKey: "refund:1002961240349:refunded" }],
      });
    },
  );

  it("uses created_at without processed_at, and line_item.id without line_item_id", () => {
    const refund = refundCopy();
    refund.processed_at = null;
    refund.created_at = "2024-08-21T10:00:00+02:00";
    delete lineAt({ line_items: refund.refund_line_items }, 0).line_item_id;
    expect(mapOrderWebhook("refunds/create", refund, PLAN_ONLY)).toMatchObject({
      events: [
        {
          event: {
            payload: {
              cancelled_line_items: [
                { line_item_id: "16014782595357", cancelled_at: "2024-08-21T08:00:00.000Z" },
              ],
            },
          },
        },
        {},
      ],
    });
  });

  it("ignores a refund of shipping or an amount only", () => {
    const refund = refundCopy();
    refund.refund_line_items = [];
    expect(mapOrderWebhook("refunds/create", refund, PLAN_ONLY)).toEqual({
      kind: "ignored",
      orderId: "6273085767965",
      detail: "refund 1002961240349 has no line items (shipping or amount only); nothing to report",
    });
  });

  it("drops lines with quantity 0", () => {
    const refund = refundCopy();
    lineAt({ line_items: refund.refund_line_items }, 0).quantity = 0;
    expect(mapOrderWebhook("refunds/create", refund, PLAN_ONLY)).toMatchObject({
      detail: "order_refund_added with 1 line item(s)",
    });
  });

  it("refuses a refund without ID, naming its order", () => {
    const refund = refundCopy();
    delete refund.id;
    expect(mapOrderWebhook("refunds/create", { refund }, PLAN_ONLY)).toEqual({
      kind: "unprocessable",
      orderId: "6273085767965",
      reason: "id is missing",
    });
  });
});

describe("orders/cancelled", () => {
  it("refuses an order without cancelled_at", () => {
    const order = shopifyFixture("orders_cancelled", "real-inr-cancelled-refunded_valmi.json");
    order.cancelled_at = null;
    expect(mapOrderWebhook("orders/cancelled", order, PLAN_ONLY)).toEqual({
      kind: "unprocessable",
      orderId: "5364772372694",
      reason: "cancelled_at is missing",
    });
  });
});

describe("orders/edited", () => {
  const edit = (lineItems: Json) => ({
    order_edit: {
      id: 99,
      order_id: 6709529444685,
      created_at: "2025-06-04T10:00:00+02:00",
      committed_at: null,
      line_items: lineItems,
    },
  });

  it("cancels removed quantities without added lines", () => {
    const result = mapOrderWebhook(
      "orders/edited",
      edit({
        additions: [],
        removals: [
          { id: 16735263850829, delta: 1 },
          { id: 16735263883597, delta: 1 },
        ],
      }),
      PLAN_ONLY,
    );
    expect(result).toEqual(
      eventsResult("6709529444685", "order_line_items_cancelled with 2 line item(s)", [
        lineEvent(
          "order_line_items_cancelled",
          { dedupeKey: "order-edit:99" },
          "6709529444685",
          "2025-06-04T08:00:00.000Z",
          [
            ["16735263850829", 1],
            ["16735263883597", 1],
          ],
        ),
      ]),
    );
  });

  it("ignores an edit that neither adds nor removes lines", () => {
    expect(mapOrderWebhook("orders/edited", edit({}), PLAN_ONLY)).toEqual({
      kind: "ignored",
      orderId: "6709529444685",
      detail: "order edit 99 removes no line items; nothing to report",
    });
  });

  it("names a bad removal and a missing order_edit", () => {
    expect(
      mapOrderWebhook("orders/edited", edit({ removals: [{ id: 1, delta: -1 }] }), PLAN_ONLY),
    ).toEqual({
      kind: "unprocessable",
      orderId: "6709529444685",
      reason: "order_edit.line_items.removals[0].delta is not a whole number of at least 0: -1",
    });
    expect(mapOrderWebhook("orders/edited", {}, PLAN_ONLY)).toEqual({
      kind: "unprocessable",
      orderId: null,
      reason: "order_edit is missing",
    });
  });
});
