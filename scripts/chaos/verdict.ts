import type { RecordedRequest } from "../../emulator/state";
import { LIFECYCLE_EVENT_TYPES, type EventType } from "./scenario";

/*
 * The chaos run's verdict, from what the emulator recorded (both environments) against what
 * Shopify told the app. Pure: the same requests always give the same counts.
 */

export type Environment = "sandbox" | "production";

export interface ExpectedOrder {
  orderId: string;
  /** Where the order's events belong: the environment its orders/create was recorded in. */
  environment: Environment;
}

interface EventRequest {
  position: number;
  type: EventType;
  orderId: string;
  environment: Environment;
  eventId: string | undefined;
  idempotencyKey: string | null;
  fault: RecordedRequest["fault"];
  answered: boolean | null;
}

export interface Verdict {
  expectedEvents: number;
  /** Copies the service stored, both environments. */
  storedEvents: number;
  /** An expected action the service never stored in the right environment. */
  lost: number;
  /** Actions stored (also) in the other environment. */
  wrongEnvironment: number;
  /** Stored events of no expected action. */
  unexpected: number;
  /** Extra copies the app sent after a time-out, with the first copy's Idempotency-Key. */
  resentAfterTimeout: number;
  /** Extra copies sent after their sender died mid-send, with the first copy's key. */
  resentAfterCrash: number;
  /** Every other extra copy: the app sent again what the service had answered. */
  otherDuplicates: number;
  /** Extra copies sent without a key, or with another key than the first copy. */
  duplicatesWithoutSameKey: number;
  orders: number;
  /** Orders whose first event request (any environment, any answer) was not order_placed. */
  ordersNotPlacedFirst: number;
  examples: string[];
}

const EVENT_TYPES = new Set<string>(LIFECYCLE_EVENT_TYPES);

function eventRequestOf(request: RecordedRequest, position: number): EventRequest | null {
  if (request.method !== "POST" || !/\/(events|orders)$/.test(request.path)) return null;
  const body = request.body as { type?: unknown; payload?: { order_id?: unknown } } | null;
  if (typeof body?.type !== "string" || !EVENT_TYPES.has(body.type)) return null;
  if (typeof body.payload?.order_id !== "string") return null;
  return {
    position,
    type: body.type as EventType,
    orderId: body.payload.order_id,
    environment: request.environment,
    eventId: request.event_id,
    idempotencyKey: request.idempotency_key,
    fault: request.fault,
    answered: request.answered,
  };
}

export function judge(expected: ExpectedOrder[], requests: RecordedRequest[]): Verdict {
  const verdict: Verdict = {
    expectedEvents: expected.length * LIFECYCLE_EVENT_TYPES.length,
    storedEvents: 0,
    lost: 0,
    wrongEnvironment: 0,
    unexpected: 0,
    resentAfterTimeout: 0,
    resentAfterCrash: 0,
    otherDuplicates: 0,
    duplicatesWithoutSameKey: 0,
    orders: expected.length,
    ordersNotPlacedFirst: 0,
    examples: [],
  };
  const example = (text: string) => {
    if (verdict.examples.length < 12) verdict.examples.push(text);
  };
  const eventRequests = requests
    .map(eventRequestOf)
    .filter((entry): entry is EventRequest => entry !== null);
  const byOrder = new Map<string, EventRequest[]>();
  for (const entry of eventRequests) {
    byOrder.set(entry.orderId, [...(byOrder.get(entry.orderId) ?? []), entry]);
    if (entry.eventId !== undefined) verdict.storedEvents += 1;
  }
  const expectedIds = new Set(expected.map((order) => order.orderId));
  for (const [orderId, entries] of byOrder) {
    if (!expectedIds.has(orderId)) {
      verdict.unexpected += entries.filter((entry) => entry.eventId !== undefined).length;
    }
  }

  for (const order of expected) {
    const entries = byOrder.get(order.orderId) ?? [];
    const first = entries[0];
    if (first && first.type !== "order_placed") {
      verdict.ordersNotPlacedFirst += 1;
      example(`order ${order.orderId}: first event ${first.type} (${first.environment})`);
    }
    for (const type of LIFECYCLE_EVENT_TYPES) {
      const stored = entries.filter((entry) => entry.type === type && entry.eventId !== undefined);
      const here = stored.filter((entry) => entry.environment === order.environment);
      if (stored.length > here.length) {
        verdict.wrongEnvironment += 1;
        example(`order ${order.orderId}: ${type} stored in the wrong environment`);
      }
      if (here.length === 0) {
        verdict.lost += 1;
        example(`order ${order.orderId}: ${type} never stored in ${order.environment}`);
        continue;
      }
      for (let copy = 1; copy < here.length; copy += 1) {
        classifyResend(verdict, here[0]!, here[copy - 1]!, here[copy]!, example);
      }
    }
  }
  return verdict;
}

/**
 * A re-send is allowed only when the app could not know that the copy before it was stored
 * (the answer never reached it) and it carries the first copy's Idempotency-Key.
 */
function classifyResend(
  verdict: Verdict,
  first: EventRequest,
  previous: EventRequest,
  copy: EventRequest,
  example: (text: string) => void,
) {
  const label = `order ${copy.orderId}: ${copy.type} stored again`;
  if (copy.idempotencyKey === null || copy.idempotencyKey !== first.idempotencyKey) {
    verdict.duplicatesWithoutSameKey += 1;
    verdict.otherDuplicates += 1;
    example(`${label} with key ${copy.idempotencyKey} (first copy: ${first.idempotencyKey})`);
  } else if (previous.answered !== false) {
    verdict.otherDuplicates += 1;
    example(`${label} although the previous copy was answered`);
  } else if (previous.fault === "commit") {
    verdict.resentAfterTimeout += 1;
  } else {
    verdict.resentAfterCrash += 1;
  }
}

export function allowedDuplicates(verdict: Verdict): number {
  return verdict.resentAfterTimeout + verdict.resentAfterCrash;
}
