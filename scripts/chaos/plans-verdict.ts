import type { RecordedRequest } from "../../emulator/state";

/*
 * The plan chaos run's verdict (docs/reliability.md): from the store's orders as they ended, the
 * app's own Shopify actions in them, and what the protection service stored. Pure: the same
 * inputs always give the same counts.
 */

/** A line of an order as the store ended it. */
export interface EndedLine {
  id: string;
  variantId: string | null;
  /** The variant a plan line protects (`_svc_protected_product_ref`); null for a product line. */
  protects: string | null;
  /** Units ordered at checkout. */
  placed: number;
  /** Units after committed edits. */
  ordered: number;
  refunded: number;
  fulfilled: number;
  /** Units still to fulfil. */
  fulfillable: number;
}

export interface EndedRefund {
  id: string;
  note: string | null;
  lines: { lineItemId: string; quantity: number; restockType: string }[];
}

export interface EndedOrder {
  id: string;
  name: string;
  cancelled: boolean;
  lines: EndedLine[];
  refunds: EndedRefund[];
  fulfilments: number;
  /** Committed edits that removed units. */
  editsRemovingUnits: number;
}

export interface PlanVerdictOptions {
  /** The note every refund of the app starts with. */
  appRefundNote: string;
  /** Whether the app fulfils plans with their products (autoFulfilPlans). */
  fulfilsPlans: boolean;
}

export interface PlanVerdict {
  orders: number;
  /** Plan refunds the app made (refunds of plan lines with its note). */
  appRefunds: number;
  /** Refunds of the app naming a trigger and plan line that another refund of the app named too. */
  doubleRefunds: number;
  /** Protected variants whose plan units held exceed the product units held: a plan not refunded or reduced. */
  missedPlanRefunds: number;
  /** Protected variants with fewer plan units held than the product units held: too much refunded. */
  overRefunded: number;
  /** Plan units fulfilled that differ from what their products' fulfilment asks (setting on). */
  fulfilmentMismatches: number;
  /** The orders of the counts above, to look their actions up. */
  orderIds: string[];
  examples: string[];
}

const TRIGGER = /\(refund (\d+)\)$/;

interface Held {
  plan: number;
  planPlaced: number;
  product: number;
  planFulfilled: number;
  planFulfillable: number;
  productFulfilled: number;
}

function heldByVariant(order: EndedOrder): Map<string, Held> {
  const held = new Map<string, Held>();
  const entry = (variant: string) => {
    let found = held.get(variant);
    if (!found) {
      found = {
        plan: 0,
        planPlaced: 0,
        product: 0,
        planFulfilled: 0,
        planFulfillable: 0,
        productFulfilled: 0,
      };
      held.set(variant, found);
    }
    return found;
  };
  for (const line of order.lines) {
    const units = line.ordered - line.refunded;
    if (line.protects) {
      const found = entry(line.protects);
      found.plan += units;
      found.planPlaced += line.placed;
      found.planFulfilled += line.fulfilled;
      found.planFulfillable += line.fulfillable;
    } else if (line.variantId) {
      const found = entry(line.variantId);
      found.product += units;
      found.productFulfilled += line.fulfilled;
    }
  }
  return held;
}

/**
 * Judges the ended orders:
 * - no refund of the app twice for one trigger refund and plan line;
 * - on every order not cancelled, for every protected variant, the plan units held equal the
 *   plan units bought, capped at the product units held: none missed, none refunded too many
 *   (the merchant in the run never refunds or edits plan lines by hand);
 * - with fulfilment on, no more plan units fulfilled than product units, and none left to
 *   fulfil while fewer are.
 */
export function judgePlans(
  orders: readonly EndedOrder[],
  options: PlanVerdictOptions,
): PlanVerdict {
  const verdict: PlanVerdict = {
    orders: orders.length,
    appRefunds: 0,
    doubleRefunds: 0,
    missedPlanRefunds: 0,
    overRefunded: 0,
    fulfilmentMismatches: 0,
    orderIds: [],
    examples: [],
  };
  let current = "";
  const example = (line: string) => {
    if (!verdict.orderIds.includes(current)) verdict.orderIds.push(current);
    if (verdict.examples.length < 12) verdict.examples.push(line);
  };
  for (const order of orders) {
    current = order.id;
    const seen = new Set<string>();
    for (const refund of order.refunds) {
      if (!refund.note?.startsWith(options.appRefundNote)) continue;
      verdict.appRefunds += 1;
      const trigger = TRIGGER.exec(refund.note)?.[1] ?? "?";
      for (const line of refund.lines) {
        const key = `${trigger}:${line.lineItemId}`;
        if (seen.has(key)) {
          verdict.doubleRefunds += 1;
          example(
            `${order.name}: plan line ${line.lineItemId} refunded twice for refund ${trigger}`,
          );
        }
        seen.add(key);
      }
    }
    if (order.cancelled) continue;
    for (const [variant, held] of heldByVariant(order)) {
      if (held.planPlaced === 0) continue;
      const expected = Math.min(held.planPlaced, Math.max(0, held.product));
      if (held.plan > expected) {
        verdict.missedPlanRefunds += 1;
        example(
          `${order.name} (${order.id}): variant ${variant} holds ${held.plan} plan unit(s) for ${held.product} product unit(s)`,
        );
      } else if (held.plan < expected) {
        verdict.overRefunded += 1;
        example(
          `${order.name}: variant ${variant} holds ${held.plan} plan unit(s), ${expected} expected`,
        );
      }
      if (options.fulfilsPlans) {
        const over = held.planFulfilled > held.productFulfilled;
        const short = held.planFulfilled < held.productFulfilled && held.planFulfillable > 0;
        if (over || short) {
          verdict.fulfilmentMismatches += 1;
          example(
            `${order.name}: variant ${variant} has ${held.planFulfilled} plan unit(s) fulfilled for ${held.productFulfilled} product unit(s)`,
          );
        }
      }
    }
  }
  return verdict;
}

