/*
 * The order as the orders/* topics carry it (create, updated, paid, fulfilled,
 * partially_fulfilled, cancelled), in the fields and order of Shopify's 2026-04 orders/create
 * sample. Totals follow from the lines and transactions: the store has no taxes, discounts,
 * shipping lines, duties or tips, so those are Shopify's zero values, and `current_*` totals
 * reflect what refunds, cancels and edits removed (`currentQuantity`).
 */
import { type JsonObject, jsonId } from "../json";
import type { Customer, Order, StoreShop, Transaction } from "../model";
import { embeddedFulfillmentPayload } from "./fulfillment";
import { gid } from "./gid";
import { lineFulfilment, orderLineItemPayload } from "./line-item";
import { moneyAmount, moneySet } from "./money-set";
import { refundPayload } from "./refund";
import { shopTimestamp, shopTimestampOrNull } from "./timestamps";

export type FinancialStatus =
  "pending" | "authorized" | "paid" | "partially_refunded" | "refunded" | "voided";

function succeeded(order: Order, kinds: Transaction["kind"][]): Transaction[] {
  return order.transactions.filter(
    (transaction) => transaction.status === "SUCCESS" && kinds.includes(transaction.kind),
  );
}

const total = (transactions: Transaction[]): number =>
  transactions.reduce((sum, transaction) => sum + transaction.amount, 0);

/** What the customer paid (sales and captures) and what went back (refunds), minor units. */
export function paymentTotals(order: Order): { paid: number; refunded: number } {
  return {
    paid: total(succeeded(order, ["SALE", "CAPTURE"])),
    refunded: total(succeeded(order, ["REFUND"])),
  };
}

export function financialStatus(order: Order): FinancialStatus {
  if (succeeded(order, ["VOID"]).length > 0) return "voided";
  const { paid, refunded } = paymentTotals(order);
  if (paid === 0) return succeeded(order, ["AUTHORIZATION"]).length > 0 ? "authorized" : "pending";
  if (refunded === 0) return "paid";
  return refunded >= paid ? "refunded" : "partially_refunded";
}

/** null until a line is fulfilled, "fulfilled" once nothing is left to fulfil, else "partial". */
export function orderFulfillmentStatus(order: Order): "fulfilled" | "partial" | null {
  const lines = order.lineItems.map((line) => lineFulfilment(order, line));
  if (!lines.some((line) => line.fulfilled > 0)) return null;
  return lines.every((line) => line.fulfillable === 0) ? "fulfilled" : "partial";
}

function customerPayload(order: Order, customer: Customer): JsonObject {
  return {
    id: jsonId(customer.id),
    created_at: null,
    updated_at: null,
    first_name: customer.firstName,
    last_name: customer.lastName,
    // A customer who checked out without an account, as Shopify creates one.
    state: "disabled",
    note: null,
    verified_email: false,
    multipass_identifier: null,
    tax_exempt: false,
    email: customer.email,
    phone: customer.phone,
    currency: order.currency,
    tax_exemptions: [],
    admin_graphql_api_id: gid("Customer", customer.id),
    default_address: null,
  };
}

/** Shopify's `merchant_business_entity_id`: in every sample, base64 of "1" and the shop's ID. */
function merchantBusinessEntityId(shop: StoreShop): string {
  return Buffer.from(`1${shop.id}`).toString("base64").replace(/=+$/, "");
}

