import { webhookResource } from "./map-webhook";
import { protectedProductRefOf } from "./order-placed";
import type { CurrentOrderLine, PlanRestockType } from "./plan-refunds";

/*
 * The cancel check (decision 027): a cancelled order needs nothing done in Shopify, but its
 * plans' money must have gone back. The app checks; it refunds what is left only when the
 * merchant asks. Pure: the orders/cancelled payload and the order as the Admin API answers it
 * come in; what is left to refund comes out.
 */

const NOTE = "svc-protection: plans refunded with their cancelled order";

/** The note on the app's refund of a cancelled order's plans: it marks the refund as ours. */
export function cancelledPlansRefundNote(orderId: string): string {
  return `${NOTE} (order ${orderId})`;
}

/** Whether an orders/cancelled payload holds a plan line (one with `_svc_protected_product_ref`). */
export function cancelledOrderHasPlans(payload: unknown): boolean {
  const order = webhookResource("orders/cancelled", payload);
  const lines = Array.isArray(order?.line_items) ? order.line_items : [];
  return lines.some((line) => protectedProductRefOf(line) !== null);
}

/** A plan line still refundable, and how to refund all of it. */
export interface PlanLineLeft {
  lineItemId: string;
  quantity: number;
  restockType: PlanRestockType;
}

export type CancelledPlansCheck =
  | { kind: "not_cancelled" }
  | { kind: "no_plans" }
  /** Every plan unit was refunded: by the cancellation, or since. */
  | { kind: "refunded"; planLines: number }
  | { kind: "not_refunded"; units: number; lines: PlanLineLeft[] };

/**
 * What is left to refund of a cancelled order's plans. Plan lines are those with the plan
 * property; every unit still refundable on them was not refunded. Restock as decision 022 says:
 * `CANCEL` while the units are unfulfilled, `NO_RESTOCK` otherwise (a cancelled order has no
 * unfulfilled units left in Shopify, so in practice `NO_RESTOCK`).
 */
export function checkCancelledPlans(order: {
  cancelled: boolean;
  lines: readonly CurrentOrderLine[];
}): CancelledPlansCheck {
  if (!order.cancelled) return { kind: "not_cancelled" };
  const planLines = order.lines.filter((line) => line.protectedRef !== null);
  if (!planLines.length) return { kind: "no_plans" };
  const lines = planLines
    .filter((line) => line.refundableQuantity > 0)
    .map((line) => ({
      lineItemId: line.id,
      quantity: line.refundableQuantity,
      restockType:
        line.unfulfilledQuantity >= line.refundableQuantity
          ? ("CANCEL" as const)
          : ("NO_RESTOCK" as const),
    }));
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  if (units === 0) return { kind: "refunded", planLines: planLines.length };
  return { kind: "not_refunded", units, lines };
}
