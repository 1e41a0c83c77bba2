import { toCheckoutConfirmation } from "./checkout-confirmation";
import { toFulfillmentEvents } from "./fulfillments";
import { idString } from "../lib/shopify-id";
import { toOrderCancelledEvents } from "./order-cancelled";
import { toOrderEditEvents } from "./order-edits";
import { hasPlanLine, toOrderPlacedEvent } from "./order-placed";
import {
  type JsonObject,
  UnprocessablePayload,
  isJsonObject,
  requireArray,
  requireId,
} from "./payload-reader";
import { toRefundEvents } from "./refunds";
import {
  type DerivedEvent,
  type MappingOptions,
  type MappingResult,
  type OrderTopic,
  ignored,
} from "./types";

/** The key of the REST API's wrapper object ({"order": {...}}) for each topic, if it has one. */
const WRAPPER_KEY: Record<OrderTopic, string | null> = {
  "orders/create": "order",
  "orders/cancelled": "order",
  "fulfillments/create": "fulfillment",
  "fulfillments/update": "fulfillment",
  "refunds/create": "refund",
  "orders/edited": null,
};

/**
 * The protection service events one Shopify order webhook stands for. Never throws for bad
 * input: a payload that cannot be mapped is "unprocessable", with a reason naming the field.
 */
export function mapOrderWebhook(
  topic: OrderTopic,
  payload: unknown,
  options: MappingOptions,
): MappingResult {
  if (!isJsonObject(payload)) {
    return { kind: "unprocessable", orderId: null, reason: "payload is not a JSON object" };
  }
  const body = unwrap(payload, WRAPPER_KEY[topic]);
  try {
    switch (topic) {
      case "orders/create":
        return mapOrderCreated(body, options);
      case "fulfillments/create":
      case "fulfillments/update":
        return toFulfillmentEvents(body, topic);
      case "refunds/create":
        return toRefundEvents(body);
      case "orders/cancelled":
        return toOrderCancelledEvents(body);
      case "orders/edited":
        return toOrderEditEvents(body);
    }
  } catch (error) {
    if (!(error instanceof UnprocessablePayload)) throw error;
    return { kind: "unprocessable", orderId: orderIdOf(topic, body), reason: error.message };
  }
}

function mapOrderCreated(order: JsonObject, options: MappingOptions): MappingResult {
  const orderId = requireId(order.id, "id");
  const lines = requireArray(order.line_items, "line_items");
  if (lines.length === 0) {
    return ignored(orderId, `order ${orderId} has no line items; nothing to report`);
  }
  // Checked before the full mapping, so that an order the service never hears about is not
  // reported as unprocessable for a field the service would never have seen.
  if (!options.reportOrdersWithoutPlan && !hasPlanLine(lines)) {
    return ignored(
      orderId,
      `order ${orderId} has no protection plan line; not reported (reportOrdersWithoutPlan is off)`,
    );
  }
  const { payload, planLineCount } = toOrderPlacedEvent(order);
  const events: DerivedEvent[] = [
    { dedupeKey: `order:${orderId}:placed`, event: { type: "order_placed", payload } },
  ];
  const details = [
    `order_placed with ${payload.line_items.length} line item(s), ${planLineCount} plan line(s)`,
  ];
  const checkout = toCheckoutConfirmation(order, payload.order_id);
  if (checkout.kind === "confirmation") {
    // Its own key: recorded with the placement, once, and sent after it in the order's lane.
    events.push({
      dedupeKey: `order:${orderId}:cart_checkout`,
      event: { type: "cart_checkout", payload: checkout.confirmation },
    });
    details.push("checkout confirmation");
  }
  return { kind: "events", orderId, events, detail: details.join("; ") };
}

/**
 * Why an orders/create's mapping holds no checkout confirmation, for the log; null when it holds
 * one, and for other topics. An order whose placement is not reported sends none either: the
 * confirmation can only follow its order_placed (decision 033).
 */
export function missingConfirmationReason(
  topic: OrderTopic,
  payload: unknown,
  mapping: MappingResult,
): string | null {
  if (topic !== "orders/create") return null;
  switch (mapping.kind) {
    case "unprocessable":
      return "no checkout confirmation: the order is unprocessable";
    case "ignored":
      return "no checkout confirmation: the order's placement is not reported";
    case "events": {
      if (mapping.events.some((derived) => derived.event.type === "cart_checkout")) return null;
      const order = webhookResource(topic, payload);
      if (order === null) return "no checkout confirmation: the payload is not an order";
      const checkout = toCheckoutConfirmation(order, mapping.orderId);
      return checkout.kind === "none" ? checkout.reason : null;
    }
  }
}

/** The longest order name kept: Shopify's are short ("#1001"); a longer one is not a name. */
const MAX_ORDER_NAME_LENGTH = 255;

/**
 * The order's name as the merchant knows it ("#1001"), from a topic whose payload is the order.
 * Refunds, fulfillments and order edits carry only the order's ID: null for them.
 */
export function orderNameOf(topic: OrderTopic, payload: unknown): string | null {
  if (topic !== "orders/create" && topic !== "orders/cancelled") return null;
  const name = webhookResource(topic, payload)?.name;
  if (typeof name !== "string") return null;
  const trimmed = name.trim();
  return trimmed && trimmed.length <= MAX_ORDER_NAME_LENGTH ? trimmed : null;
}

/** The resource a topic's payload holds (a refund, an order...), or null when it is no object. */
export function webhookResource(topic: OrderTopic, payload: unknown): JsonObject | null {
  return isJsonObject(payload) ? unwrap(payload, WRAPPER_KEY[topic]) : null;
}

/** The REST API wraps a resource as {"order": {...}}; a webhook body is the resource itself. */
function unwrap(payload: JsonObject, key: string | null): JsonObject {
  if (key === null) return payload;
  const keys = Object.keys(payload);
  const inner = payload[key];
  return keys.length === 1 && keys[0] === key && isJsonObject(inner) ? inner : payload;
}

function orderIdOf(topic: OrderTopic, body: JsonObject): string | null {
  switch (topic) {
    case "orders/create":
    case "orders/cancelled":
      return idString(body.id);
    case "fulfillments/create":
    case "fulfillments/update":
    case "refunds/create":
      return idString(body.order_id);
    case "orders/edited":
      return isJsonObject(body.order_edit) ? idString(body.order_edit.order_id) : null;
  }
}
