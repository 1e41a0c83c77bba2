import { gidNumber } from "../lib/shopify-id";
import type { JsonObject } from "./payload-reader";
import type { OrderTopic } from "./types";

/*
 * An order read from the Admin API, as the webhooks Shopify would have sent for it (issue 17,
 * decisions 028 and 029). Reconciliation and the backfill feed these through the same mapping
 * and recording as real webhooks: the events come out under the same keys (built from Shopify's
 * object IDs), so an event is never recorded twice, whichever of the two saw it first.
 */

export interface ApiMoney {
  amount: string;
  currencyCode: string;
}

export interface ApiAddress {
  firstName?: string | null;
  lastName?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  zip?: string | null;
  countryCodeV2?: string | null;
}

export interface ApiLineItem {
  id: string;
  quantity: number;
  title: string;
  vendor?: string | null;
  customAttributes: { key: string; value?: string | null }[];
  originalUnitPriceSet: { shopMoney: ApiMoney };
  variant?: { id: string } | null;
}

interface ApiLineQuantity {
  quantity?: number | null;
  lineItem: { id: string };
}

export interface ApiFulfillment {
  id: string;
  status: string;
  createdAt: string;
  fulfillmentLineItems: { nodes: ApiLineQuantity[] };
}

export interface ApiRefund {
  id: string;
  note?: string | null;
  createdAt?: string | null;
  processedAt?: string | null;
  refundLineItems: { nodes: (ApiLineQuantity & { restockType: string })[] };
}

export interface ApiAgreement {
  id: string;
  happenedAt: string;
  reason: string;
  sales?: { nodes: { actionType: string; quantity?: number | null; lineItem?: { id: string } }[] };
}

/** The fields of `RECONCILE_ORDERS_QUERY`; a bulk result has no agreements (and no pageInfo). */
export interface ApiOrder {
  id: string;
  name: string;
  email?: string | null;
  createdAt: string;
  processedAt: string;
  updatedAt: string;
  cancelledAt?: string | null;
  currencyCode: string;
  cartToken?: string | null;
  /** The cart's attributes, the webhook's note_attributes (the embed's session ID, decision 033). */
  customAttributes?: { key: string; value?: string | null }[];
  /** Read by the backfill, which cannot read agreements: an edited order is read again by ID. */
  edited?: boolean;
  billingAddress?: ApiAddress | null;
  shippingAddress?: ApiAddress | null;
  lineItems: { pageInfo?: { hasNextPage: boolean }; nodes: ApiLineItem[] };
  fulfillments: ApiFulfillment[];
  refunds: ApiRefund[];
  /** Absent when not read: the order's edits are then unknown. */
  agreements?: { nodes: ApiAgreement[] };
}

/** One webhook Shopify would have sent, with the ID of the object it is about. */
export interface RecoveredWebhook {
  topic: OrderTopic;
  objectId: string;
  payload: JsonObject;
}

export interface ApiOrderReading {
  orderId: string;
  /** order_placed's webhook first, then the others in the order they happened. */
  webhooks: RecoveredWebhook[];
  /**
   * When the order must be read again: an edit too recent to recover (its webhook may still
   * come), or edits this reading could not see. Null when everything was read.
   */
  readAgainAt: string | null;
}

export interface ReadingOptions {
  now: Date;
  /**
   * How long an order edit's webhook may still arrive (Shopify retries for about four hours).
   * Whether an edit agreement's ID is the webhook's `order_edit.id` is not confirmed (decision
   * 028): recovering only edits older than this means a late webhook can never repeat one.
   */
  editSettleMs: number;
}

const RESTOCK_TYPES: Record<string, string> = {
  CANCEL: "cancel",
  NO_RESTOCK: "no_restock",
  RETURN: "return",
  LEGACY_RESTOCK: "legacy_restock",
};

function numeric(gid: string): string {
  const id = gidNumber(gid);
  if (id === null) throw new Error(`Not a Shopify global ID: ${gid}`);
  return id;
}

function addressPayload(address: ApiAddress | null | undefined): JsonObject | null {
  if (!address) return null;
  return {
    first_name: address.firstName ?? null,
    last_name: address.lastName ?? null,
    address1: address.address1 ?? null,
    address2: address.address2 ?? null,
    city: address.city ?? null,
    zip: address.zip ?? null,
    country_code: address.countryCodeV2 ?? null,
  };
}

/** A line as the order webhooks carry it: what the order_placed mapping and plan triggers read. */
function linePayload(line: ApiLineItem): JsonObject {
  const money = line.originalUnitPriceSet.shopMoney;
  return {
    id: numeric(line.id),
    quantity: line.quantity,
    title: line.title,
    vendor: line.vendor ?? null,
    variant_id: line.variant ? numeric(line.variant.id) : null,
    price_set: { shop_money: { amount: money.amount, currency_code: money.currencyCode } },
    properties: line.customAttributes.map(({ key, value }) => ({ name: key, value: value ?? "" })),
  };
}

