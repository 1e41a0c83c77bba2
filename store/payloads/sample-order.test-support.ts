// A realistic order's life in the store's model, stage by stage, for the payload tests: a pair of
// trail shoes with a protection plan on them (the plan line carries _svc_protected_product_ref),
// partly fulfilled, the plan refunded, the unshipped shoe removed by an edit; and a second order
// cancelled with its refund. IDs count up from 2^53 + 1, as the store's do.
import type {
  Customer,
  Fulfillment,
  LineItem,
  Order,
  OrderEdit,
  Refund,
  StoreShop,
  Transaction,
} from "../model";

export const FIRST_ID = 9007199254740993n;

export function idSequence(start = FIRST_ID): () => string {
  let next = start;
  return () => String(next++);
}

export function sampleShop(nextId: () => string, overrides: Partial<StoreShop> = {}): StoreShop {
  return {
    domain: "trail-demo.myshopify.com",
    id: nextId(),
    name: "Trail Demo",
    email: "owner@trail-demo.example",
    currency: "EUR",
    currencyDecimals: 2,
    ianaTimezone: "America/New_York",
    plan: "standard",
    app: { url: "http://localhost:3000", apiKey: "api-key", apiSecret: "api-secret" },
    installation: null,
    onlineStorePublicationId: nextId(),
    locationId: nextId(),
    createdAt: "2026-11-20T12:00:00.000Z",
    ...overrides,
  };
}

export interface SampleLine {
  title: string;
  price: number;
  quantity: number;
  properties?: { name: string; value: string }[];
  requiresShipping?: boolean;
  grams?: number;
}

/** A paid order as createOrder leaves it: one SALE for the total, lines at their full quantity. */
export function sampleOrder(
  shop: StoreShop,
  nextId: () => string,
  lines: SampleLine[],
  options: { currency?: string; number?: number; createdAt?: string; withCustomer?: boolean } = {},
): Order {
  const currency = options.currency ?? shop.currency;
  const createdAt = options.createdAt ?? "2026-11-24T15:00:00.000Z";
  const number = options.number ?? 1001;
  const orderId = nextId();
  const lineItems: LineItem[] = lines.map((line) => {
    const productId = nextId();
    return {
      id: nextId(),
      variantId: nextId(),
      productId,
      title: line.title,
      variantTitle: null,
      name: line.title,
      sku: null,
      vendor: "Trail Demo",
      price: line.price,
      quantity: line.quantity,
      currentQuantity: line.quantity,
      properties: line.properties ?? [],
      requiresShipping: line.requiresShipping ?? true,
      taxable: true,
      grams: line.grams ?? 0,
      giftCard: false,
    };
  });
  const total = lineItems.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const sale: Transaction = {
    id: nextId(),
    kind: "SALE",
    status: "SUCCESS",
    gateway: "bogus",
    amount: total,
    parentId: null,
    createdAt,
  };
  const customer: Customer = {
    id: nextId(),
    email: "ada@example.com",
    firstName: "Ada",
    lastName: "Lovelace",
    phone: null,
  };
  return {
    id: orderId,
    name: `#${number}`,
    number,
    token: "b7a1c0ffee5e4c0d9f3a2b1c0d9e8f7a",
    cartToken: "Z2NwLWV1cm9wZS13ZXN0MTowMUpXVjNEMks2Vzc0TTg0NERZTVdTMEZXVg",
    checkoutToken: "5f0e3c2a9b8d7c6e5f4a3b2c1d0e9f8a",
    email: customer.email,
    currency,
    presentmentCurrency: currency,
    customer: options.withCustomer === false ? null : customer,
    noteAttributes: [{ name: "gift_wrap", value: "no" }],
    note: null,
    tags: [],
    test: true,
    sourceName: "web",
    lineItems,
    transactions: [sale],
    refunds: [],
    fulfillments: [],
    fulfillmentOrders: [
      {
        id: nextId(),
        orderId,
        status: "OPEN",
        assignedLocationId: shop.locationId,
        lines: lineItems
          .filter((line) => line.requiresShipping)
          .map((line) => ({
            id: nextId(),
            lineItemId: line.id,
            totalQuantity: line.quantity,
            remainingQuantity: line.quantity,
          })),
      },
    ],
    edits: [],
    cancelledAt: null,
    cancelReason: null,
    closedAt: null,
    createdAt,
    updatedAt: createdAt,
    processedAt: createdAt,
  };
}

