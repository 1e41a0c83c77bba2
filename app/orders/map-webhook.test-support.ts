// Shared by the mapping tests: the options and result readers, and the expected parts that
// the real fixtures and our own copies of them both give.
import type { OrderPlacedPayload } from "../protection/types";
import type { MappingResult } from "./types";

export const REPORT_ALL = { reportOrdersWithoutPlan: true };
export const PLAN_ONLY = { reportOrdersWithoutPlan: false };

export function eventsOf(result: MappingResult) {
  if (result.kind !== "events") throw new Error(`expected events, got ${JSON.stringify(result)}`);
  return result;
}

export function placedPayload(result: MappingResult): OrderPlacedPayload {
  const event = eventsOf(result).events[0]?.event;
  if (event?.type !== "order_placed") throw new Error(`expected order_placed, got ${event?.type}`);
  return event.payload;
}

/** The tee line of the EUR order, as the real fixture and our own copy of it both map it. */
export const TEE_LINE = {
  id: "16735263850829",
  quantity: 2,
  price_amount: 1000,
  product_id: "51734523248973",
  product_title: "Unisex classic tee",
  product_brand: "QR shirts",
};

/** Line item IDs with their quantities, as an event lists them. */
type LineQuantities = [lineItemId: string, quantity: number][];

/** The result of a webhook that stands for events. */
export function eventsResult(orderId: string, detail: string, events: object[]) {
  return { kind: "events", orderId, detail, events };
}

/** Where each event of line entries keeps them, and the time of each entry. */
const LINE_ENTRIES = {
  order_fulfillment_added: { entriesKey: "fulfillment_items", atKey: "fulfilled_at" },
  order_refund_added: { entriesKey: "refund_items", atKey: "refunded_at" },
  order_line_items_cancelled: { entriesKey: "cancelled_line_items", atKey: "cancelled_at" },
} as const;

/**
 * An event of line entries, all at the same time, as a derived event expects it; `refundId`
 * for an event derived from a refund.
 */
export function lineEvent(
  type: keyof typeof LINE_ENTRIES,
  { dedupeKey, refundId }: { dedupeKey: string; refundId?: string },
  orderId: string,
  at: string,
  lines: LineQuantities,
) {
  const { entriesKey, atKey } = LINE_ENTRIES[type];
  const entries = lines.map(([id, quantity]) => ({ line_item_id: id, quantity, [atKey]: at }));
  const event = { type, payload: { order_id: orderId, [entriesKey]: entries } };
  return refundId === undefined ? { dedupeKey, event } : { dedupeKey, refundId, event };
}

/** The cancelled line of refund 1002961240349 (real-vnd-restock_pipedream.json). */
export const RESTOCK_REFUND_CANCELLED = lineEvent(
  "order_line_items_cancelled",
  { dedupeKey: "refund:1002961240349:cancelled", refundId: "1002961240349" },
  "6273085767965",
  "2024-08-20T15:19:18.000Z",
  [["16014782595357", 1]],
);

export function orderPlaced(payload: OrderPlacedPayload) {
  return {
    dedupeKey: `order:${payload.order_id}:placed`,
    event: { type: "order_placed", payload },
  };
}
