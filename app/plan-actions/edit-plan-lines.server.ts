import { BEGIN_PLAN_EDIT_MUTATION } from "../graphql/BeginPlanEdit";
import { COMMIT_PLAN_EDIT_MUTATION } from "../graphql/CommitPlanEdit";
import { ORDER_FOR_PLAN_EDIT_QUERY } from "../graphql/OrderForPlanEdit";
import { SET_PLAN_EDIT_QUANTITY_MUTATION } from "../graphql/SetPlanEditQuantity";
import { formatMinorUnits, toMinorUnits } from "../lib/money";
import { numericIdOf } from "../lib/shopify-id";
import {
  planEditNote,
  planEditPhrase,
  planEditRefundAmount,
  planLineEdits,
  type EditableOrderLine,
  type EditedLine,
  type PlanLineEdit,
} from "../orders";
import { uuidFromName } from "../outbox/idempotency";
import type { AdminData, AdminOperation, AdminVariables } from "../services/admin-api.server";
import {
  failureOutcome,
  userErrorsDetail,
  type ActionContext,
  type ActionOutcome,
  type ActionResult,
  type ActionRow,
} from "./outcome.server";
import { orderLineRefOf, readActionOrder, recordAndSend } from "./action-steps.server";
import { refundAmount } from "./refund-lines.server";

/*
 * The reduction of an order's plan lines with a product an edit lowered (decision 026): read the
 * order again, set each plan line to the quantity the rule gives (an absolute quantity, in one
 * edit of the app's own), then refund what the order owes the customer for the plan units
 * removed, at most. The orderEdit mutations take no idempotency key: the edit is exactly once
 * because a run after a committed edit reads the lowered order and finds nothing to set.
 */

type OrderForPlanEdit = NonNullable<AdminData<typeof ORDER_FOR_PLAN_EDIT_QUERY>["order"]>;

/** An edit_plan_line row: its trigger lines are the product lines the edit lowered. */
export type PlanEditRow = Pick<
  ActionRow,
  "shop" | "orderId" | "triggerId" | "triggerLines" | "request"
>;

/** The key of the refund that follows the app's edit for one trigger edit and its plan lines. */
export function planEditRefundIdempotencyKey(
  shop: string,
  triggerEditId: string,
  planLineIds: readonly string[],
): string {
  return uuidFromName(`svc-plan-edit-refund\n${shop}\n${triggerEditId}\n${planLineIds.join(",")}`);
}

/** What a run records with each mutation, so that a run after a crash can refund what it owes. */
interface PlanEditRecord {
  planLines: { id: string; from: number; to: number }[];
  /** The value of the plan units removed, in minor units of the order's presentment currency. */
  removedValue: number;
}

/**
 * What the request of a committed edit recorded: a crash came after the commit was sent. A commit
 * Shopify refused is recorded as such (`refused`), and is no edit to refund.
 */
function committedRecordOf(request: string | null | undefined): PlanEditRecord | null {
  if (!request) return null;
  const parsed = JSON.parse(request) as {
    mutation?: string;
    refused?: boolean;
    planEdit?: PlanEditRecord;
  };
  const afterCommit = parsed.mutation === "orderEditCommit" || parsed.mutation === "refundCreate";
  return afterCommit && !parsed.refused && parsed.planEdit ? parsed.planEdit : null;
}

const PAID_STATUSES = new Set(["PAID", "PARTIALLY_PAID", "PARTIALLY_REFUNDED"]);

/** Whether the customer paid for the order: only then can it owe them money back. */
function isPaid(status: string | null | undefined): boolean {
  return PAID_STATUSES.has(status ?? "");
}

function linesOf(order: OrderForPlanEdit): EditableOrderLine[] {
  const currency = order.presentmentCurrencyCode;
  return order.lineItems.nodes.map((line) => ({
    ...orderLineRefOf(line),
    currentQuantity: line.currentQuantity,
    refundableQuantity: line.refundableQuantity,
    unfulfilledQuantity: line.unfulfilledQuantity,
    unitPrice: toMinorUnits(line.discountedUnitPriceSet.presentmentMoney.amount, currency),
  }));
}

/** The order's balance in minor units: negative when the customer is owed money. */
function outstandingOf(
  order: { totalOutstandingSet: { presentmentMoney: { amount: string } } },
  currency: string,
): number {
  return toMinorUnits(order.totalOutstandingSet.presentmentMoney.amount, currency);
}

