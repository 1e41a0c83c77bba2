import {
  type JsonObject,
  fieldPath,
  optionalArray,
  requireId,
  requireObject,
  requireTimestamp,
} from "./payload-reader";
import type { MappingResult } from "./types";

/**
 * orders/cancelled. Shopify cancels an order together with a refund whose lines are restocked as
 * `cancel`; its refunds/create repeats the cancellation line by line. The refund IDs listed here
 * let the caller drop those repeated line cancellations.
 */
export function toOrderCancelledEvents(order: JsonObject): MappingResult {
  const orderId = requireId(order.id, "id");
  const cancelledAt = requireTimestamp(order, ["cancelled_at"]);
  const cancelRefundIds = optionalArray(order.refunds, "refunds").map((raw, index) => {
    const path = fieldPath("refunds", index);
    return requireId(requireObject(raw, path).id, fieldPath(path, "id"));
  });
  return {
    kind: "events",
    orderId,
    events: [
      {
        dedupeKey: `order:${orderId}:cancelled`,
        event: {
          type: "order_cancelled",
          payload: { order_id: orderId, cancelled_at: cancelledAt },
        },
      },
    ],
    detail:
      cancelRefundIds.length === 0
        ? "order_cancelled; no refunds listed"
        : `order_cancelled; ${cancelRefundIds.length} cancel refund(s) listed`,
    cancelRefundIds,
  };
}
