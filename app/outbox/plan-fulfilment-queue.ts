import {
  fulfilmentMayFulfilPlans,
  placedLineRefs,
  readFulfilmentTrigger,
  type FulfilledLine,
  type FulfilmentTrigger,
  type OrderTopic,
} from "../orders";
import type { OrderEvent } from "../protection/types";

/*
 * What a fulfillments/create asks of the app in Shopify (decision 025): a plan fulfilment, when
 * the fulfilment fulfils products that plan lines protect. Kept apart from the recording of the
 * webhook, which only asks this module whether to queue one and what its row says.
 */

export interface PlanFulfilmentRequest {
  trigger: FulfilmentTrigger;
  autoFulfilPlans: boolean;
}

/** The request of a fulfillments/create; null for every other topic. */
export function planFulfilmentRequest(
  topic: OrderTopic,
  payload: unknown,
  autoFulfilPlans: boolean,
): PlanFulfilmentRequest | null {
  if (topic !== "fulfillments/create") return null;
  return { trigger: readFulfilmentTrigger(payload), autoFulfilPlans };
}

/**
 * The plan fulfilment row to queue, from the order's lines as its order_placed recorded them;
 * null when the fulfilment fulfils no protected product. Before that order_placed is recorded,
 * a fulfilment of products is queued, and the worker decides when it reads the order.
 */
export function planFulfilmentToQueue(
  request: PlanFulfilmentRequest,
  placedPayload: string | undefined,
): {
  fulfillmentId: string;
  fulfilledLines: FulfilledLine[];
  autoFulfilPlans: boolean;
  note: string;
} | null {
  const { trigger, autoFulfilPlans } = request;
  if (trigger.kind !== "trigger") return null;
  const placed = placedPayload ? (JSON.parse(placedPayload) as OrderEvent) : null;
  const orderLines =
    placed?.type === "order_placed" ? placedLineRefs(placed.payload.line_items) : null;
  if (!fulfilmentMayFulfilPlans(trigger, orderLines)) return null;
  return {
    fulfillmentId: trigger.fulfillmentId,
    fulfilledLines: trigger.lines,
    autoFulfilPlans,
    note: autoFulfilPlans
      ? "plan fulfilment queued"
      : "plan fulfilment skipped (fulfilling plans with their products is off)",
  };
}
