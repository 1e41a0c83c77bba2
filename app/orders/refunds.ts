import type { CancelledLineItem, RefundItem } from "../protection/types";
import {
  type JsonObject,
  isJsonObject,
  lineQuantities,
  requireArray,
  requireId,
  requireTimestamp,
} from "./payload-reader";
import { type DerivedEvent, type MappingResult, ignored } from "./types";

/** The key of a refund's cancelled lines; orders/cancelled drops unsent ones by it. */
export function refundCancellationKey(refundId: string): string {
  return `refund:${refundId}:cancelled`;
}

// Some payloads name the line item only inside `line_item`.
const LINE_FIELDS = {
  idKey: "line_item_id",
  quantityKey: "quantity",
  idOf: (line: JsonObject) =>
    line.line_item_id ?? (isJsonObject(line.line_item) ? line.line_item.id : undefined),
};

/**
 * refunds/create. Lines restocked as `cancel` were never shipped: they are cancelled line items.
 * Every other line (returned, not restocked, legacy, unknown) is a refund.
 */
export function toRefundEvents(refund: JsonObject): MappingResult {
  const orderId = requireId(refund.order_id, "order_id");
  const refundId = requireId(refund.id, "id");
  const rawLines = requireArray(refund.refund_line_items, "refund_line_items");
  if (rawLines.length === 0) {
    return ignored(
      orderId,
      `refund ${refundId} has no line items (shipping or amount only); nothing to report`,
    );
  }
  const at = requireTimestamp(refund, ["processed_at", "created_at"]);
  const cancelled: CancelledLineItem[] = [];
  const refunded: RefundItem[] = [];
  const lines = lineQuantities(rawLines, "refund_line_items", LINE_FIELDS);
  for (const { line, lineItemId, quantity } of lines) {
    if (line.restock_type === "cancel") {
      cancelled.push({ line_item_id: lineItemId, quantity, cancelled_at: at });
    } else {
      refunded.push({ line_item_id: lineItemId, quantity, refunded_at: at });
    }
  }

  const events: DerivedEvent[] = [];
  const details: string[] = [];
  if (cancelled.length > 0) {
    events.push({
      dedupeKey: refundCancellationKey(refundId),
      refundId,
      event: {
        type: "order_line_items_cancelled",
        payload: { order_id: orderId, cancelled_line_items: cancelled },
      },
    });
    details.push(`order_line_items_cancelled with ${cancelled.length} line item(s)`);
  }
  if (refunded.length > 0) {
    events.push({
      dedupeKey: `refund:${refundId}:refunded`,
      refundId,
      event: {
        type: "order_refund_added",
        payload: { order_id: orderId, refund_items: refunded },
      },
    });
    details.push(`order_refund_added with ${refunded.length} line item(s)`);
  }
  if (events.length === 0) {
    return ignored(
      orderId,
      `refund ${refundId} has no line item with a quantity; nothing to report`,
    );
  }
  return { kind: "events", orderId, events, detail: details.join("; ") };
}
