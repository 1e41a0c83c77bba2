import type { CartLineItem } from "../protection/types";

/*
 * The admin's view of one order's protection (contract: admin route): which product lines a plan
 * line protects, read from the order's recorded order_placed body, and the order's events.
 */

export interface ProtectedLine {
  line_item_id: string;
  title: string;
  quantity: number;
  plan_line_item_id: string;
  plan_title: string;
  product_reference: string;
}

export interface OrderEventView {
  type: string;
  status: string;
  recorded_at: string;
  delivered_at: string | null;
}

function isLine(value: unknown): value is CartLineItem {
  if (typeof value !== "object" || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.id === "string" &&
    typeof line.product_id === "string" &&
    typeof line.product_title === "string" &&
    typeof line.quantity === "number"
  );
}

/** The order_placed body's plan lines, each with the product line it protects. */
export function protectedLinesOf(placedBody: string): ProtectedLine[] {
  let event: unknown;
  try {
    event = JSON.parse(placedBody);
  } catch {
    return [];
  }
  const lines = (event as { payload?: { line_items?: unknown } } | null)?.payload?.line_items;
  if (!Array.isArray(lines)) return [];
  const all = lines.filter(isLine);
  const products = all.filter((line) => !line.custom_properties?.product_reference);
  return all.flatMap((plan) => {
    const reference = plan.custom_properties?.product_reference;
    if (!reference) return [];
    const product = products.find((line) => line.product_id === reference);
    if (!product) return [];
    return [
      {
        line_item_id: product.id,
        title: product.product_title,
        quantity: product.quantity,
        plan_line_item_id: plan.id,
        plan_title: plan.product_title,
        product_reference: reference,
      },
    ];
  });
}

export function orderEventViewOf(row: {
  eventType: string;
  status: string;
  createdAt: Date;
  deliveredAt: Date | null;
}): OrderEventView {
  return {
    type: row.eventType,
    status: row.status,
    recorded_at: row.createdAt.toISOString(),
    delivered_at: row.deliveredAt?.toISOString() ?? null,
  };
}
