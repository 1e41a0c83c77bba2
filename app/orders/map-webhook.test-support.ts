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

/** The cancelled line of refund 1002961240349 (real-vnd-restock_pipedream.json). */
export const RESTOCK_REFUND_CANCELLED = {
  dedupeKey: "refund:1002961240349:cancelled",
  refundId: "1002961240349",
  event: {
    type: "order_line_items_cancelled",
    payload: {
      order_id: "6273085767965",
      cancelled_line_items: [
        {
          line_item_id: "16014782595357",
          quantity: 1,
          cancelled_at: "2024-08-20T15:19:18.000Z",
        },
      ],
    },
  },
};

/** The tee line of the EUR order, as the real fixture and our own copy of it both map it. */
export const TEE_LINE = {
  id: "16735263850829",
  quantity: 2,
  price_amount: 1000,
  product_id: "51734523248973",
  product_title: "Unisex classic tee",
  product_brand: "QR shirts",
};
