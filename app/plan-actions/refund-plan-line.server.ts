import { ORDER_FOR_PLAN_REFUND_QUERY } from "../graphql/OrderForPlanRefund";
import { numericIdOf } from "../lib/shopify-id";
import { PLAN_LINES_UNKNOWN } from "../models/ShopifyAction.server";
import {
  planLineRefund,
  planLinesForRefund,
  planRefundNote,
  type CurrentOrderLine,
  type OrderRefund,
  type PlanRestockType,
  type RefundedLine,
} from "../orders";
import type { AdminData } from "../services/admin-api.server";
import { uuidFromName } from "../outbox/idempotency";
import {
  type ActionContext,
  type ActionOutcome,
  type ActionResult,
  type ActionRow,
} from "./outcome.server";
import { lineIdOf, orderLineRefOf, readActionOrder } from "./action-steps.server";
import { moneyPhrase, refundPlanLines } from "./refund-lines.server";

/*
 * The refund of one plan line with its product (decision 022): read the order again, decide on
 * what it holds now, and refund the difference once. Every call to refundCreate for a trigger
 * and plan line carries the same idempotency key, so a retry after a failure or a crash never
 * refunds twice: Shopify answers the first refund again.
 */

/** A refund_plan_line row: its trigger lines are the refund's refunded lines. */
export type PlanRefundRow = Pick<
  ActionRow,
  "shop" | "orderId" | "triggerId" | "planLineId" | "triggerLines"
>;

/** The key of every refundCreate for one trigger refund and plan line, and of no other. */
export function planRefundIdempotencyKey(
  shop: string,
  triggerRefundId: string,
  planLineId: string,
): string {
  return uuidFromName(`svc-plan-refund\n${shop}\n${triggerRefundId}\n${planLineId}`);
}

type OrderForPlanRefund = NonNullable<AdminData<typeof ORDER_FOR_PLAN_REFUND_QUERY>["order"]>;

/** The order's lines as the plan refund rules read them. */
export function currentLinesOf(order: OrderForPlanRefund): CurrentOrderLine[] {
  return order.lineItems.nodes.map((line) => ({
    ...orderLineRefOf(line),
    refundableQuantity: line.refundableQuantity,
    unfulfilledQuantity: line.unfulfilledQuantity,
  }));
}

function refundsOf(order: OrderForPlanRefund): OrderRefund[] {
  return order.refunds.map((refund) => ({
    id: numericIdOf(refund.id, "Refund") ?? refund.id,
    note: refund.note ?? null,
    lines: refund.refundLineItems.nodes.map((line) => ({
      lineItemId: lineIdOf(line.lineItem.id),
      quantity: line.quantity,
    })),
  }));
}

/** Runs one queued plan refund; expected failures come back as outcomes. */
export async function runPlanRefund(
  context: ActionContext,
  row: PlanRefundRow,
): Promise<ActionOutcome> {
  const read = await readActionOrder(context, ORDER_FOR_PLAN_REFUND_QUERY, row.orderId);
  if ("outcome" in read) return read.outcome;
  const { order } = read;
  if (order.cancelledAt) {
    // Cancelling settles the whole order; what it refunded is the merchant's choice.
    return {
      kind: "done",
      detail: `Not refunded: order ${order.name} is cancelled, and the app never refunds a cancelled order's plans on its own`,
    };
  }
  const triggerLines = JSON.parse(row.triggerLines) as RefundedLine[];
  const orderLines = currentLinesOf(order);

  if (row.planLineId === PLAN_LINES_UNKNOWN) {
    const found = planLinesForRefund({ lines: triggerLines }, orderLines);
    if (found.kind === "unknown") {
      return { kind: "dead", detail: `Order ${order.name}: ${found.detail}` };
    }
    return { kind: "plan_lines_found", planLineIds: found.planLineIds };
  }

  const decision = planLineRefund({
    triggerRefundId: row.triggerId,
    triggerLines,
    planLineId: row.planLineId,
    orderLines,
    refunds: refundsOf(order),
  });
  switch (decision.kind) {
    case "nothing":
      return {
        kind: "done",
        detail: `Nothing to refund on order ${order.name}: ${decision.detail}`,
      };
    case "refunded": {
      const refund = order.refunds.find((candidate) =>
        candidate.id.endsWith(`/${decision.refund.id}`),
      );
      const money = refund?.totalRefundedSet.presentmentMoney;
      const result = {
        refundId: decision.refund.id,
        quantity: decision.quantity,
        amount: money?.amount ?? null,
        currency: money?.currencyCode ?? null,
      };
      return { kind: "done", detail: refundedDetail(order.name, result), result };
    }
    case "refund":
      return refundPlanLine(context, row, order, decision);
  }
}

function refundedDetail(orderName: string, result: ActionResult & { quantity: number }): string {
  return `Plan refunded with its product on order ${orderName}:${moneyPhrase(result)} ${result.quantity} unit(s), refund ${result.refundId}`;
}

/** Refunds the plan units under the row's key. */
function refundPlanLine(
  context: ActionContext,
  row: PlanRefundRow,
  order: OrderForPlanRefund,
  plan: { quantity: number; restockType: PlanRestockType },
): Promise<ActionOutcome> {
  return refundPlanLines(context, {
    order,
    lines: [{ lineItemId: row.planLineId, ...plan }],
    note: planRefundNote(row.triggerId),
    idempotencyKey: planRefundIdempotencyKey(row.shop, row.triggerId, row.planLineId),
    describe: (result) => refundedDetail(order.name, result),
  });
}
