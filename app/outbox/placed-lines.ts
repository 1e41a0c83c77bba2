import type { OrderEvent } from "../protection/types";

/**
 * The service knows an order's line items only from its order_placed event. Lines added later
 * (an order edit adds lines; Shopify has no order_placed for them) would be refused with a
 * 400, so a follow-up event keeps only the lines the service knows. Pure: no I/O.
 */
export function restrictToPlacedLines(
  event: OrderEvent,
  placedLineIds: ReadonlySet<string>,
): { event: OrderEvent; droppedLineIds: string[] } {
  const dropped: string[] = [];
  const keep = <Entry extends { line_item_id: string }>(entries: Entry[]) =>
    entries.filter((entry) => {
      if (placedLineIds.has(entry.line_item_id)) return true;
      dropped.push(entry.line_item_id);
      return false;
    });
  const restricted = <Event extends OrderEvent>(
    followUp: Event,
    kept: Partial<Event["payload"]>,
  ) => ({
    event: { ...followUp, payload: { ...followUp.payload, ...kept } },
    droppedLineIds: dropped,
  });
  switch (event.type) {
    case "order_placed":
    case "order_cancelled":
      return { event, droppedLineIds: [] };
    case "order_fulfillment_added":
      return restricted(event, { fulfillment_items: keep(event.payload.fulfillment_items) });
    case "order_refund_added":
      return restricted(event, { refund_items: keep(event.payload.refund_items) });
    case "order_line_items_cancelled":
      return restricted(event, { cancelled_line_items: keep(event.payload.cancelled_line_items) });
  }
}

/** How many line entries an event carries; 0 means there is nothing left to send. */
export function lineEntryCount(event: OrderEvent): number {
  switch (event.type) {
    case "order_placed":
      return event.payload.line_items.length;
    case "order_cancelled":
      return 1;
    case "order_fulfillment_added":
      return event.payload.fulfillment_items.length;
    case "order_refund_added":
      return event.payload.refund_items.length;
    case "order_line_items_cancelled":
      return event.payload.cancelled_line_items.length;
  }
}
