import type { OutboxMessage } from "../protection/types";

/** The Shopify webhook topics whose payloads become order events. */
export const ORDER_TOPICS = [
  "orders/create",
  "fulfillments/create",
  "fulfillments/update",
  "refunds/create",
  "orders/cancelled",
  "orders/edited",
] as const;

export type OrderTopic = (typeof ORDER_TOPICS)[number];

export function isOrderTopic(topic: string): topic is OrderTopic {
  return (ORDER_TOPICS as readonly string[]).includes(topic);
}

export interface MappingOptions {
  /** Send order_placed also for orders without a protection plan line. */
  reportOrdersWithoutPlan: boolean;
}

export interface DerivedEvent {
  /** Unique per shop: the same Shopify action always gives the same key, so it is stored and sent once. */
  dedupeKey: string;
  event: OutboxMessage;
  /** Set on events derived from a refund (refunds/create): the refund's ID. */
  refundId?: string;
}

export type MappingResult =
  | {
      kind: "events";
      orderId: string;
      events: DerivedEvent[];
      detail: string;
      /** orders/cancelled only: IDs of the refunds listed in the cancelled order (Shopify's cancel refund). */
      cancelRefundIds?: string[];
    }
  | { kind: "ignored"; orderId: string | null; detail: string }
  | { kind: "unprocessable"; orderId: string | null; reason: string };

/** A webhook that stands for no event, and why. */
export function ignored(orderId: string | null, detail: string): MappingResult {
  return { kind: "ignored", orderId, detail };
}