export interface ServiceVerdict {
  /** Events the service stored (both environments), one per distinct event_id. */
  storedEvents: number;
  /** Events the orders' Shopify actions ask for (cancelled orders: at most). */
  expectedEvents: number;
  /** Stored events beyond what an order's actions ask for, by type (re-sends below excepted). */
  duplicateEvents: number;
  /**
   * Copies the app sent again after an outcome it could not know (the answer to the copy before
   * never reached it: its sender was killed mid-send), with that copy's Idempotency-Key. The
   * service stores every copy (the spec has no deduplication); these are allowed.
   */
  resentAfterUnknownOutcome: number;
  /** Events an order's actions ask for that the service never stored (orders not cancelled). */
  lostEvents: number;
  /** Orders whose first stored event was not order_placed. */
  ordersNotPlacedFirst: number;
  orders: number;
  examples: string[];
}

type Counts = Record<string, number>;

/**
 * The events an order's Shopify actions ask for (decision 007): its placement, one per
 * fulfilment, per refund one line cancellation (units restocked as cancelled) and one refund
 * (the rest), one line cancellation per edit that removed units, and its cancellation.
 */
export function expectedEventsOf(order: EndedOrder): Counts {
  const counts: Counts = {
    order_placed: 1,
    order_fulfillment_added: order.fulfilments,
    order_line_items_cancelled: order.editsRemovingUnits,
    order_refund_added: 0,
    order_cancelled: order.cancelled ? 1 : 0,
  };
  for (const refund of order.refunds) {
    const cancels = refund.lines.some((line) => line.restockType === "cancel");
    const refunds = refund.lines.some((line) => line.restockType !== "cancel");
    if (cancels) counts.order_line_items_cancelled! += 1;
    if (refunds) counts.order_refund_added! += 1;
  }
  return counts;
}

/**
 * What the service stored against what the orders asked for: each Shopify action once, none
 * lost, order_placed first. A cancelled order's cancel refund may or may not repeat its line
 * cancellations (they are dropped once order_cancelled is recorded), so for cancelled orders
 * the expected counts are a ceiling and only their placement and cancellation must arrive.
 */
export function judgeServiceEvents(
  orders: readonly EndedOrder[],
  requests: readonly RecordedRequest[],
): ServiceVerdict {
  const verdict: ServiceVerdict = {
    storedEvents: 0,
    expectedEvents: 0,
    duplicateEvents: 0,
    resentAfterUnknownOutcome: 0,
    lostEvents: 0,
    ordersNotPlacedFirst: 0,
    orders: 0,
    examples: [],
  };
  const example = (line: string) => {
    if (verdict.examples.length < 12) verdict.examples.push(line);
  };
  const eventIds = new Set<string>();
  const stored = new Map<string, Counts>();
  const firstTypeOf = new Map<string, string>();
  /** The latest stored copy of each Idempotency-Key: was its answer received? */
  const answeredByKey = new Map<string, boolean | null>();
  for (const request of requests) {
    if (request.method !== "POST" || !/\/(events|orders)$/.test(request.path)) continue;
    if (request.status >= 300 || !request.event_id || eventIds.has(request.event_id)) continue;
    const body = request.body as { type?: string; payload?: { order_id?: string } } | null;
    if (!body?.type || typeof body.payload?.order_id !== "string") continue;
    eventIds.add(request.event_id);
    verdict.storedEvents += 1;
    const orderId = body.payload.order_id;
    if (!firstTypeOf.has(orderId)) firstTypeOf.set(orderId, body.type);
    const key = request.idempotency_key;
    const resent = key !== null && answeredByKey.get(key) === false;
    if (key !== null) answeredByKey.set(key, request.answered);
    if (resent) {
      verdict.resentAfterUnknownOutcome += 1;
      continue;
    }
    const counts = stored.get(orderId) ?? {};
    counts[body.type] = (counts[body.type] ?? 0) + 1;
    stored.set(orderId, counts);
  }
  for (const order of orders) {
    const expected = expectedEventsOf(order);
    const got = stored.get(order.id) ?? {};
    for (const type of new Set([...Object.keys(expected), ...Object.keys(got)])) {
      const want = expected[type] ?? 0;
      const have = got[type] ?? 0;
      verdict.expectedEvents += want;
      if (have > want) {
        verdict.duplicateEvents += have - want;
        example(`${order.name} (${order.id}): ${have} × ${type} stored, ${want} expected`);
      }
      const mustArrive = !order.cancelled || type === "order_placed" || type === "order_cancelled";
      if (have < want && mustArrive) {
        verdict.lostEvents += want - have;
        example(`${order.name} (${order.id}): ${have} × ${type} stored, ${want} expected`);
      }
    }
  }
  verdict.orders = firstTypeOf.size;
  for (const [orderId, type] of firstTypeOf) {
    if (type === "order_placed") continue;
    verdict.ordersNotPlacedFirst += 1;
    example(`order ${orderId}: first stored event ${type}`);
  }
  return verdict;
}
