import { idString } from "../lib/shopify-id";
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

/**
 * The customer of an orders/create body (parsed with parseWebhookJson, so IDs keep every digit):
 * `customer.id` as a decimal string, or null for a guest checkout or a body without one.
 */
export function orderCustomerIdOf(payload: unknown): string | null {
  if (typeof payload !== "object" || payload === null) return null;
  const customer = (payload as { customer?: unknown }).customer;
  if (typeof customer !== "object" || customer === null) return null;
  const id = idString((customer as { id?: unknown }).id);
  return id !== null && /^[1-9]\d*$/.test(id) ? id : null;
}
