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

/** The fulfilment of plan lines with their fulfilled product (decision 025). */
export const FULFIL_PLAN_LINE = "fulfil_plan_line";

/** The plan line of a row recorded before the order's plan lines were known. */
export const PLAN_LINES_UNKNOWN = "";

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
  return {
    shop: input.shop,
    orderId: input.orderId,
    kind: REFUND_PLAN_LINE,
    triggerId: input.triggerRefundId,
    planLineId,
    triggerLines: JSON.stringify(input.triggerLines),
    sourceReceiptId: input.sourceReceiptId ?? null,
    ...(input.autoRefundPlans
      ? {}
      : { status: "skipped", detail: PLAN_REFUNDS_OFF, completedAt: new Date() }),
  };
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
    data: {
      shop: input.shop,
      orderId: input.orderId,
      kind: FULFIL_PLAN_LINE,
      triggerId: input.fulfillmentId,
      planLineId: PLAN_LINES_UNKNOWN,
      triggerLines: JSON.stringify(input.fulfilledLines),
      sourceReceiptId: input.sourceReceiptId,
      ...(input.autoFulfilPlans
        ? {}
        : { status: "skipped", detail: PLAN_FULFILMENTS_OFF, completedAt: new Date() }),
    },
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
