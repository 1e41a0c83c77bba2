import { linkAnswerOf, type LinkAnswer } from "../../shared/link-state";

// The admin route's answer about one order (GET /api/admin/order-protection), read without
// trusting it. Pure; the block renders what this gives.

/**
 * The event statuses and types the block translates: the app's outbox statuses
 * (app/models/outbox-status.ts) and the messages it sends (the order events and the checkout
 * confirmation). A UI extension may not import the app's code; test/extensions/order-admin.test.ts
 * keeps these lists, and their translations, in step with it.
 */
export const EVENT_STATUSES = [
  "pending",
  "delivering",
  "delivered",
  "failed",
  "dead",
  "unprocessable",
] as const;

export const EVENT_TYPES = [
  "order_placed",
  "order_fulfillment_added",
  "order_refund_added",
  "order_line_items_cancelled",
  "order_cancelled",
  "cart_checkout",
] as const;

export interface ProtectedLine {
  lineItemId: string;
  title: string;
  quantity: number;
  planLineItemId: string;
  planTitle: string;
  productReference: string;
}

export interface PlanEvent {
  type: string;
  status: string;
  recordedAt: string;
  deliveredAt: string | null;
}

export interface OrderProtection {
  order: { id: string; name: string | null; environment: string | null };
  protectedLines: ProtectedLine[];
  events: PlanEvent[];
  /** A buyer route's answer for the guided checkout (`assist`); malformed reads as an error. */
  guidedCheckout: LinkAnswer;
}

export type OrderProtectionAnswer =
  { status: "ok"; protection: OrderProtection } | { status: "error"; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const stringOrNull = (value: unknown): string | null | undefined =>
  value === null ? null : typeof value === "string" ? value : undefined;

function lineOf(value: unknown): ProtectedLine | null {
  if (!isRecord(value)) return null;
  const line = {
    lineItemId: value.line_item_id,
    title: value.title,
    quantity: value.quantity,
    planLineItemId: value.plan_line_item_id,
    planTitle: value.plan_title,
    productReference: value.product_reference,
  };
  const { quantity, ...strings } = line;
  if (!Object.values(strings).every((field) => typeof field === "string")) return null;
  if (typeof quantity !== "number" || !Number.isSafeInteger(quantity) || quantity < 0) return null;
  return line as ProtectedLine;
}

function eventOf(value: unknown): PlanEvent | null {
  if (!isRecord(value)) return null;
  const { type, status, recorded_at: recordedAt } = value;
  const deliveredAt = stringOrNull(value.delivered_at ?? null);
  if (typeof type !== "string" || typeof status !== "string") return null;
  if (typeof recordedAt !== "string" || deliveredAt === undefined) return null;
  return { type, status, recordedAt, deliveredAt };
}

function listOf<T>(value: unknown, itemOf: (item: unknown) => T | null): T[] | null {
  if (!Array.isArray(value)) return null;
  const items = value.map(itemOf);
  return items.some((item) => item === null) ? null : (items as T[]);
}

/** The admin route's HTTP answer: 200 with the contract's body, anything else an error. */
export function parseOrderProtection(httpStatus: number, body: unknown): OrderProtectionAnswer {
  if (httpStatus !== 200) {
    const error = isRecord(body) && isRecord(body.error) ? body.error.code : undefined;
    return { status: "error", reason: typeof error === "string" ? error : `HTTP ${httpStatus}` };
  }
  if (!isRecord(body) || !isRecord(body.order)) {
    return { status: "error", reason: "the body has no order" };
  }
  const id = body.order.id;
  const name = stringOrNull(body.order.name ?? null);
  const environment = stringOrNull(body.order.environment ?? null);
  if (typeof id !== "string" || name === undefined || environment === undefined) {
    return { status: "error", reason: "the order is malformed" };
  }
  const protectedLines = listOf(body.protected_lines, lineOf);
  if (protectedLines === null) return { status: "error", reason: "protected_lines is malformed" };
  const events = listOf(body.events, eventOf);
  if (events === null) return { status: "error", reason: "events is malformed" };
  return {
    status: "ok",
    protection: {
      order: { id, name, environment },
      protectedLines,
      events,
      guidedCheckout: linkAnswerOf(body.guided_checkout),
    },
  };
}
