import type { AppPrismaClient, AppTransaction } from "../db/client.server";
import { isUniqueViolation } from "../lib/unique-violation";
import type { FulfilledLine, RefundedLine } from "../orders";

/*
 * What the app does in Shopify for the merchant (decision 022): a durable queue beside the
 * outbox. A row is recorded with the webhook that asks for it, in the same transaction, and is
 * unique per shop, kind, trigger and plan line, so a redelivered webhook adds nothing.
 */

export const SHOPIFY_ACTION_STATUSES = [
  "pending",
  "running",
  "done",
  "skipped",
  "failed",
  "dead",
] as const;
export type ShopifyActionStatus = (typeof SHOPIFY_ACTION_STATUSES)[number];

/** The refund of a plan line with its refunded product. */
export const REFUND_PLAN_LINE = "refund_plan_line";

/** The reduction of an order's plan lines with a product an order edit lowered (decision 026). */
export const EDIT_PLAN_LINE = "edit_plan_line";
/** The check that a cancelled order's plans were refunded (decision 027): one row per order. */
export const CHECK_CANCELLED_PLANS = "check_cancelled_plans";
/** The fulfilment of plan lines with their fulfilled product (decision 025). */
export const FULFIL_PLAN_LINE = "fulfil_plan_line";

/** The plan line of a row recorded before the order's plan lines were known. */
export const PLAN_LINES_UNKNOWN = "";

/** `requestedBy` of a run the merchant asked for from the admin: it runs whatever the settings. */
export const REQUESTED_BY_MERCHANT = "merchant";

/** A new row of the queue: pending, or skipped with `offDetail` when its automation is off. */
function actionRow(
  action: {
    shop: string;
    orderId: string;
    kind: string;
    triggerId: string;
    planLineId: string;
    triggerLines: readonly unknown[];
    sourceReceiptId?: string;
  },
  offDetail: string | null,
) {
  return {
    ...action,
    triggerLines: JSON.stringify(action.triggerLines),
    sourceReceiptId: action.sourceReceiptId ?? null,
    ...(offDetail === null
      ? {}
      : { status: "skipped", detail: offDetail, completedAt: new Date() }),
  };
}

export interface PlanRefundsToQueue {
  shop: string;
  orderId: string;
  triggerRefundId: string;
  triggerLines: readonly RefundedLine[];
  /** The plan lines, or [PLAN_LINES_UNKNOWN] when they are found when the action runs. */
  planLineIds: readonly string[];
  /** Off: recorded as skipped, never sent to Shopify. */
  autoRefundPlans: boolean;
  sourceReceiptId?: string;
}

/** Why a plan refund was skipped: the merchant's setting. */
export const PLAN_REFUNDS_OFF =
  "Not refunded: refunding plans with their products is off in the app's settings";

function planRefundRow(input: Omit<PlanRefundsToQueue, "planLineIds">, planLineId: string) {
  return actionRow(
    {
      shop: input.shop,
      orderId: input.orderId,
      kind: REFUND_PLAN_LINE,
      triggerId: input.triggerRefundId,
      planLineId,
      triggerLines: input.triggerLines,
      sourceReceiptId: input.sourceReceiptId,
    },
    input.autoRefundPlans ? null : PLAN_REFUNDS_OFF,
  );
}

/** Why a plan fulfilment was skipped: the merchant's setting, off unless turned on. */
export const PLAN_FULFILMENTS_OFF =
  "Not fulfilled: fulfilling plans with their products is off in the app's settings";

/**
 * Queues the plan fulfilment a fulfillments/create asks for, inside the webhook's transaction:
 * one row per fulfilment, for every plan line of the order (found when it runs).
 */
export async function queuePlanFulfilment(
  tx: AppTransaction,
  input: {
    shop: string;
    orderId: string;
    fulfillmentId: string;
    fulfilledLines: readonly FulfilledLine[];
    autoFulfilPlans: boolean;
    sourceReceiptId: string;
  },
) {
  await tx.shopifyAction.create({
    data: actionRow(
      {
        shop: input.shop,
        orderId: input.orderId,
        kind: FULFIL_PLAN_LINE,
        triggerId: input.fulfillmentId,
        planLineId: PLAN_LINES_UNKNOWN,
        triggerLines: input.fulfilledLines,
        sourceReceiptId: input.sourceReceiptId,
      },
      input.autoFulfilPlans ? null : PLAN_FULFILMENTS_OFF,
    ),
  });
}

/** Queues the plan refunds a refunds/create asks for, inside the webhook's transaction. */
export async function queuePlanRefunds(tx: AppTransaction, input: PlanRefundsToQueue) {
  const { count } = await tx.shopifyAction.createMany({
    data: input.planLineIds.map((planLineId) => planRefundRow(input, planLineId)),
  });
  return count;
}

/**
 * Queues the plan lines found for a row recorded before they were known. A plan line already
 * queued for the same trigger keeps its row.
 */
