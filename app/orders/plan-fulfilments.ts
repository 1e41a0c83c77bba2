import { idString } from "../lib/shopify-id";
import { webhookResource } from "./map-webhook";
import { isJsonObject } from "./payload-reader";
import { type OrderLineRef, type RefundedLine, lineRefOf, positiveQuantity } from "./plan-refunds";

/*
 * Plans follow their products (decision 025): when the merchant fulfils a protected product, the
 * app fulfils the same units of its plan lines, if the merchant turned that on. Pure: a
 * fulfillments/create payload, the app's record of the order's lines and the order as the Admin
 * API answers it come in; whether to act, and which fulfilment order lines to fulfil, comes out.
 */

/** A fulfilled line of a fulfilment: which line item, and how many units. */
export type FulfilledLine = RefundedLine;

export type FulfilmentTrigger =
  | {
      kind: "trigger";
      orderId: string;
      fulfillmentId: string;
      lines: FulfilledLine[];
      /** The fulfilled lines as the payload describes them (its `line_items` are order lines). */
      payloadLines: OrderLineRef[];
    }
  | { kind: "none"; detail: string };

/**
 * What a fulfillments/create asks of the app. Only a successful fulfilment of line items is a
 * trigger: a pending one (a fulfilment service's) has shipped nothing yet.
 */
export function readFulfilmentTrigger(payload: unknown): FulfilmentTrigger {
  const fulfillment = webhookResource("fulfillments/create", payload);
  const fulfillmentId = idString(fulfillment?.id);
  const orderId = idString(fulfillment?.order_id);
  if (!fulfillment || fulfillmentId === null || orderId === null) {
    return { kind: "none", detail: "the fulfilment has no ID or order ID" };
  }
  if (fulfillment.status !== "success") {
    return { kind: "none", detail: `fulfilment ${fulfillmentId} is not a success` };
  }
  const lines: FulfilledLine[] = [];
  const payloadLines: OrderLineRef[] = [];
  const entries = Array.isArray(fulfillment.line_items) ? fulfillment.line_items : [];
  for (const entry of entries) {
    if (!isJsonObject(entry)) continue;
    const lineItemId = idString(entry.id);
    const quantity = positiveQuantity(entry.quantity);
    if (lineItemId === null || quantity === 0) continue;
    lines.push({ lineItemId, quantity });
    payloadLines.push(lineRefOf(entry, lineItemId));
  }
  if (!lines.length) {
    return { kind: "none", detail: `fulfilment ${fulfillmentId} fulfils no line item` };
  }
  return { kind: "trigger", orderId, fulfillmentId, lines, payloadLines };
}

function isProductLine(line: OrderLineRef): line is OrderLineRef & { variantRef: string } {
  return line.protectedRef === null && line.variantRef !== null;
}

/**
 * Whether a fulfilment may have plan lines to fulfil: it fulfils more units of a product line
 * that plan lines protect than of those plan lines (a merchant who fulfils the whole order at
 * once leaves nothing to do). `orderLines` is null when the app does not know the order's lines
 * yet (its order_placed is not recorded): then any product line fulfilled may have plans, and the
 * worker decides when it reads the order. A fulfilment of plan lines only (the app's own) never
 * does: that is what keeps the app from answering its own fulfilments.
 */
export function fulfilmentMayFulfilPlans(
  trigger: { lines: readonly FulfilledLine[]; payloadLines: readonly OrderLineRef[] },
  orderLines: readonly OrderLineRef[] | null,
): boolean {
  const known = new Map<string, OrderLineRef>();
  for (const line of [...trigger.payloadLines, ...(orderLines ?? [])]) known.set(line.id, line);
  const productUnits = new Map<string, number>();
  const planUnits = new Map<string, number>();
  for (const { lineItemId, quantity } of trigger.lines) {
    const line = known.get(lineItemId);
    // A line neither the payload nor the record describes may be anything: the worker reads it.
    if (!line) return true;
    if (isProductLine(line)) {
      productUnits.set(line.variantRef, (productUnits.get(line.variantRef) ?? 0) + quantity);
    } else if (line.protectedRef !== null) {
      planUnits.set(line.protectedRef, (planUnits.get(line.protectedRef) ?? 0) + quantity);
    }
  }
  return [...productUnits].some(
    ([variant, units]) =>
      units > (planUnits.get(variant) ?? 0) &&
      (orderLines === null || orderLines.some((line) => line.protectedRef === variant)),
  );
}

/** A fulfilment of the order as the Admin API lists it; status as GraphQL spells it. */
export interface OrderFulfilment {
  id: string;
  status: string;
  lines: FulfilledLine[];
}

/** A fulfilment order, with what the app may do with it. */
export interface PlanFulfilmentOrder {
  id: string;
  /** FulfillmentOrderStatus: only an open one holds units still to fulfil. */
  status: string;
  /** FulfillmentOrderAction values: the app fulfils only where CREATE_FULFILLMENT is one. */
  supportedActions: readonly string[];
  /** Where it is fulfilled from, for the merchant: the location's name. */
  locationName: string | null;
  lines: { id: string; lineItemId: string; remainingQuantity: number }[];
}

export interface PlanFulfilmentInput {
  /** The product lines the trigger fulfilled: their variants are the plans' to follow. */
  triggerLines: readonly FulfilledLine[];
  orderLines: readonly OrderLineRef[];
  fulfillments: readonly OrderFulfilment[];
  fulfillmentOrders: readonly PlanFulfilmentOrder[];
}

