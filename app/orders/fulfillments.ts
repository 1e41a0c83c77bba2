import type { FulfillmentItem } from "../protection/types";
import {
  type JsonObject,
  lineQuantities,
  requireArray,
  requireId,
  requireTimestamp,
} from "./payload-reader";
import { type DerivedEvent, type MappingResult, ignored } from "./types";

const LINE_FIELDS = { idKey: "id", quantityKey: "quantity" };

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
    return ignored(
      orderId,
      `fulfillment ${fulfillmentId} has status ${String(status)}; only success is reported`,
    );
  }
  // An update that reports success is the moment the fulfillment succeeded; created_at may be
  // when a pending fulfillment was first requested.
  const fulfilledAt = requireTimestamp(
    fulfillment,
    topic === "fulfillments/update" ? ["updated_at", "created_at"] : ["created_at"],
  );
  const lines = requireArray(fulfillment.line_items, "line_items");
  const items: FulfillmentItem[] = [];
  for (const { lineItemId, quantity } of lineQuantities(lines, "line_items", LINE_FIELDS)) {
    items.push({ line_item_id: lineItemId, quantity, fulfilled_at: fulfilledAt });
  }
  if (items.length === 0) {
    return ignored(
      orderId,
      `fulfillment ${fulfillmentId} has no line item with a quantity; nothing to report`,
    );
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
