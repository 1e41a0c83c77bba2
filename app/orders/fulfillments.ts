import type { FulfillmentItem } from "../protection/types";
import {
  type JsonObject,
  fieldPath,
  requireArray,
  requireId,
  requireObject,
  requireQuantity,
  requireTimestamp,
} from "./payload-reader";
import type { DerivedEvent, MappingResult } from "./types";

/**
 * fulfillments/create and fulfillments/update. Only a fulfillment in status `success` is
 * reported, under one key per fulfillment, so that seeing the success twice sends it once.
 */
export function toFulfillmentEvents(
  fulfillment: JsonObject,
  topic: "fulfillments/create" | "fulfillments/update",
): MappingResult {
  const orderId = requireId(fulfillment.order_id, "order_id");
  const fulfillmentId = requireId(fulfillment.id, "id");
  const status = fulfillment.status;
  if (status === undefined || status === null) {
    return { kind: "unprocessable", orderId, reason: "status is missing" };
  }
  if (status !== "success") {
    return {
      kind: "ignored",
      orderId,
      detail: `fulfillment ${fulfillmentId} has status ${String(status)}; only success is reported`,
    };
  }
  // An update that reports success is the moment the fulfillment succeeded; created_at may be
  // when a pending fulfillment was first requested.
  const fulfilledAt = requireTimestamp(
    fulfillment,
    topic === "fulfillments/update" ? ["updated_at", "created_at"] : ["created_at"],
  );
  const items: FulfillmentItem[] = [];
  requireArray(fulfillment.line_items, "line_items").forEach((raw, index) => {
    const path = fieldPath("line_items", index);
    const line = requireObject(raw, path);
    const lineItemId = requireId(line.id, fieldPath(path, "id"));
    const quantity = requireQuantity(line.quantity, fieldPath(path, "quantity"));
    if (quantity > 0) items.push({ line_item_id: lineItemId, quantity, fulfilled_at: fulfilledAt });
  });
  if (items.length === 0) {
    return {
      kind: "ignored",
      orderId,
      detail: `fulfillment ${fulfillmentId} has no line item with a quantity; nothing to report`,
    };
  }
  const event: DerivedEvent = {
    dedupeKey: `fulfillment:${fulfillmentId}`,
    event: {
      type: "order_fulfillment_added",
      payload: { order_id: orderId, fulfillment_items: items },
    },
  };
  return {
    kind: "events",
    orderId,
    events: [event],
    detail: `order_fulfillment_added with ${items.length} line item(s)`,
  };
}