/** Units of one plan line to fulfil from one fulfilment order line. */
export interface PlanFulfilmentLine {
  planLineId: string;
  fulfillmentOrderLineId: string;
  quantity: number;
}

export interface PlanFulfilmentPlan {
  /** One fulfillmentCreate per fulfilment order, each with its lines. */
  fulfilments: { fulfillmentOrderId: string; lines: PlanFulfilmentLine[] }[];
  /** Units due that sit on fulfilment orders the app may not fulfil (a fulfilment service's). */
  blocked: {
    planLineId: string;
    fulfillmentOrderId: string;
    locationName: string | null;
    quantity: number;
  }[];
  /** Why nothing is due, when nothing is. */
  detail: string;
}

/** Fulfilment orders whose lines still wait for a fulfilment. */
const OPEN_STATUSES = new Set(["OPEN", "IN_PROGRESS", "ON_HOLD", "SCHEDULED", "INCOMPLETE"]);

/** A product's fulfilment counts once it succeeded. */
const PRODUCT_FULFILLED = new Set(["SUCCESS"]);
/** A plan's counts unless it failed or was cancelled: the app never fulfils a unit twice. */
const PLAN_NOT_FULFILLED = new Set(["CANCELLED", "ERROR", "FAILURE"]);

function sumOf(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * The plan units to fulfil, read from the order as it is now, so that the answer converges and
 * never overshoots: for each variant the trigger fulfilled, the plan units due are the product
 * units fulfilled minus the plan units fulfilled, shared over the variant's plan lines in line
 * order, each up to what its open fulfilment orders still hold of it (refunded and removed units
 * are not there). Read again after the app's fulfilment
 * (or a crash after it), the answer is nothing: that is how the fulfilment happens once.
 */
export function planLineFulfilments(input: PlanFulfilmentInput): PlanFulfilmentPlan {
  const { orderLines } = input;
  const byId = new Map(orderLines.map((line) => [line.id, line]));
  const fulfilledOf = (lineId: string, counts: (status: string) => boolean) =>
    sumOf(
      input.fulfillments
        .filter((fulfillment) => counts(fulfillment.status))
        .flatMap((fulfillment) =>
          fulfillment.lines.filter((line) => line.lineItemId === lineId).map((l) => l.quantity),
        ),
    );
  const variants: string[] = [];
  for (const { lineItemId } of input.triggerLines) {
    const line = byId.get(lineItemId);
    if (line && isProductLine(line) && !variants.includes(line.variantRef)) {
      variants.push(line.variantRef);
    }
  }
  const plan: PlanFulfilmentPlan = { fulfilments: [], blocked: [], detail: "" };
  const reasons: string[] = [];
  if (!variants.length) {
    plan.detail = "the fulfilment took no unit of a product line";
    return plan;
  }
  for (const variant of variants) {
    const planLines = orderLines.filter((line) => line.protectedRef === variant);
    if (!planLines.length) {
      reasons.push(`no plan line protects product ${variant}`);
      continue;
    }
    const productsFulfilled = sumOf(
      orderLines
        .filter((line) => isProductLine(line) && line.variantRef === variant)
        .map((line) => fulfilledOf(line.id, (status) => PRODUCT_FULFILLED.has(status))),
    );
    const plansFulfilled = sumOf(
      planLines.map((line) => fulfilledOf(line.id, (status) => !PLAN_NOT_FULFILLED.has(status))),
    );
    let left = Math.max(0, productsFulfilled - plansFulfilled);
    if (left === 0) {
      reasons.push(
        `${plansFulfilled} plan unit(s) of product ${variant} are fulfilled for ${productsFulfilled} product unit(s)`,
      );
      continue;
    }
    const before = left;
    for (const line of planLines) {
      left -= allocate(plan, input.fulfillmentOrders, line.id, left);
    }
    if (left === before)
      reasons.push(`the plan lines of product ${variant} have nothing left to fulfil`);
  }
  plan.detail = reasons.join("; ");
  return plan;
}

/**
 * Takes up to `units` of a plan line from its open fulfilment order lines, blocked where the app
 * may not fulfil; how many it took.
 */
function allocate(
  plan: PlanFulfilmentPlan,
  fulfillmentOrders: readonly PlanFulfilmentOrder[],
  planLineId: string,
  units: number,
): number {
  let left = units;
  for (const order of fulfillmentOrders) {
    if (!OPEN_STATUSES.has(order.status)) continue;
    const canCreate = order.supportedActions.includes("CREATE_FULFILLMENT");
    for (const foLine of order.lines) {
      if (left === 0 || foLine.lineItemId !== planLineId) continue;
      const quantity = Math.min(left, foLine.remainingQuantity);
      if (quantity === 0) continue;
      left -= quantity;
      if (!canCreate) {
        plan.blocked.push({
          planLineId,
          fulfillmentOrderId: order.id,
          locationName: order.locationName,
          quantity,
        });
        continue;
      }
      let group = plan.fulfilments.find((entry) => entry.fulfillmentOrderId === order.id);
      if (!group) {
        group = { fulfillmentOrderId: order.id, lines: [] };
        plan.fulfilments.push(group);
      }
      group.lines.push({ planLineId, fulfillmentOrderLineId: foLine.id, quantity });
    }
  }
  return units - left;
}
