import { ORDER_FOR_PLAN_REFUND_QUERY } from "../graphql/OrderForPlanRefund";
import { REFUND_PLAN_LINE_MUTATION } from "../graphql/RefundPlanLine";
import { SUGGESTED_PLAN_REFUND_QUERY } from "../graphql/SuggestedPlanRefund";
import { numericIdOf, shopifyGid } from "../lib/shopify-id";
import { PLAN_LINES_UNKNOWN } from "../models/ShopifyAction.server";
import {
  PROTECTED_PRODUCT_REF_PROPERTY,
  planLineRefund,
  planLinesForRefund,
  planRefundNote,
  type CurrentOrderLine,
  type OrderRefund,
  type PlanRestockType,
  type RefundedLine,
} from "../orders";
import type { AdminData, AdminGraphql } from "../services/admin-api.server";
import { uuidFromName } from "../outbox/idempotency";
import { callShopify, type ShopifyAnswer } from "./shopify-calls.server";

/*
 * The refund of one plan line with its product (decision 022): read the order again, decide on
 * what it holds now, and refund the difference once. Every call to refundCreate for a trigger
 * and plan line carries the same idempotency key, so a retry after a failure or a crash never
 * refunds twice: Shopify answers the first refund again.
 */

export interface PlanRefundRow {
  shop: string;
  orderId: string;
  triggerId: string;
  planLineId: string;
  /** JSON of the trigger's refunded lines. */
  triggerLines: string;
}

export interface RefundMade {
  refundId: string;
  quantity: number;
  amount: string | null;
  currency: string | null;
}

export type ActionOutcome =
  | { kind: "done"; detail: string; refund?: RefundMade }
  /** A row recorded before the plan lines were known: these are the ones to queue. */
  | { kind: "plan_lines_found"; planLineIds: string[] }
  | { kind: "retry"; detail: string }
  | { kind: "throttled"; detail: string; retryAfterMs: number }
  | { kind: "dead"; detail: string }
  /** Another worker took the row before the refund was sent: this one did nothing. */
  | { kind: "lost_claim" };

export interface RefundContext {
  graphql: AdminGraphql;
  /**
   * Renews this worker's claim and records the refund about to be sent; false when the row is
   * no longer this worker's, and then nothing is sent.
   */
  beforeRefund(request: string): Promise<boolean>;
}

/** The key of every refundCreate for one trigger refund and plan line, and of no other. */
export function planRefundIdempotencyKey(
  shop: string,
  triggerRefundId: string,
  planLineId: string,
): string {
  return uuidFromName(`svc-plan-refund\n${shop}\n${triggerRefundId}\n${planLineId}`);
}

type OrderForPlanRefund = NonNullable<AdminData<typeof ORDER_FOR_PLAN_REFUND_QUERY>["order"]>;

function lineIdOf(gid: string): string {
  return numericIdOf(gid, "LineItem") ?? gid;
}

/** The order's lines as the plan refund rules read them. */
export function currentLinesOf(order: OrderForPlanRefund): CurrentOrderLine[] {
  return order.lineItems.nodes.map((line) => {
    const property = line.customAttributes.find(
      (attribute) => attribute.key === PROTECTED_PRODUCT_REF_PROPERTY,
    );
    return {
      id: lineIdOf(line.id),
      variantRef: line.variant ? numericIdOf(line.variant.id, "ProductVariant") : null,
      protectedRef: property ? (property.value ?? "").trim() : null,
      refundableQuantity: line.refundableQuantity,
      unfulfilledQuantity: line.unfulfilledQuantity,
    };
  });
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

/** An Admin API failure as the queue's outcome: throttled, retried, or dead with the reason. */
function failureOutcome(answer: Exclude<ShopifyAnswer<unknown>, { kind: "ok" }>): ActionOutcome {
  switch (answer.kind) {
    case "throttled":
      return { kind: "throttled", detail: answer.detail, retryAfterMs: answer.retryAfterMs };
    case "retryable":
      return { kind: "retry", detail: answer.detail };
    case "refused":
      return { kind: "dead", detail: `Shopify refused ${answer.detail}` };
  }
}

/** Runs one queued plan refund; expected failures come back as outcomes. */
export async function runPlanRefund(
  context: RefundContext,
  row: PlanRefundRow,
): Promise<ActionOutcome> {
  const orderGid = shopifyGid("Order", row.orderId);
  const read = await callShopify(context.graphql, {
    query: ORDER_FOR_PLAN_REFUND_QUERY,
    variables: { id: orderGid },
  });
  if (read.kind !== "ok") return failureOutcome(read);
  const order = read.data.order;
  if (!order) return { kind: "dead", detail: `Order ${row.orderId} is not in Shopify` };
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
      return refunded(order.name, {
        refundId: decision.refund.id,
        quantity: decision.quantity,
        amount: money?.amount ?? null,
        currency: money?.currencyCode ?? null,
      });
    }
    case "refund":
      return refundPlanLine(context, row, order, decision);
  }
}