interface EditChange {
  id: string;
  delta: number;
}

interface EditReading {
  agreement: ApiAgreement;
  additions: EditChange[];
  removals: EditChange[];
}

/** The units each order edit added and removed, line by line. */
function editsOf(order: ApiOrder): EditReading[] {
  const agreements = order.agreements?.nodes ?? [];
  return agreements
    .filter((agreement) => agreement.reason === "ORDER_EDIT")
    .map((agreement) => {
      const additions: EditChange[] = [];
      const removals: EditChange[] = [];
      for (const sale of agreement.sales?.nodes ?? []) {
        const units = Math.abs(sale.quantity ?? 0);
        if (!sale.lineItem || units === 0) continue;
        const change = { id: numeric(sale.lineItem.id), delta: units };
        if (sale.actionType === "RETURN") removals.push(change);
        if (sale.actionType === "ORDER") additions.push(change);
      }
      return { agreement, additions, removals };
    });
}

/**
 * Lines an edit added to the order: orders/create never carried them. A line counts as added
 * when edits ordered all of its units.
 */
function addedLineIds(edits: EditReading[], lines: ApiLineItem[]): Set<string> {
  const added = new Map<string, number>();
  for (const change of edits.flatMap((edit) => edit.additions)) {
    added.set(change.id, (added.get(change.id) ?? 0) + change.delta);
  }
  return new Set(
    lines
      .filter((line) => (added.get(numeric(line.id)) ?? 0) >= line.quantity)
      .map((line) => numeric(line.id)),
  );
}

/**
 * The order's orders/create. Shopify's carries the customer; reading the customer needs
 * `read_customers`, which the app does not ask for, so the buyer's name comes from the billing
 * (else shipping) address, as the mapping reads it when a webhook has no customer (decision 029).
 */
function placedWebhook(order: ApiOrder, orderId: string, added: Set<string>): RecoveredWebhook {
  return {
    topic: "orders/create",
    objectId: orderId,
    payload: {
      id: orderId,
      name: order.name,
      email: order.email ?? null,
      created_at: order.createdAt,
      processed_at: order.processedAt,
      currency: order.currencyCode,
      cart_token: order.cartToken ?? null,
      note_attributes: (order.customAttributes ?? []).map(({ key, value }) => ({
        name: key,
        value: value ?? "",
      })),
      customer: null,
      billing_address: addressPayload(order.billingAddress),
      shipping_address: addressPayload(order.shippingAddress),
      line_items: order.lineItems.nodes
        .filter((line) => !added.has(numeric(line.id)))
        .map(linePayload),
    },
  };
}

interface Timed {
  at: string;
  webhook: RecoveredWebhook;
}

function fulfillmentWebhooks(order: ApiOrder, orderId: string, lines: Map<string, JsonObject>) {
  return order.fulfillments.map((fulfillment): Timed => {
    const id = numeric(fulfillment.id);
    return {
      at: fulfillment.createdAt,
      webhook: {
        topic: "fulfillments/create",
        objectId: id,
        payload: {
          id,
          order_id: orderId,
          status: fulfillment.status.toLowerCase(),
          created_at: fulfillment.createdAt,
          line_items: fulfillment.fulfillmentLineItems.nodes.map((entry) => {
            const lineId = numeric(entry.lineItem.id);
            return { ...(lines.get(lineId) ?? { id: lineId }), quantity: entry.quantity ?? 0 };
          }),
        },
      },
    };
  });
}

function refundWebhooks(order: ApiOrder, orderId: string, lines: Map<string, JsonObject>) {
  return order.refunds.map((refund): Timed => {
    const id = numeric(refund.id);
    const at = refund.processedAt ?? refund.createdAt ?? order.updatedAt;
    return {
      at,
      webhook: {
        topic: "refunds/create",
        objectId: id,
        payload: {
          id,
          order_id: orderId,
          note: refund.note ?? null,
          created_at: refund.createdAt ?? at,
          processed_at: at,
          refund_line_items: refund.refundLineItems.nodes.map((entry) => {
            const lineId = numeric(entry.lineItem.id);
            return {
              line_item_id: lineId,
              quantity: entry.quantity ?? 0,
              restock_type: RESTOCK_TYPES[entry.restockType] ?? entry.restockType.toLowerCase(),
              line_item: lines.get(lineId) ?? { id: lineId },
            };
          }),
        },
      },
    };
  });
}

function editWebhook(orderId: string, edit: EditReading): Timed {
  const id = numeric(edit.agreement.id);
  const at = edit.agreement.happenedAt;
  return {
    at,
    webhook: {
      topic: "orders/edited",
      objectId: id,
      payload: {
        order_edit: {
          id,
          order_id: orderId,
          created_at: at,
          committed_at: at,
          line_items: { additions: edit.additions, removals: edit.removals },
        },
      },
    },
  };
}