export async function queueFoundPlanLines(
  db: AppPrismaClient,
  row: { shop: string; orderId: string; triggerId: string; triggerLines: string },
  planLineIds: readonly string[],
): Promise<number> {
  const input = {
    shop: row.shop,
    orderId: row.orderId,
    triggerRefundId: row.triggerId,
    triggerLines: JSON.parse(row.triggerLines) as RefundedLine[],
    autoRefundPlans: true,
  };
  let queued = 0;
  for (const planLineId of planLineIds) {
    try {
      await db.shopifyAction.create({ data: planRefundRow(input, planLineId) });
      queued += 1;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return queued;
}

/** Why a plan edit was skipped: the merchant's setting. */
export const PLAN_EDITS_OFF =
  "Not reduced: reducing plans with their products in order edits is off in the app's settings";

export interface PlanEditToQueue {
  shop: string;
  orderId: string;
  triggerEditId: string;
  /** The product lines the edit lowered, with the units it removed. */
  triggerLines: readonly RefundedLine[];
  /** Off: recorded as skipped, never sent to Shopify. */
  autoEditPlans: boolean;
  sourceReceiptId: string;
}

/**
 * Queues the plan edit an orders/edited asks for, inside the webhook's transaction: one row for
 * every plan line of the order, found when it runs.
 */
export async function queuePlanEdit(tx: AppTransaction, input: PlanEditToQueue) {
  await tx.shopifyAction.create({
    data: actionRow(
      {
        shop: input.shop,
        orderId: input.orderId,
        kind: EDIT_PLAN_LINE,
        triggerId: input.triggerEditId,
        planLineId: PLAN_LINES_UNKNOWN,
        triggerLines: input.triggerLines,
        sourceReceiptId: input.sourceReceiptId,
      },
      input.autoEditPlans ? null : PLAN_EDITS_OFF,
    ),
  });
}

/**
 * Queues the cancel check of an order with plan lines, inside its orders/cancelled transaction;
 * false when the order has one already (its events were purged and the webhook came again: an
 * order is cancelled once). No setting skips it: the check never refunds on its own.
 */
export async function queueCancelledPlansCheck(
  tx: AppTransaction,
  input: { shop: string; orderId: string; sourceReceiptId: string },
): Promise<boolean> {
  const key = {
    shop: input.shop,
    kind: CHECK_CANCELLED_PLANS,
    triggerId: input.orderId,
    planLineId: PLAN_LINES_UNKNOWN,
  };
  const existing = await tx.shopifyAction.findUnique({
    where: { shop_kind_triggerId_planLineId: key },
    select: { id: true },
  });
  if (existing) return false;
  await tx.shopifyAction.create({
    data: actionRow(
      { ...key, orderId: input.orderId, triggerLines: [], sourceReceiptId: input.sourceReceiptId },
      null,
    ),
  });
  return true;
}

/** The most actions an order's page lists: an order has a few, one per plan line and trigger. */
export const ORDER_ACTIONS_SHOWN = 50;

/** An order's actions in the order they run (the first 50), for its events' pages. */
export function listOrderShopifyActions(db: AppPrismaClient, shop: string, orderId: string) {
  return db.shopifyAction.findMany({
    where: { shop, orderId },
    orderBy: { id: "asc" },
    take: ORDER_ACTIONS_SHOWN,
  });
}

/**
 * The statuses a merchant can run an action from: skipped (its automation off, or flagged for
 * the merchant) and dead. An order with such an action needs the merchant's attention.
 */
export const RUNNABLE_BY_MERCHANT = ["skipped", "dead"] as const;

/** The most orders the "Needs attention" filter looks for at once. */
export const ATTENTION_ORDERS_SHOWN = 1_000;

/**
 * The shop's orders with an action waiting for the merchant (skipped or dead), among `orderIds`
 * when given (a page of the log), else the first 1,000. They are few: the rest are done.
 */
export async function listOrdersNeedingAttention(
  db: AppPrismaClient,
  shop: string,
  orderIds?: readonly string[],
): Promise<string[]> {
  const rows = await db.shopifyAction.findMany({
    where: {
      shop,
      status: { in: [...RUNNABLE_BY_MERCHANT] },
      ...(orderIds ? { orderId: { in: [...orderIds] } } : {}),
    },
    distinct: ["orderId"],
    select: { orderId: true },
    orderBy: { orderId: "asc" },
    take: ATTENTION_ORDERS_SHOWN,
  });
  return rows.map((row) => row.orderId);
}

export type ActionRunRequest =
  | { status: "not_found" }
  | { status: "not_runnable"; current: string }
  | { status: "requested"; from: string };

/**
 * The merchant's "Run now" or "Retry" (decision 027): a skipped or dead action of the shop
 * becomes due now, from a fresh start, marked as the merchant's request, which the worker runs
 * whatever the settings say. Only one request wins: a second click finds it pending (or done)
 * and changes nothing. Another shop's action is not found.
 */
export async function requestActionRun(
  db: AppPrismaClient,
  shop: string,
  actionId: number,
  now = new Date(),
): Promise<ActionRunRequest> {
  const action = await db.shopifyAction.findFirst({
    where: { id: actionId, shop },
    select: { status: true },
  });
  if (!action) return { status: "not_found" };
  const { count } = await db.shopifyAction.updateMany({
    where: { id: actionId, shop, status: { in: [...RUNNABLE_BY_MERCHANT] } },
    data: {
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      firstFailedAt: null,
      lastError: null,
      completedAt: null,
      claimedBy: null,
      leaseExpiresAt: null,
      requestedBy: REQUESTED_BY_MERCHANT,
      requestedAt: now,
    },
  });
  if (count === 0) {
    const current = await db.shopifyAction.findFirst({
      where: { id: actionId, shop },
      select: { status: true },
    });
    return { status: "not_runnable", current: current?.status ?? action.status };
  }
  return { status: "requested", from: action.status };
}
