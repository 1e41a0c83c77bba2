import { REFUND_PLAN_LINE_MUTATION } from "../graphql/RefundPlanLine";
import { SUGGESTED_PLAN_REFUND_QUERY } from "../graphql/SuggestedPlanRefund";
import { numericIdOf, shopifyGid } from "../lib/shopify-id";
import type { CurrencyCode, RefundInput } from "../../graphql/generated/admin.types";
import type { PlanRestockType } from "../orders";
import {
  failureOutcome,
  userErrorsDetail,
  type ActionContext,
  type ActionOutcome,
  type ActionResult,
} from "./outcome.server";
import { recordAndSend } from "./action-steps.server";
import { callShopify } from "./shopify-calls.server";

/*
 * A refund of plan lines, as every kind of action makes it (decision 022): Shopify's own
 * suggestion for the units, back to the original payment methods in the order's presentment
 * currency, sent under one idempotency key, so a retry after any failure or crash refunds once.
 */

export interface PlanLinesRefund {
  order: { id: string; name: string; presentmentCurrencyCode: CurrencyCode };
  /** Plan lines by numeric ID, with the units to refund and how. */
  lines: readonly { lineItemId: string; quantity: number; restockType: PlanRestockType }[];
  /** Marks the refund as the app's, and names what caused it. */
  note: string;
  idempotencyKey: string;
  /** The sentence of a made refund, for the merchant. */
  describe(result: Required<Pick<ActionResult, "refundId" | "quantity">> & ActionResult): string;
}

/** Asks Shopify what the units would refund, then refunds them under the key given. */
export async function refundPlanLines(
  context: ActionContext,
  refund: PlanLinesRefund,
): Promise<ActionOutcome> {
  const { order } = refund;
  const refundLineItems = refund.lines.map((line) => ({
    lineItemId: shopifyGid("LineItem", line.lineItemId),
    quantity: line.quantity,
    restockType: line.restockType,
  }));
  const suggested = await callShopify(
    context.graphql,
    {
      query: SUGGESTED_PLAN_REFUND_QUERY,
      variables: { id: order.id, refundLineItems },
    },
    "plan_actions",
  );
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
    note: refund.note,
    // The merchant's own action on the order already told the customer.
    notify: false,
    currency: order.presentmentCurrencyCode,
    refundLineItems,
    transactions,
  };
  const sent = await sendRefund(context, input, input, refund.idempotencyKey, {
    what: "the plan refund",
    orderName: order.name,
  });
  if (sent.kind === "failed") return sent.outcome;
  const result = {
    refundId: sent.refundId,
    quantity: refund.lines.reduce((sum, line) => sum + line.quantity, 0),
    amount: sent.amount,
    currency: sent.currency,
  };
  return { kind: "done", detail: refund.describe(result), result };
}

/** " 29.00 EUR," for a refund whose amount is known, "" otherwise. */
export function moneyPhrase(result: ActionResult): string {
  return result.amount == null ? "" : ` ${result.amount} ${result.currency},`;
}

export interface AmountRefund {
  order: { id: string; name: string; presentmentCurrencyCode: CurrencyCode };
  /** Decimal, in the order's presentment currency. */
  amount: string;
  /** The sale the money goes back to. */
  parent: { id: string; gateway: string };
  note: string;
  idempotencyKey: string;
  /** What the request records beside the refund's input, to resume after a crash. */
  record: Record<string, unknown>;
}

export type AmountRefunded =
  | { kind: "refunded"; refundId: string; amount: string; currency: string }
  | { kind: "failed"; outcome: ActionOutcome };

/**
 * A refund of money alone, without lines: what an order owes its customer after an edit took
 * units away, since those units are no longer on the order to refund (decision 026). Sent under
 * one idempotency key, back to the sale it names, in the order's presentment currency.
 */
export async function refundAmount(
  context: ActionContext,
  refund: AmountRefund,
): Promise<AmountRefunded> {
  const { order } = refund;
  const input = {
    orderId: order.id,
    note: refund.note,
    notify: false,
    currency: order.presentmentCurrencyCode,
    transactions: [
      {
        orderId: order.id,
        parentId: refund.parent.id,
        amount: refund.amount,
        gateway: refund.parent.gateway,
        kind: "REFUND" as const,
      },
    ],
  };
  const request = { mutation: "refundCreate", input, ...refund.record };
  return sendRefund(context, request, input, refund.idempotencyKey, {
    what: `the refund of ${refund.amount} ${order.presentmentCurrencyCode}`,
    orderName: order.name,
  });
}

/**
 * Records `request` on the row, sends `refundCreate` under the key, and reads Shopify's answer:
 * the refund made, or the outcome to record (a refusal names `what` and the order).
 */
async function sendRefund(
  context: ActionContext,
  request: unknown,
  input: RefundInput,
  idempotencyKey: string,
  refused: { what: string; orderName: string },
): Promise<AmountRefunded> {
  const created = await recordAndSend(context, request, {
    query: REFUND_PLAN_LINE_MUTATION,
    variables: { input, idempotencyKey },
  });
  if (!created) return { kind: "failed", outcome: { kind: "lost_claim" } };
  if (created.kind !== "ok") return { kind: "failed", outcome: failureOutcome(created) };
  const payload = created.data.refundCreate;
  const userErrors = payload?.userErrors ?? [];
  if (userErrors.length || !payload?.refund) {
    const detail = `Shopify refused ${refused.what} on ${refused.orderName}: ${userErrorsDetail(userErrors) || "no refund returned"}`;
    return { kind: "failed", outcome: { kind: "refused", detail } };
  }
  const money = payload.refund.totalRefundedSet.presentmentMoney;
  return {
    kind: "refunded",
    refundId: numericIdOf(payload.refund.id, "Refund") ?? payload.refund.id,
    amount: money.amount,
    currency: money.currencyCode,
  };
}
