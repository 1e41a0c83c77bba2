/*
 * A fulfillment as fulfillments/create and fulfillments/update carry it, in the fields and order
 * of Shopify's 2026-04 sample, and as the order embeds it in `fulfillments`: there, every real
 * payload we hold (orders/updated, orders/fulfilled, Gadget's 2025-04 capture) leaves out
 * `destination` and `email`.
 */
import { type JsonObject, jsonId } from "../json";
import type { Fulfillment, Order, StoreShop } from "../model";
import { gid } from "./gid";
import { lineOf, nestedLineItemPayload } from "./line-item";
import { shopTimestamp } from "./timestamps";

export function fulfillmentPayload(
  shop: StoreShop,
  order: Order,
  fulfillment: Fulfillment,
): JsonObject {
  const zone = shop.ianaTimezone;
  return {
    id: jsonId(fulfillment.id),
    order_id: jsonId(order.id),
    status: fulfillment.status,
    created_at: shopTimestamp(fulfillment.createdAt, zone),
    service: "manual",
    updated_at: shopTimestamp(fulfillment.updatedAt, zone),
    tracking_company: fulfillment.trackingCompany,
    shipment_status: fulfillment.shipmentStatus,
    location_id: jsonId(fulfillment.locationId),
    origin_address: null,
    email: order.email,
    // The shipping address; the store's orders have none.
    destination: null,
    line_items: fulfillment.lines.map(({ lineItemId, quantity }) =>
      nestedLineItemPayload(
        order,
        lineOf(order, lineItemId, `fulfillment ${fulfillment.id}`),
        quantity,
      ),
    ),
    tracking_number: fulfillment.trackingNumbers[0] ?? null,
    tracking_numbers: [...fulfillment.trackingNumbers],
    tracking_url: fulfillment.trackingUrls[0] ?? null,
    tracking_urls: [...fulfillment.trackingUrls],
    receipt: {},
    name: fulfillment.name,
    admin_graphql_api_id: gid("Fulfillment", fulfillment.id),
  };
}

/** The fulfillment as `order.fulfillments` lists it. */
export function embeddedFulfillmentPayload(
  shop: StoreShop,
  order: Order,
  fulfillment: Fulfillment,
): JsonObject {
  const {
    email: _email,
    destination: _destination,
    ...embedded
  } = fulfillmentPayload(shop, order, fulfillment);
  return embedded;
}