function lineAt(order: Order, index: number): LineItem {
  const line = order.lineItems[index];
  if (!line) throw new Error(`sample order ${order.id} has no line ${index}`);
  return line;
}

/** A successful fulfillment of these quantities, added to (a copy of) the order. */
export function withFulfillment(
  order: Order,
  nextId: () => string,
  lines: { lineItemId: string; quantity: number }[],
  at: string,
): { order: Order; fulfillment: Fulfillment } {
  const next = structuredClone(order);
  const fulfillment: Fulfillment = {
    id: nextId(),
    orderId: next.id,
    name: `${next.name}.${next.fulfillments.length + 1}`,
    status: "success",
    shipmentStatus: null,
    locationId: next.fulfillmentOrders[0]?.assignedLocationId ?? nextId(),
    trackingCompany: "DHL",
    trackingNumbers: ["JD014600003812345678"],
    trackingUrls: ["https://www.dhl.com/track?tracking-id=JD014600003812345678"],
    lines,
    createdAt: at,
    updatedAt: at,
  };
  next.fulfillments.push(fulfillment);
  for (const { lineItemId, quantity } of lines) {
    for (const foLine of next.fulfillmentOrders.flatMap((fo) => fo.lines)) {
      if (foLine.lineItemId === lineItemId) foLine.remainingQuantity -= quantity;
    }
  }
  next.updatedAt = at;
  return { order: next, fulfillment };
}

/** A refund of these quantities at their unit prices, to the SALE, added to the order. */
export function withRefund(
  order: Order,
  nextId: () => string,
  lines: {
    lineItemId: string;
    quantity: number;
    restockType: Refund["lines"][number]["restockType"];
  }[],
  at: string,
  note: string | null = null,
): { order: Order; refund: Refund } {
  const next = structuredClone(order);
  const sale = next.transactions.find((transaction) => transaction.kind === "SALE");
  const refundLines = lines.map(({ lineItemId, quantity, restockType }) => {
    const line = next.lineItems.find((candidate) => candidate.id === lineItemId);
    if (!line) throw new Error(`sample order ${next.id} has no line ${lineItemId}`);
    if (restockType === "cancel" || restockType === "return") line.currentQuantity -= quantity;
    return {
      id: nextId(),
      lineItemId,
      quantity,
      restockType,
      locationId:
        restockType === "no_restock"
          ? null
          : (next.fulfillmentOrders[0]?.assignedLocationId ?? null),
      subtotal: line.price * quantity,
      totalTax: 0,
    };
  });
  const transaction: Transaction = {
    id: nextId(),
    kind: "REFUND",
    status: "SUCCESS",
    gateway: sale?.gateway ?? "manual",
    amount: refundLines.reduce((sum, line) => sum + line.subtotal, 0),
    parentId: sale?.id ?? null,
    createdAt: at,
  };
  next.transactions.push(transaction);
  const refund: Refund = {
    id: nextId(),
    orderId: next.id,
    note,
    restock: refundLines.some((line) => line.restockType !== "no_restock"),
    lines: refundLines,
    transactionIds: [transaction.id],
    appId: null,
    createdAt: at,
    processedAt: at,
  };
  next.refunds.push(refund);
  next.updatedAt = at;
  return { order: next, refund };
}

/** A committed edit that removes these quantities. */
export function withRemovalEdit(
  order: Order,
  nextId: () => string,
  removals: { lineItemId: string; quantity: number }[],
  at: string,
): { order: Order; edit: OrderEdit } {
  const next = structuredClone(order);
  const stagedQuantities: Record<string, number> = {};
  for (const { lineItemId, quantity } of removals) {
    const line = next.lineItems.find((candidate) => candidate.id === lineItemId);
    if (!line) throw new Error(`sample order ${next.id} has no line ${lineItemId}`);
    line.currentQuantity -= quantity;
    stagedQuantities[lineItemId] = line.currentQuantity;
  }
  const edit: OrderEdit = {
    id: nextId(),
    orderId: next.id,
    stagedQuantities,
    appId: null,
    staffNote: "Customer asked for one pair only",
    notifyCustomer: false,
    committedAt: at,
    createdAt: at,
    lineItemChanges: {
      additions: [],
      removals: removals.map(({ lineItemId, quantity }) => ({ id: lineItemId, delta: quantity })),
    },
  };
  next.edits.push(edit);
  next.updatedAt = at;
  return { order: next, edit };
}