/** Runs one queued plan edit; expected failures come back as outcomes. */
export async function runPlanEdit(
  context: ActionContext,
  row: PlanEditRow,
): Promise<ActionOutcome> {
  const read = await readActionOrder(context, ORDER_FOR_PLAN_EDIT_QUERY, row.orderId);
  if ("outcome" in read) return read.outcome;
  const { order } = read;
  if (order.cancelledAt) {
    return {
      kind: "done",
      detail: `Not reduced: order ${order.name} is cancelled, and the app never edits a cancelled order`,
    };
  }
  const note = planEditNote(row.triggerId);
  const currency = order.presentmentCurrencyCode;
  const previous = committedRecordOf(row.request);
  const made = order.refunds.find((refund) => refund.note === note);
  if (made) {
    // The app's refund is the last step: the edit before it is committed.
    const money = made.totalRefundedSet.presentmentMoney;
    return finished(order.name, previous?.planLines ?? [], {
      refundId: numericIdOf(made.id, "Refund") ?? made.id,
      amount: money.amount,
      currency: money.currencyCode,
    });
  }

  const edits = planLineEdits(JSON.parse(row.triggerLines) as EditedLine[], linesOf(order));
  const lowered = edits.filter((edit) => edit.to < edit.from);
  const fulfilled = edits.filter((edit) => edit.fulfilled > 0);
  let record: PlanEditRecord | null = previous;
  let balance = {
    paid: isPaid(order.displayFinancialStatus),
    outstanding: outstandingOf(order, currency),
  };
  if (lowered.length) {
    record = {
      planLines: lowered.map((edit) => ({ id: edit.planLineId, from: edit.from, to: edit.to })),
      removedValue: lowered.reduce((sum, edit) => sum + edit.value, 0),
    };
    const committed = await editPlanLines(context, order, lowered, note, record);
    if (committed.kind === "failed") return committed.outcome;
    balance = committed.balance;
  }
  if (!record) {
    if (fulfilled.length) return flagged(order.name, [], fulfilled, "");
    return {
      kind: "done",
      detail: `Nothing to reduce on order ${order.name}: its plan lines match the products left on it`,
    };
  }

  const amount = planEditRefundAmount({ removedValue: record.removedValue, ...balance });
  let refunded: ActionResult | null = null;
  let unrefunded = "";
  if (amount > 0) {
    const sale = order.transactions.find(
      (transaction) =>
        (transaction.kind === "SALE" || transaction.kind === "CAPTURE") &&
        transaction.status === "SUCCESS",
    );
    if (sale?.gateway) {
      const refund = await refundAmount(context, {
        order,
        amount: formatMinorUnits(amount, currency),
        parent: { id: sale.id, gateway: sale.gateway },
        note,
        idempotencyKey: planEditRefundIdempotencyKey(
          row.shop,
          row.triggerId,
          record.planLines.map((line) => line.id),
        ),
        record: { planEdit: record },
      });
      if (refund.kind === "failed") return refund.outcome;
      refunded = { refundId: refund.refundId, amount: refund.amount, currency: refund.currency };
    } else {
      unrefunded = `the order owes the customer ${formatMinorUnits(amount, currency)} ${currency} for the plan, but has no sale to refund it to: refund it from the order`;
    }
  }
  if (fulfilled.length || unrefunded) {
    const done = refunded ? refundPhrase(refunded) : unrefunded;
    return flagged(order.name, record.planLines, fulfilled, done);
  }
  return finished(order.name, record.planLines, refunded);
}

type Committed =
  | { kind: "committed"; balance: { paid: boolean; outstanding: number } }
  | { kind: "failed"; outcome: ActionOutcome };

/**
 * Begins an edit, sets each plan line's quantity and commits it, each mutation recorded first.
 * An edit begun and never committed (a crash, a refusal) changes nothing and is abandoned: only
 * orderEditCommit applies what a session staged.
 */
