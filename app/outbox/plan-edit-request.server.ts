import type { AppTransaction } from "../db/client.server";
import { parseWebhookJson } from "../lib/json";
import { queuePlanEdit } from "../models/ShopifyAction.server";
import { placedLineRefs, planEditToQueue, readEditTrigger } from "../orders";
import type { OrderEvent } from "../protection/types";

/*
 * What an orders/edited asks of the app in Shopify (decision 026), decided in the transaction
 * that records the webhook: a plan edit when the edit lowered a product that plan lines of the
 * order protect, as its order_placed recorded them (or every removal, when that order_placed is
 * not recorded yet: the worker decides on the order it reads).
 */

export interface PlanEditRequest {
  /** What the receipt says of it. */
  note: string;
  /** Records the action, with the receipt of the webhook that asked for it. */
  queue(receiptId: string): Promise<void>;
}

export async function planEditRequestOf(
  tx: AppTransaction,
  delivery: { shop: string; rawBody: string },
  orderId: string,
  placedPayload: string | undefined,
): Promise<PlanEditRequest | null> {
  const trigger = readEditTrigger(parseWebhookJson(delivery.rawBody));
  if (trigger.kind !== "trigger") return null;
  const placed = placedPayload ? (JSON.parse(placedPayload) as OrderEvent) : null;
  const orderLines =
    placed?.type === "order_placed" ? placedLineRefs(placed.payload.line_items) : null;
  const found = planEditToQueue(trigger.removals, orderLines);
  if (found.kind !== "queue") return null;
  const connection = await tx.shopConnection.findUnique({
    where: { shop: delivery.shop },
    select: { autoEditPlans: true },
  });
  const autoEditPlans = connection?.autoEditPlans ?? true;
  return {
    note: autoEditPlans
      ? "plan edit queued"
      : "plan edit skipped (reducing plans with their products in order edits is off)",
    queue: (receiptId) =>
      queuePlanEdit(tx, {
        shop: delivery.shop,
        orderId,
        triggerEditId: trigger.editId,
        triggerLines: found.lines,
        autoEditPlans,
        sourceReceiptId: receiptId,
      }),
  };
}