/** Cancelled by the merchant with everything refunded and restocked, as Shopify's cancel does. */
export function withCancellation(
  order: Order,
  nextId: () => string,
  at: string,
): { order: Order; refund: Refund } {
  const { order: refunded, refund } = withRefund(
    order,
    nextId,
    order.lineItems.map((line) => ({
      lineItemId: line.id,
      quantity: line.currentQuantity,
      restockType: "cancel" as const,
    })),
    at,
  );
  refunded.cancelledAt = at;
  refunded.cancelReason = "customer";
  refunded.closedAt = at;
  for (const fulfillmentOrder of refunded.fulfillmentOrders) {
    fulfillmentOrder.status = "CANCELLED";
    for (const line of fulfillmentOrder.lines) line.remainingQuantity = 0;
  }
  return { order: refunded, refund };
}

export const SHOES_PRICE = 12999;
export const PLAN_PRICE = 1999;

export interface SampleLifecycle {
  shop: StoreShop;
  created: Order;
  shoes: LineItem;
  plan: LineItem;
  fulfillment: Fulfillment;
  partlyFulfilled: Order;
  planRefund: Refund;
  refunded: Order;
  edit: OrderEdit;
  edited: Order;
  cancelled: Order;
  cancelRefund: Refund;
}

export function sampleLifecycle(): SampleLifecycle {
  const nextId = idSequence();
  const shop = sampleShop(nextId);
  const shoesVariantId = "9007199254741999";
  const created = sampleOrder(shop, nextId, [
    { title: "Trail shoes", price: SHOES_PRICE, quantity: 2, grams: 800 },
    {
      title: "Protection plan (2 years)",
      price: PLAN_PRICE,
      quantity: 1,
      requiresShipping: false,
      properties: [
        { name: "_svc_protected_product_ref", value: shoesVariantId },
        { name: "_svc_plan", value: "2y" },
      ],
    },
  ]);
  lineAt(created, 0).variantId = shoesVariantId;
  const shoes = lineAt(created, 0);
  const plan = lineAt(created, 1);

  const { order: partlyFulfilled, fulfillment } = withFulfillment(
    created,
    nextId,
    [{ lineItemId: shoes.id, quantity: 1 }],
    "2026-11-25T14:30:00.000Z",
  );
  const { order: refunded, refund: planRefund } = withRefund(
    partlyFulfilled,
    nextId,
    [{ lineItemId: plan.id, quantity: 1, restockType: "no_restock" }],
    "2026-11-26T16:00:00.000Z",
    "Plan not wanted",
  );
  const { order: edited, edit } = withRemovalEdit(
    refunded,
    nextId,
    [{ lineItemId: shoes.id, quantity: 1 }],
    "2026-11-27T09:15:00.000Z",
  );

  const second = sampleOrder(
    shop,
    nextId,
    [
      { title: "Trail shoes", price: SHOES_PRICE, quantity: 1, grams: 800 },
      {
        title: "Protection plan (2 years)",
        price: PLAN_PRICE,
        quantity: 1,
        requiresShipping: false,
        properties: [{ name: "_svc_protected_product_ref", value: shoesVariantId }],
      },
    ],
    { number: 1002, createdAt: "2026-11-24T18:00:00.000Z" },
  );
  const { order: cancelled, refund: cancelRefund } = withCancellation(
    second,
    nextId,
    "2026-11-24T19:30:00.000Z",
  );

  return {
    shop,
    created,
    shoes,
    plan,
    fulfillment,
    partlyFulfilled,
    planRefund,
    refunded,
    edit,
    edited,
    cancelled,
    cancelRefund,
  };
}
