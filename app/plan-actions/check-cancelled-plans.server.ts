import { ORDER_FOR_PLAN_REFUND_QUERY } from "../graphql/OrderForPlanRefund";
import { cancelledPlansRefundNote, checkCancelledPlans } from "../orders";
import { REQUESTED_BY_MERCHANT } from "../models/ShopifyAction.server";
import { uuidFromName } from "../outbox/idempotency";
import { type ActionContext, type ActionOutcome, type ActionRow } from "./outcome.server";
import { readActionOrder } from "./action-steps.server";
import { currentLinesOf } from "./refund-plan-line.server";
import { moneyPhrase, refundPlanLines } from "./refund-lines.server";

/*
 * The cancel check (decision 027): a cancelled order needs nothing done in Shopify, but its
 * plans' money must have gone back. The app reads the order and says so; what is left to refund
 * is refunded only when the merchant asks, from the admin, once.
 */

/** The key of every refundCreate of a cancelled order's remaining plan lines. */
export function cancelledPlansIdempotencyKey(
  shop: string,
  orderId: string,
  planLineIds: readonly string[],
): string {
  return uuidFromName(`svc-plan-refund\n${shop}\n${orderId}\ncancel\n${planLineIds.join(",")}`);
}

/** Why the app did not refund a cancelled order's plans: the merchant decides. */
export function notRefundedDetail(orderName: string, units: number): string {
  return `Cancelled without refunding its plans: ${units} plan unit(s) not refunded on order ${orderName}`;
}

export async function runCancelledPlansCheck(
  context: ActionContext,
  row: Pick<ActionRow, "shop" | "orderId" | "requestedBy">,
): Promise<ActionOutcome> {
  const read = await readActionOrder(context, ORDER_FOR_PLAN_REFUND_QUERY, row.orderId);
  if ("outcome" in read) return read.outcome;
  const { order } = read;

  const check = checkCancelledPlans({
    cancelled: order.cancelledAt !== null && order.cancelledAt !== undefined,
    lines: currentLinesOf(order),
  });
  switch (check.kind) {
    case "not_cancelled":
      return { kind: "done", detail: `Order ${order.name} is not cancelled: nothing to check` };
    case "no_plans":
      return { kind: "done", detail: `Order ${order.name} has no plan line: nothing to check` };
    case "refunded":
      return {
        kind: "done",
        detail: `The plans' money went back with the cancellation of order ${order.name}`,
      };
    case "not_refunded":
      if (row.requestedBy !== REQUESTED_BY_MERCHANT) {
        return { kind: "flagged", detail: notRefundedDetail(order.name, check.units) };
      }
      return refundPlanLines(context, {
        order,
        lines: check.lines,
        note: cancelledPlansRefundNote(row.orderId),
        idempotencyKey: cancelledPlansIdempotencyKey(
          row.shop,
          row.orderId,
          check.lines.map((line) => line.lineItemId),
        ),
        describe: (result) =>
          `Plans refunded at the merchant's request on cancelled order ${order.name}:${moneyPhrase(result)} ${result.quantity} unit(s), refund ${result.refundId}`,
      });
  }
}