function cancelWebhook(order: ApiOrder, orderId: string, cancelledAt: string): Timed {
  return {
    at: cancelledAt,
    webhook: {
      topic: "orders/cancelled",
      objectId: orderId,
      payload: {
        id: orderId,
        name: order.name,
        cancelled_at: cancelledAt,
        refunds: order.refunds.map((refund) => ({ id: numeric(refund.id) })),
      },
    },
  };
}

/**
 * The webhooks an order read from the Admin API stands for. Edits are left for a later reading
 * while their webhook may still come, and when the reading has no agreements (a bulk result) of
 * an edited order.
 */
export function webhooksOfApiOrder(order: ApiOrder, options: ReadingOptions): ApiOrderReading {
  const orderId = numeric(order.id);
  if (order.agreements === undefined && order.edited) {
    // Without its agreements, lines an edit added cannot be told from the placed ones.
    return { orderId, webhooks: [], readAgainAt: options.now.toISOString() };
  }
  const edits = editsOf(order);
  const lines = new Map(order.lineItems.nodes.map((line) => [numeric(line.id), linePayload(line)]));
  const settledBefore = options.now.getTime() - options.editSettleMs;
  const settled = edits.filter((edit) => Date.parse(edit.agreement.happenedAt) <= settledBefore);
  const unsettled = edits.filter((edit) => !settled.includes(edit));

  const followUps: Timed[] = [
    ...fulfillmentWebhooks(order, orderId, lines),
    ...refundWebhooks(order, orderId, lines),
    ...settled.filter((edit) => edit.removals.length > 0).map((edit) => editWebhook(orderId, edit)),
    ...(order.cancelledAt ? [cancelWebhook(order, orderId, order.cancelledAt)] : []),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));

  const dueTimes = unsettled.map(
    (edit) => Date.parse(edit.agreement.happenedAt) + options.editSettleMs,
  );
  const readAgainAt = dueTimes.length ? new Date(Math.max(...dueTimes)).toISOString() : null;
  return {
    orderId,
    webhooks: [
      placedWebhook(order, orderId, addedLineIds(edits, order.lineItems.nodes)),
      ...followUps.map((timed) => timed.webhook),
    ],
    readAgainAt,
  };
}

/** An order as the reconciliation list reads it: enough to see whether its events are recorded. */
export interface ApiOrderHeader {
  id: string;
  updatedAt: string;
  cancelledAt?: string | null;
  edited: boolean;
  fulfillments: { id: string; status: string }[];
  refunds: { id: string }[];
}

/** How many fulfilments and refunds the list reads of an order; at the cap, it reads it whole. */
export const HEADER_LIST_CAP = 5;

/**
 * Whether the outbox holds every event an order's header shows: its placement, each successful
 * fulfilment, each refund (as a refund or as cancelled lines) and its cancellation. An order left
 * unreported on purpose (`placedIgnored`) is complete as it is. An edited order, or one whose
 * lists reach the cap, is read whole: its header cannot show its edits or its last refunds.
 * A refund that carries no line (shipping only) has no event: its order is read whole while it
 * is in the window, and nothing is recorded for it.
 */
export function headerLooksComplete(
  header: ApiOrderHeader,
  hasKey: (key: string) => boolean,
  placedIgnored: boolean,
): boolean {
  const orderId = numeric(header.id);
  if (!hasKey(`order:${orderId}:placed`)) return placedIgnored;
  if (header.edited) return false;
  if (header.fulfillments.length >= HEADER_LIST_CAP || header.refunds.length >= HEADER_LIST_CAP)
    return false;
  const cancelledKey = `order:${orderId}:cancelled`;
  if (header.cancelledAt && !hasKey(cancelledKey)) return false;
  const fulfilled = header.fulfillments
    .filter((fulfillment) => fulfillment.status === "SUCCESS")
    .every((fulfillment) => hasKey(`fulfillment:${numeric(fulfillment.id)}`));
  // A cancelled order's cancel refund repeats its cancellation, which order_cancelled says.
  const refunded = header.refunds.every((refund) => {
    const id = numeric(refund.id);
    return (
      hasKey(`refund:${id}:refunded`) || hasKey(`refund:${id}:cancelled`) || hasKey(cancelledKey)
    );
  });
  return fulfilled && refunded;
}

/** The keys `headerLooksComplete` asks about, to look them up in one query. */
export function headerKeys(header: ApiOrderHeader): string[] {
  const orderId = numeric(header.id);
  return [
    `order:${orderId}:placed`,
    `order:${orderId}:cancelled`,
    ...header.fulfillments.map((fulfillment) => `fulfillment:${numeric(fulfillment.id)}`),
    ...header.refunds.flatMap((refund) => {
      const id = numeric(refund.id);
      return [`refund:${id}:refunded`, `refund:${id}:cancelled`];
    }),
  ];
}

/** The numeric ID of an order's global ID. */
export function orderNumericId(order: { id: string }): string {
  return numeric(order.id);
}