function refunded(orderName: string, refund: RefundMade): ActionOutcome {
  const money = refund.amount === null ? "" : ` ${refund.amount} ${refund.currency},`;
  return {
    kind: "done",
    detail: `Plan refunded with its product on order ${orderName}:${money} ${refund.quantity} unit(s), refund ${refund.refundId}`,
    refund,
  };
}

/** Asks Shopify what the units would refund, then refunds them under the row's key. */
async function refundPlanLine(
  context: RefundContext,
  row: PlanRefundRow,
  order: OrderForPlanRefund,
  plan: { quantity: number; restockType: PlanRestockType },
): Promise<ActionOutcome> {
  const refundLineItems = [
    {
      lineItemId: shopifyGid("LineItem", row.planLineId),
      quantity: plan.quantity,
      restockType: plan.restockType,
    },
  ];
  const suggested = await callShopify(context.graphql, {
    query: SUGGESTED_PLAN_REFUND_QUERY,
    variables: { id: order.id, refundLineItems },
  });
  if (suggested.kind !== "ok") return failureOutcome(suggested);
  const suggestion = suggested.data.order?.suggestedRefund;
  if (!suggestion) return { kind: "dead", detail: `Shopify suggested no refund for ${order.name}` };
  // Back to the original payment methods, as Shopify suggests: one refund per sale it names.
  const transactions = suggestion.suggestedTransactions.flatMap((transaction) => {
    const amount = transaction.amountSet.presentmentMoney.amount;
    if (!transaction.gateway || !(Number(amount) > 0)) return [];
    const parentId = transaction.parentTransaction?.id ?? null;
    return [
      {
        orderId: order.id,
        parentId,
        amount,
        gateway: transaction.gateway,
        kind: "REFUND" as const,
      },
    ];
  });
  const input = {
    orderId: order.id,
    note: planRefundNote(row.triggerId),
    // The merchant's refund of the product already told the customer.
    notify: false,
    currency: order.presentmentCurrencyCode,
    refundLineItems,
    transactions,
  };
  if (!(await context.beforeRefund(JSON.stringify(input)))) return { kind: "lost_claim" };

  const created = await callShopify(context.graphql, {
    query: REFUND_PLAN_LINE_MUTATION,
    variables: {
      input,
      idempotencyKey: planRefundIdempotencyKey(row.shop, row.triggerId, row.planLineId),
    },
  });
  if (created.kind !== "ok") return failureOutcome(created);
  const payload = created.data.refundCreate;
  const userErrors = payload?.userErrors ?? [];
  if (userErrors.length || !payload?.refund) {
    const reasons = userErrors.map((error) =>
      error.field?.length ? `${error.message} (${error.field.join(".")})` : error.message,
    );
    return {
      kind: "dead",
      detail: `Shopify refused the plan refund on ${order.name}: ${reasons.join("; ") || "no refund returned"}`,
    };
  }
  const money = payload.refund.totalRefundedSet.presentmentMoney;
  return refunded(order.name, {
    refundId: numericIdOf(payload.refund.id, "Refund") ?? payload.refund.id,
    quantity: plan.quantity,
    amount: money.amount,
    currency: money.currencyCode,
  });
}
