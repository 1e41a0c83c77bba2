/*
 * A refund as refunds/create carries it (and as the order embeds it in `refunds`), in the fields
 * and order of Shopify's 2026-04 sample. The store has no taxes, duties, shipping refunds or
 * returns, so those are Shopify's empty values.
 */
import { type JsonObject, jsonId, jsonIdOrNull } from "../json";
import type { Order, Refund, RefundLine, StoreShop, Transaction } from "../model";
import { gid } from "./gid";
import { lineOf, nestedLineItemPayload } from "./line-item";
import { moneyAmount, moneyNumber, moneySet, unsettledSet } from "./money-set";
import { shopTimestamp } from "./timestamps";

export function refundPayload(shop: StoreShop, order: Order, refund: Refund): JsonObject {
  const zone = shop.ianaTimezone;
  const currency = order.currency;
  return {
    id: jsonId(refund.id),
    order_id: jsonId(order.id),
    created_at: shopTimestamp(refund.createdAt, zone),
    note: refund.note,
    // The staff member who refunded; the store has no staff accounts.
    user_id: null,
    processed_at: shopTimestamp(refund.processedAt, zone),
    duties: [],
    total_duties_set: moneySet(0, currency),
    return: null,
    restock: refund.restock,
    refund_shipping_lines: [],
    admin_graphql_api_id: gid("Refund", refund.id),
    order_adjustments: [],
    refund_line_items: refund.lines.map((line) => refundLinePayload(order, refund, line)),
    transactions: refund.transactionIds.map((id) =>
      transactionPayload(shop, order, transactionOf(order, refund, id), refund.appId),
    ),
  };
}

function refundLinePayload(order: Order, refund: Refund, line: RefundLine): JsonObject {
  const currency = order.currency;
  const lineItem = lineOf(order, line.lineItemId, `refund ${refund.id}`);
  return {
    id: jsonId(line.id),
    quantity: line.quantity,
    line_item_id: jsonId(line.lineItemId),
    location_id: jsonIdOrNull(line.locationId),
    restock_type: line.restockType,
    subtotal: moneyNumber(line.subtotal, currency),
    total_tax: moneyNumber(line.totalTax, currency),
    subtotal_set: moneySet(line.subtotal, currency),
    total_tax_set: moneySet(line.totalTax, currency),
    line_item: nestedLineItemPayload(order, lineItem, lineItem.quantity),
  };
}

function transactionOf(order: Order, refund: Refund, id: string): Transaction {
  const transaction = order.transactions.find((candidate) => candidate.id === id);
  if (!transaction) {
    throw new Error(
      `Cannot write refund ${refund.id} of order ${order.id}: transaction ${id} is not in the order`,
    );
  }
  return transaction;
}

function transactionPayload(
  shop: StoreShop,
  order: Order,
  transaction: Transaction,
  appId: string | null,
): JsonObject {
  const zone = shop.ianaTimezone;
  const currency = order.currency;
  const createdAt = shopTimestamp(transaction.createdAt, zone);
  // Shopify numbers an order's payments "#1001.1", "#1001.2"... in the order they were made.
  const sequence = order.transactions.indexOf(transaction) + 1;
  return {
    id: jsonId(transaction.id),
    order_id: jsonId(order.id),
    kind: transaction.kind.toLowerCase(),
    gateway: transaction.gateway,
    status: transaction.status.toLowerCase(),
    message: null,
    created_at: createdAt,
    test: order.test,
    authorization: null,
    location_id: null,
    user_id: null,
    parent_id: jsonIdOrNull(transaction.parentId),
    processed_at: createdAt,
    device_id: null,
    error_code: null,
    // An app's refund carries the app's ID as its source, as in Shopify's real payloads.
    source_name: appId ?? "web",
    receipt: {},
    amount: moneyAmount(transaction.amount, currency),
    currency,
    payment_id: `${order.name}.${sequence}`,
    total_unsettled_set: unsettledSet(currency),
    manual_payment_gateway: transaction.gateway === "manual",
    amount_rounding: null,
    admin_graphql_api_id: gid("OrderTransaction", transaction.id),
  };
}
