/*
 * A line item in Shopify's two webhook shapes: the order's own (orders/*), and the shorter one
 * nested in refunds and fulfillments (refunds/create, fulfillments/*), which has no
 * `attributed_staffs`, `current_quantity` or `sales_line_item_group_id`. Quantities that depend
 * on the rest of the order (fulfilled, fulfillable, status) are computed here from the model.
 */
import { type JsonObject, jsonId, jsonIdOrNull } from "../json";
import type { Fulfillment, LineItem, Order } from "../model";
import { gid } from "./gid";
import { moneyAmount, moneySet } from "./money-set";

/** Fulfillments that hold their quantities; a cancelled or failed one gave them back. */
const HOLDING_STATUSES = new Set<Fulfillment["status"]>(["success", "open", "pending"]);

export interface LineFulfilment {
  /** Units in fulfillments that succeeded or are under way. */
  fulfilled: number;
  /** What is left to fulfil: 0 on a cancelled order. */
  fulfillable: number;
  status: "fulfilled" | "partial" | null;
}

/**
 * Shopify's REST rule, `quantity - max(refunded, fulfilled) - pending`, on the current quantity:
 * a refund that restocks (cancel, return) has already lowered `currentQuantity`, so only units
 * refunded without restock still count against what is left to ship.
 */
export function lineFulfilment(order: Order, line: LineItem): LineFulfilment {
  const fulfilled = order.fulfillments
    .filter((fulfillment) => HOLDING_STATUSES.has(fulfillment.status))
    .flatMap((fulfillment) => fulfillment.lines)
    .filter((entry) => entry.lineItemId === line.id)
    .reduce((sum, entry) => sum + entry.quantity, 0);
  const refundedInPlace = order.refunds
    .flatMap((refund) => refund.lines)
    .filter((entry) => entry.lineItemId === line.id && entry.restockType === "no_restock")
    .reduce((sum, entry) => sum + entry.quantity, 0);
  const fulfillable =
    order.cancelledAt === null
      ? Math.max(0, line.currentQuantity - Math.max(fulfilled, refundedInPlace))
      : 0;
  let status: LineFulfilment["status"] = null;
  if (fulfilled > 0) status = fulfillable === 0 ? "fulfilled" : "partial";
  return { fulfilled, fulfillable, status };
}

function commonFields(order: Order, line: LineItem) {
  const currency = order.currency;
  const fulfilment = lineFulfilment(order, line);
  return {
    id: jsonId(line.id),
    admin_graphql_api_id: gid("LineItem", line.id),
    fulfillable_quantity: fulfilment.fulfillable,
    fulfillment_service: line.giftCard ? "gift_card" : "manual",
    fulfillment_status: fulfilment.status,
    gift_card: line.giftCard,
    grams: line.grams,
    name: line.name,
    price: moneyAmount(line.price, currency),
    price_set: moneySet(line.price, currency),
    product_exists: line.productId !== null,
    product_id: jsonIdOrNull(line.productId),
    properties: line.properties.map(({ name, value }) => ({ name, value })),
    requires_shipping: line.requiresShipping,
    sku: line.sku,
    taxable: line.taxable,
    title: line.title,
    total_discount: moneyAmount(0, currency),
    total_discount_set: moneySet(0, currency),
    variant_id: jsonIdOrNull(line.variantId),
    // The store tracks no inventory; Shopify writes null for untracked variants.
    variant_inventory_management: null,
    variant_title: line.variantTitle,
    vendor: line.vendor,
  };
}

/**
 * A line of `order.line_items` (orders/* topics), in the order of Shopify's 2026-04 sample, with
 * the one field 2026-10 adds (decision 024).
 */
export function orderLineItemPayload(order: Order, line: LineItem): JsonObject {
  const common = commonFields(order, line);
  return {
    id: common.id,
    admin_graphql_api_id: common.admin_graphql_api_id,
    attributed_staffs: [],
    current_quantity: line.currentQuantity,
    fulfillable_quantity: common.fulfillable_quantity,
    fulfillment_service: common.fulfillment_service,
    fulfillment_status: common.fulfillment_status,
    gift_card: common.gift_card,
    grams: common.grams,
    name: common.name,
    price: common.price,
    price_set: common.price_set,
    product_exists: common.product_exists,
    product_id: common.product_id,
    properties: common.properties,
    quantity: line.quantity,
    requires_shipping: common.requires_shipping,
    sales_line_item_group_id: null,
    // New in 2026-10 (https://shopify.dev/changelog/orders-webhooks-now-include-selling_plan_id-on-line-items):
    // the selling plan of a subscription line, null otherwise. The store sells no subscriptions.
    selling_plan_id: null,
    sku: common.sku,
    taxable: common.taxable,
    title: common.title,
    total_discount: common.total_discount,
    total_discount_set: common.total_discount_set,
    variant_id: common.variant_id,
    variant_inventory_management: common.variant_inventory_management,
    variant_title: common.variant_title,
    vendor: common.vendor,
    tax_lines: [],
    duties: [],
    discount_allocations: [],
  };
}

/**
 * A line as refunds and fulfillments nest it. `quantity` is the line's own in a refund line's
 * `line_item`, and the quantity fulfilled in a fulfillment's `line_items`.
 */
export function nestedLineItemPayload(order: Order, line: LineItem, quantity: number): JsonObject {
  const common = commonFields(order, line);
  return {
    id: common.id,
    variant_id: common.variant_id,
    title: common.title,
    quantity,
    sku: common.sku,
    variant_title: common.variant_title,
    vendor: common.vendor,
    fulfillment_service: common.fulfillment_service,
    product_id: common.product_id,
    requires_shipping: common.requires_shipping,
    taxable: common.taxable,
    gift_card: common.gift_card,
    name: common.name,
    variant_inventory_management: common.variant_inventory_management,
    properties: common.properties,
    product_exists: common.product_exists,
    fulfillable_quantity: common.fulfillable_quantity,
    grams: common.grams,
    price: common.price,
    total_discount: common.total_discount,
    fulfillment_status: common.fulfillment_status,
    price_set: common.price_set,
    total_discount_set: common.total_discount_set,
    discount_allocations: [],
    duties: [],
    admin_graphql_api_id: common.admin_graphql_api_id,
    tax_lines: [],
  };
}

/** The order's line with this ID; a refund or fulfillment naming another is a store bug. */
export function lineOf(order: Order, lineItemId: string, owner: string): LineItem {
  const line = order.lineItems.find((candidate) => candidate.id === lineItemId);
  if (!line) {
    throw new Error(
      `Cannot write ${owner} of order ${order.id}: line item ${lineItemId} is not in the order`,
    );
  }
  return line;
}