export function orderPayload(shop: StoreShop, order: Order): JsonObject {
  const zone = shop.ianaTimezone;
  const currency = order.currency;
  const money = (minorUnits: number): string => moneyAmount(minorUnits, currency);
  const set = (minorUnits: number): JsonObject => moneySet(minorUnits, currency);

  const lineItemsTotal = order.lineItems.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const currentSubtotal = order.lineItems.reduce(
    (sum, line) => sum + line.price * line.currentQuantity,
    0,
  );
  const { paid, refunded } = paymentTotals(order);
  const outstanding = Math.max(0, currentSubtotal - (paid - refunded));
  const gateways = [
    ...new Set(succeeded(order, ["SALE", "AUTHORIZATION"]).map((sale) => sale.gateway)),
  ];
  const timestamp = (iso: string): string => shopTimestamp(iso, zone);

  return {
    id: jsonId(order.id),
    admin_graphql_api_id: gid("Order", order.id),
    app_id: null,
    browser_ip: null,
    buyer_accepts_marketing: false,
    cancel_reason: order.cancelReason,
    cancelled_at: shopTimestampOrNull(order.cancelledAt, zone),
    cart_token: order.cartToken,
    checkout_token: order.checkoutToken,
    client_details: null,
    closed_at: shopTimestampOrNull(order.closedAt, zone),
    confirmation_number: null,
    confirmed: true,
    contact_email: order.email,
    created_at: timestamp(order.createdAt),
    currency,
    current_shipping_price_set: set(0),
    current_subtotal_price: money(currentSubtotal),
    current_subtotal_price_set: set(currentSubtotal),
    current_total_additional_fees_set: null,
    current_total_discounts: money(0),
    current_total_discounts_set: set(0),
    current_total_duties_set: null,
    current_total_price: money(currentSubtotal),
    current_total_price_set: set(currentSubtotal),
    current_total_tax: money(0),
    current_total_tax_set: set(0),
    customer_locale: null,
    device_id: null,
    discount_codes: [],
    duties_included: false,
    email: order.email,
    estimated_taxes: false,
    financial_status: financialStatus(order),
    fulfillment_status: orderFulfillmentStatus(order),
    landing_site: null,
    landing_site_ref: null,
    location_id: null,
    merchant_business_entity_id: merchantBusinessEntityId(shop),
    merchant_of_record_app_id: null,
    name: order.name,
    note: order.note,
    note_attributes: order.noteAttributes.map(({ name, value }) => ({ name, value })),
    // Shopify's `number` counts from 1; `order_number` (the model's number) from 1001.
    number: order.number - 1000,
    order_number: order.number,
    // The local store has no order status page to link to.
    order_status_url: null,
    original_total_additional_fees_set: null,
    original_total_duties_set: null,
    payment_gateway_names: gateways,
    phone: null,
    po_number: null,
    presentment_currency: order.presentmentCurrency,
    processed_at: timestamp(order.processedAt),
    reference: null,
    referring_site: null,
    source_identifier: null,
    source_name: order.sourceName,
    source_url: null,
    subtotal_price: money(lineItemsTotal),
    subtotal_price_set: set(lineItemsTotal),
    tags: order.tags.join(", "),
    tax_exempt: false,
    tax_lines: [],
    taxes_included: false,
    test: order.test,
    token: order.token,
    total_cash_rounding_payment_adjustment_set: set(0),
    total_cash_rounding_refund_adjustment_set: set(0),
    total_discounts: money(0),
    total_discounts_set: set(0),
    total_line_items_price: money(lineItemsTotal),
    total_line_items_price_set: set(lineItemsTotal),
    total_outstanding: money(outstanding),
    total_price: money(lineItemsTotal),
    total_price_set: set(lineItemsTotal),
    total_shipping_price_set: set(0),
    total_tax: money(0),
    total_tax_set: set(0),
    total_tip_received: money(0),
    total_weight: order.lineItems.reduce((sum, line) => sum + line.grams * line.quantity, 0),
    updated_at: timestamp(order.updatedAt),
    user_id: null,
    billing_address: null,
    customer: order.customer === null ? null : customerPayload(order, order.customer),
    discount_applications: [],
    fulfillments: order.fulfillments.map((fulfillment) =>
      embeddedFulfillmentPayload(shop, order, fulfillment),
    ),
    line_items: order.lineItems.map((line) => orderLineItemPayload(order, line)),
    payment_terms: null,
    refunds: order.refunds.map((refund) => refundPayload(shop, order, refund)),
    shipping_address: null,
    shipping_lines: [],
    returns: [],
    line_item_groups: [],
  };
}