async function editPlanLines(
  context: ActionContext,
  order: OrderForPlanEdit,
  lowered: readonly PlanLineEdit[],
  staffNote: string,
  record: PlanEditRecord,
): Promise<Committed> {
  const refusedBy = (step: string, errors: Parameters<typeof userErrorsDetail>[0]) => ({
    kind: "failed" as const,
    outcome: {
      kind: "refused" as const,
      detail: `Shopify refused the plan edit (${step}) on ${order.name}: ${userErrorsDetail(errors) || "nothing returned"}`,
    },
  });
  const send = async <Operation extends AdminOperation>(
    mutation: string,
    query: Operation,
    variables: AdminVariables<Operation>,
  ) => recordAndSend(context, { mutation, variables, planEdit: record }, { query, variables });
  const lostClaim = { kind: "failed" as const, outcome: { kind: "lost_claim" as const } };

  const begun = await send("orderEditBegin", BEGIN_PLAN_EDIT_MUTATION, { id: order.id });
  if (!begun) return lostClaim;
  if (begun.kind !== "ok") return { kind: "failed", outcome: failureOutcome(begun) };
  const calculated = begun.data.orderEditBegin?.calculatedOrder;
  if (!calculated) return refusedBy("begin", begun.data.orderEditBegin?.userErrors ?? []);

  for (const edit of lowered) {
    const line = calculated.lineItems.nodes.find((candidate) =>
      candidate.id.endsWith(`/${edit.planLineId}`),
    );
    if (!line) {
      return refusedBy("set quantity", [
        { field: ["lineItemId"], message: `plan line ${edit.planLineId} is not in the edit` },
      ]);
    }
    const set = await send("orderEditSetQuantity", SET_PLAN_EDIT_QUANTITY_MUTATION, {
      id: calculated.id,
      lineItemId: line.id,
      quantity: edit.to,
    });
    if (!set) return lostClaim;
    if (set.kind !== "ok") return { kind: "failed", outcome: failureOutcome(set) };
    const errors = set.data.orderEditSetQuantity?.userErrors ?? [];
    if (errors.length) return refusedBy("set quantity", errors);
  }

  const commit = await send("orderEditCommit", COMMIT_PLAN_EDIT_MUTATION, {
    id: calculated.id,
    staffNote,
  });
  if (!commit) return lostClaim;
  if (commit.kind !== "ok") return { kind: "failed", outcome: failureOutcome(commit) };
  const after = commit.data.orderEditCommit?.order;
  if (!after) {
    // Known not committed: a later run (after a crash, or the merchant's retry) must not refund
    // the plan units this edit would have removed.
    const refusal = { mutation: "orderEditCommit", refused: true, planEdit: record };
    if (!(await context.beforeMutation(JSON.stringify(refusal)))) return lostClaim;
    return refusedBy("commit", commit.data.orderEditCommit?.userErrors ?? []);
  }
  return {
    kind: "committed",
    balance: {
      paid: isPaid(after.displayFinancialStatus),
      outstanding: outstandingOf(after, order.presentmentCurrencyCode),
    },
  };
}

function refundPhrase(result: ActionResult): string {
  return `${result.amount} ${result.currency} refunded, refund ${result.refundId}`;
}

function finished(
  orderName: string,
  planLines: PlanEditRecord["planLines"],
  refunded: ActionResult | null,
): ActionOutcome {
  const removed = planLines.reduce((sum, line) => sum + line.from - line.to, 0);
  const parts = [
    planLines.length
      ? `Plan reduced with its product on order ${orderName}: ${planEditPhrase(planLines)}`
      : `Plan reduced with its product on order ${orderName}`,
    ...(refunded ? [refundPhrase(refunded)] : []),
  ];
  return {
    kind: "done",
    detail: parts.join("; "),
    result: { ...(refunded ?? {}), ...(planLines.length ? { quantity: removed } : {}) },
  };
}

/**
 * Fulfilled plan units an edit cannot remove, or money owed with no sale to return it to: the
 * merchant decides, and refunds them.
 */
function flagged(
  orderName: string,
  planLines: PlanEditRecord["planLines"],
  fulfilled: readonly PlanLineEdit[],
  refundNote: string,
): ActionOutcome {
  const parts = [
    ...(planLines.length
      ? [`Plan reduced with its product on order ${orderName}: ${planEditPhrase(planLines)}`]
      : []),
    ...(refundNote ? [refundNote] : []),
    ...fulfilled.map(
      (edit) =>
        `${edit.fulfilled} unit(s) of plan line ${edit.planLineId} on order ${orderName} are fulfilled and cannot be removed by an edit: refund them from the order instead`,
    ),
  ];
  return { kind: "flagged", detail: parts.join("; ") };
}
