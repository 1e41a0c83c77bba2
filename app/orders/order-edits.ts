import type { CancelledLineItem } from "../protection/types";
import {
  type JsonObject,
  fieldPath,
  optionalArray,
  requireId,
  requireObject,
  requireQuantity,
  requireTimestamp,
} from "./payload-reader";
import type { MappingResult } from "./types";

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

  const removed: { lineItemId: string; quantity: number }[] = [];
  removals.forEach((raw, index) => {
    const path = fieldPath(removalsPath, index);
    const removal = requireObject(raw, path);
    const lineItemId = requireId(removal.id, fieldPath(path, "id"));
    const quantity = requireQuantity(removal.delta, fieldPath(path, "delta"));
    if (quantity > 0) removed.push({ lineItemId, quantity });
  });
  if (removed.length === 0) {
    return {
      kind: "ignored",
      orderId,
      detail: `order edit ${editId} removes no line items; ${notReported || "nothing to report"}`,
    };
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
