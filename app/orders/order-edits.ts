import type { CancelledLineItem } from "../protection/types";
import {
  type JsonObject,
  fieldPath,
  lineQuantities,
  optionalArray,
  requireId,
  requireObject,
  requireTimestamp,
} from "./payload-reader";
import { type MappingResult, ignored } from "./types";

const EDIT = "order_edit";

/**
 * orders/edited. Removed quantities become cancelled line items. Added lines are not reported:
 * the service has no event for them, and order_placed cannot be amended.
 */
export function toOrderEditEvents(payload: JsonObject): MappingResult {
  const edit = requireObject(payload[EDIT], EDIT);
  const orderId = requireId(edit.order_id, fieldPath(EDIT, "order_id"));
  const editId = requireId(edit.id, fieldPath(EDIT, "id"));
  const linesPath = fieldPath(EDIT, "line_items");
  const lines = requireObject(edit.line_items, linesPath);
  const additions = optionalArray(lines.additions, fieldPath(linesPath, "additions"));
  const removalsPath = fieldPath(linesPath, "removals");
  const removals = optionalArray(lines.removals, removalsPath);
  const notReported = additions.length > 0 ? `${additions.length} added line(s) not reported` : "";

  const removed = [
    ...lineQuantities(removals, removalsPath, { idKey: "id", quantityKey: "delta" }),
  ];
  if (removed.length === 0) {
    return ignored(
      orderId,
      `order edit ${editId} removes no line items; ${notReported || "nothing to report"}`,
    );
  }
  const cancelledAt = requireTimestamp(edit, ["committed_at", "created_at"], EDIT);
  const cancelled: CancelledLineItem[] = removed.map(({ lineItemId, quantity }) => ({
    line_item_id: lineItemId,
    quantity,
    cancelled_at: cancelledAt,
  }));
  return {
    kind: "events",
    orderId,
    events: [
      {
        dedupeKey: `order-edit:${editId}`,
        event: {
          type: "order_line_items_cancelled",
          payload: { order_id: orderId, cancelled_line_items: cancelled },
        },
      },
    ],
    detail: [`order_line_items_cancelled with ${cancelled.length} line item(s)`, notReported]
      .filter((part) => part !== "")
      .join("; "),
  };
}
