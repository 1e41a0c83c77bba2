import type { OrderPlacedPayload } from "../protection/types";

/** The figures of one reported order that the admin's dashboard adds up. */
export interface OrderSummaryFigures {
  orderId: string;
  placedAt: Date;
  /** Lowercase, as the event carries it. */
  currency: string;
  lineCount: number;
  planLineCount: number;
  /** Minor units: unit price × quantity over the plan lines. */
  planRevenue: number;
  /** The variant IDs of the lines that are not plans, each once. */
  variantIds: string[];
}

/** Sums up an order_placed payload; plan lines are those with a product reference. */
export function summarizeOrderPlaced(payload: OrderPlacedPayload): OrderSummaryFigures {
  const planLines = payload.line_items.filter(
    (line) => line.custom_properties?.product_reference !== undefined,
  );
  const productLines = payload.line_items.filter((line) => !planLines.includes(line));
  return {
    orderId: payload.order_id,
    placedAt: new Date(payload.placed_at),
    currency: payload.order_currency,
    lineCount: payload.line_items.length,
    planLineCount: planLines.length,
    planRevenue: planLines.reduce((sum, line) => sum + line.price_amount * line.quantity, 0),
    variantIds: [...new Set(productLines.map((line) => line.product_id))],
  };
}
