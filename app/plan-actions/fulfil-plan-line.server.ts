import { FULFIL_PLAN_LINES_MUTATION } from "../graphql/FulfilPlanLines";
import { ORDER_FOR_PLAN_FULFILMENT_QUERY } from "../graphql/OrderForPlanFulfilment";
import { numericIdOf } from "../lib/shopify-id";
import {
  planLineFulfilments,
  type FulfilledLine,
  type PlanFulfilmentInput,
  type PlanFulfilmentPlan,
} from "../orders";

import type { AdminData } from "../services/admin-api.server";
import {
  failureOutcome,
  userErrorsDetail,
  type ActionContext,
  type ActionOutcome,
  type ActionRow,
} from "./outcome.server";
import { lineIdOf, orderLineRefOf, readActionOrder, recordAndSend } from "./action-steps.server";

/*
 * The fulfilment of plan lines with their fulfilled product (decision 025): read the order again,
 * decide on what it holds now, and fulfil the difference. fulfillmentCreate takes no idempotency
 * key, so the read is what makes it once: after the app's fulfilment (or a crash after it) the
 * plan units are fulfilled, and the next read finds nothing left to do.
 */

type OrderForPlanFulfilment = NonNullable<
  AdminData<typeof ORDER_FOR_PLAN_FULFILMENT_QUERY>["order"]
>;

/** The order as the plan fulfilment rules read it. */
function planFulfilmentInputOf(
  order: OrderForPlanFulfilment,
  triggerLines: readonly FulfilledLine[],
): PlanFulfilmentInput {
  return {
    triggerLines,
    orderLines: order.lineItems.nodes.map(orderLineRefOf),
    fulfillments: order.fulfillments.map((fulfillment) => ({
      id: fulfillment.id,
      status: fulfillment.status,
      lines: fulfillment.fulfillmentLineItems.nodes.map((line) => ({
        lineItemId: lineIdOf(line.lineItem.id),
        quantity: line.quantity ?? 0,
      })),
    })),
    fulfillmentOrders: order.fulfillmentOrders.nodes.map((fo) => ({
      id: fo.id,
      status: fo.status,
      supportedActions: fo.supportedActions.map((supported) => supported.action),
      locationName: fo.assignedLocation.name,
      lines: fo.lineItems.nodes.map((line) => ({
        id: line.id,
        lineItemId: lineIdOf(line.lineItem.id),
        remainingQuantity: line.remainingQuantity,
      })),
    })),
  };
}

/** Why units due were left alone: a fulfilment order the app may not fulfil. */
function blockedSentence(blocked: PlanFulfilmentPlan["blocked"]): string {
  return blocked
    .map(
      (entry) =>
        `${entry.quantity} unit(s) of plan line ${entry.planLineId} are on fulfilment order ${numericIdOf(entry.fulfillmentOrderId, "FulfillmentOrder") ?? entry.fulfillmentOrderId}${entry.locationName ? ` (${entry.locationName})` : ""}, which the app cannot fulfil (it does not support CREATE_FULFILLMENT, e.g. a fulfilment service's): fulfil it there`,
    )
    .join("; ");
}

/** Runs one queued plan fulfilment; expected failures come back as outcomes. */
export async function runPlanFulfilment(
  context: ActionContext,
  row: Pick<ActionRow, "orderId" | "triggerLines">,
): Promise<ActionOutcome> {
  const read = await readActionOrder(context, ORDER_FOR_PLAN_FULFILMENT_QUERY, row.orderId);
  if ("outcome" in read) return read.outcome;
  const { order } = read;
  const triggerLines = JSON.parse(row.triggerLines) as FulfilledLine[];
  const plan = planLineFulfilments(planFulfilmentInputOf(order, triggerLines));

  const fulfillmentIds: string[] = [];
  let units = 0;
  for (const group of plan.fulfilments) {
    const fulfillment = {
      // The merchant's fulfilment of the product already told the customer.
      notifyCustomer: false,
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: group.fulfillmentOrderId,
          fulfillmentOrderLineItems: group.lines.map((line) => ({
            id: line.fulfillmentOrderLineId,
            quantity: line.quantity,
          })),
        },
      ],
    };
    const created = await recordAndSend(context, fulfillment, {
      query: FULFIL_PLAN_LINES_MUTATION,
      variables: { fulfillment },
    });
    if (!created) return { kind: "lost_claim" };
    // A failure after an earlier fulfilment of this row is safe to retry: the read counts it.
    if (created.kind !== "ok") return failureOutcome(created);
    const payload = created.data.fulfillmentCreate;
    const userErrors = payload?.userErrors ?? [];
    if (userErrors.length || !payload?.fulfillment) {
      return {
        kind: "refused",
        detail: `Shopify refused the plan fulfilment on ${order.name}: ${userErrorsDetail(userErrors) || "no fulfilment returned"}${fulfillmentIds.length ? ` (after fulfilment ${fulfillmentIds.join(", ")})` : ""}`,
      };
    }
    fulfillmentIds.push(
      numericIdOf(payload.fulfillment.id, "Fulfillment") ?? payload.fulfillment.id,
    );
    units += group.lines.reduce((sum, line) => sum + line.quantity, 0);
  }

  const blocked = plan.blocked.length ? blockedSentence(plan.blocked) : "";
  if (!fulfillmentIds.length) {
    return {
      kind: "done",
      detail: `Nothing fulfilled on order ${order.name}: ${blocked || plan.detail || "no plan unit is due"}`,
    };
  }
  const made = `Plan fulfilled with its product on order ${order.name}: ${units} unit(s), fulfilment ${fulfillmentIds.join(", ")}`;
  return {
    kind: "done",
    detail: blocked ? `${made}; ${blocked}` : made,
    result: { fulfillmentId: fulfillmentIds.join(","), quantity: units },
  };
}
