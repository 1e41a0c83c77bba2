import { randomBytes, randomUUID } from "node:crypto";
import type { Catalogue } from "./catalogue";
import type {
  CancelledLineItemEntry,
  CartUpdateRequest,
  CheckoutConfirmation,
  CheckoutType,
  EnvironmentName,
  EventType,
  FulfillmentEntry,
  OrderPlacedPayload,
  RefundEntry,
} from "./schemas";

/*
 * What the emulated service knows, kept in memory. Production and sandbox each get their own
 * EnvironmentState, so a client that mixes them up sees orders go missing, as it would for real.
 */

export interface RecordedEvent {
  event_id: string;
  type: EventType;
  received_at: string;
  /** The request's `Idempotency-Key` header. Recorded, never used to deduplicate: every copy counts. */
  idempotency_key: string | null;
}

export type Recorded<Entry> = Entry & { event_id: string };

export interface OrderRecord {
  order_id: string;
  /** The latest order_placed payload received. */
  placed: OrderPlacedPayload;
  placement_count: number;
  fulfillments: Recorded<FulfillmentEntry>[];
  refunds: Recorded<RefundEntry>[];
  cancelled_line_items: Recorded<CancelledLineItemEntry>[];
  cancelled_at: string | null;
  /** Every accepted event for this order, oldest first. */
  events: RecordedEvent[];
}

export interface CheckoutLink {
  order_id: string;
  checkout_type: CheckoutType;
  token: string;
  link: string;
}

export interface RecordedCheckoutConfirmation extends CheckoutConfirmation {
  received_at: string;
  /** The request's `Idempotency-Key` header; recorded, never used to deduplicate. */
  idempotency_key: string | null;
}

export interface RecordedCart extends CartUpdateRequest {
  update_count: number;
  received_at: string;
}

export interface EnvironmentSnapshot {
  environment: EnvironmentName;
  orders: OrderRecord[];
  checkout_confirmations: RecordedCheckoutConfirmation[];
  carts: RecordedCart[];
  checkout_links: CheckoutLink[];
}

export function createEventId(): string {
  return `evt_${randomUUID().replaceAll("-", "")}`;
}

function now(): string {
  return new Date().toISOString();
}

function recordedEvent(
  eventId: string,
  type: EventType,
  idempotencyKey: string | null,
): RecordedEvent {
  return { event_id: eventId, type, received_at: now(), idempotency_key: idempotencyKey };
}

export class EnvironmentState {
  private readonly orders = new Map<string, OrderRecord>();
  private readonly checkoutConfirmations: RecordedCheckoutConfirmation[] = [];
  private readonly carts = new Map<string, RecordedCart>();
  private readonly checkoutLinks = new Map<string, CheckoutLink>();

  constructor(readonly environment: EnvironmentName) {}

  findOrder(orderId: string): OrderRecord | undefined {
    return this.orders.get(orderId);
  }

  /** Repeated placements are accepted and counted: real clients retry after time-outs. */
  recordOrderPlaced(
    payload: OrderPlacedPayload,
    eventId: string,
    idempotencyKey: string | null = null,
  ): OrderRecord {
    const existing = this.orders.get(payload.order_id);
    const event = recordedEvent(eventId, "order_placed", idempotencyKey);
    if (existing) {
      existing.placed = structuredClone(payload);
      existing.placement_count += 1;
      existing.events.push(event);
      return existing;
    }
    const order: OrderRecord = {
      order_id: payload.order_id,
      placed: structuredClone(payload),
      placement_count: 1,
      fulfillments: [],
      refunds: [],
      cancelled_line_items: [],
      cancelled_at: null,
      events: [event],
    };
    this.orders.set(order.order_id, order);
    return order;
  }

  recordFulfillments(
    order: OrderRecord,
    entries: FulfillmentEntry[],
    eventId: string,
    idempotencyKey: string | null = null,
  ): void {
    order.fulfillments.push(...entries.map((entry) => ({ ...entry, event_id: eventId })));
    order.events.push(recordedEvent(eventId, "order_fulfillment_added", idempotencyKey));
  }

  recordRefunds(
    order: OrderRecord,
    entries: RefundEntry[],
    eventId: string,
    idempotencyKey: string | null = null,
  ): void {
    order.refunds.push(...entries.map((entry) => ({ ...entry, event_id: eventId })));
    order.events.push(recordedEvent(eventId, "order_refund_added", idempotencyKey));
  }

  recordCancelledLineItems(
    order: OrderRecord,
    entries: CancelledLineItemEntry[],
    eventId: string,
    idempotencyKey: string | null = null,
  ): void {
    order.cancelled_line_items.push(...entries.map((entry) => ({ ...entry, event_id: eventId })));
    order.events.push(recordedEvent(eventId, "order_line_items_cancelled", idempotencyKey));
  }

  recordOrderCancelled(
    order: OrderRecord,
    cancelledAt: string,
    eventId: string,
    idempotencyKey: string | null = null,
  ): void {
    order.cancelled_at = cancelledAt;
    order.events.push(recordedEvent(eventId, "order_cancelled", idempotencyKey));
  }

  recordCheckoutConfirmation(
    confirmation: CheckoutConfirmation,
    idempotencyKey: string | null = null,
  ): void {
    this.checkoutConfirmations.push({
      ...confirmation,
      received_at: now(),
      idempotency_key: idempotencyKey,
    });
  }

  recordCartUpdate(cart: CartUpdateRequest): void {
    const updateCount = (this.carts.get(cart.cart_id)?.update_count ?? 0) + 1;
    this.carts.set(cart.cart_id, {
      ...structuredClone(cart),
      update_count: updateCount,
      received_at: now(),
    });
  }

  /** One link per order and checkout type; asking again returns the same link. */
  findOrCreateCheckoutLink(
    orderId: string,
    checkoutType: CheckoutType,
    linkForToken: (token: string) => string,
  ): CheckoutLink {
    const key = `${checkoutType}:${orderId}`;
    const existing = this.checkoutLinks.get(key);
    if (existing) return existing;
    const token = randomBytes(12).toString("hex");
    const created: CheckoutLink = {
      order_id: orderId,
      checkout_type: checkoutType,
      token,
      link: linkForToken(token),
    };
    this.checkoutLinks.set(key, created);
    return created;
  }

  findCheckoutLinkByToken(token: string): CheckoutLink | undefined {
    return [...this.checkoutLinks.values()].find((link) => link.token === token);
  }

  toSnapshot(): EnvironmentSnapshot {
    return structuredClone({
      environment: this.environment,
      orders: [...this.orders.values()],
      checkout_confirmations: this.checkoutConfirmations,
      carts: [...this.carts.values()],
      checkout_links: [...this.checkoutLinks.values()],
    });
  }
}

export interface RecordedRequest {
  method: string;
  path: string;
  environment: EnvironmentName;
  headers: Record<string, string | string[]>;
  query: Record<string, unknown>;
  /** The parsed JSON body, or null when there was none or it was not valid JSON. */
  body: unknown;
  /** The raw text, only when the body was not valid JSON. */
  unparsed_body?: string;
  /** The status the client was sent (after any fault). */
  status: number;
  received_at: string;
  /** The `Idempotency-Key` header, or null without one. */
  idempotency_key: string | null;
  /** The event_id the service gave the event this request stored; absent when it stored none. */
  event_id?: string;
  /** Set when an injected fault shaped the answer: before processing, or after the commit. */
  fault?: FaultTiming;
  /**
   * Whether the whole answer reached a client still listening: false when the client had hung
   * up first (it timed out, or died). null until the answer is finished.
   */
  answered: boolean | null;
}

/** "before": in place of the service (nothing stored). "commit": after the service stored it. */
export type FaultTiming = "before" | "commit";

export interface FaultRule {
  /** Uses left, or null for a rule that lasts only for its time window. */
  remaining: number | null;
  /** When a time-window rule stops applying (ISO 8601). */
  expires_at?: string;
  status: number | null;
  delay_ms: number;
  /** A scripted answer body, e.g. a misbehaving service's 200. */
  body?: Record<string, unknown>;
  /** A scripted answer sent as is, "" for an empty body. */
  raw_body?: string;
  /** "commit": the request is processed (stored) first; the fault shapes only the answer. */
  after?: "commit";
  match: { method?: string; path?: string };
}

export interface FaultDecision {
  status: number | null;
  delay_ms: number;
  body?: Record<string, unknown>;
  raw_body?: string;
  after?: "commit";
}

/** What the API routes tell the request recorder about one request. */
export interface RequestNote {
  /** The event the request stored. */
  event_id?: string;
  fault?: FaultTiming;
  /** A fault to apply to the answer once the request was processed. */
  after_commit?: FaultDecision;
}

export class EmulatorState {
  readonly environments: Record<EnvironmentName, EnvironmentState>;
  readonly requests: RecordedRequest[] = [];
  /** Keyed by fastify's request object, so a note goes when its request does. */
  readonly requestNotes = new WeakMap<object, RequestNote>();
  faults: FaultRule[] = [];
  catalogue: Catalogue;

  constructor(private readonly initialCatalogue: Catalogue) {
    this.catalogue = structuredClone(initialCatalogue);
    this.environments = {
      production: new EnvironmentState("production"),
      sandbox: new EnvironmentState("sandbox"),
    };
  }

  noteRequest(request: object, note: RequestNote): void {
    this.requestNotes.set(request, { ...this.requestNotes.get(request), ...note });
  }

  reset(): void {
    this.environments.production = new EnvironmentState("production");
    this.environments.sandbox = new EnvironmentState("sandbox");
    this.requests.length = 0;
    this.faults = [];
    this.catalogue = structuredClone(this.initialCatalogue);
  }

  addFault(rule: FaultRule): void {
    this.faults.push(rule);
  }

  /** Drops rules used up or past their window; GET /__emulator/faults shows only live ones. */
  pruneFaults(at: number = Date.now()): FaultRule[] {
    this.faults = this.faults.filter((rule) => isLive(rule, at));
    return this.faults;
  }

  /** Consumes one use of the first rule matching the request, if any. */
  takeFault(method: string, path: string): FaultDecision | undefined {
    const at = Date.now();
    const rule = this.faults.find(
      (candidate) =>
        isLive(candidate, at) &&
        (candidate.match.method === undefined ||
          candidate.match.method.toUpperCase() === method.toUpperCase()) &&
        (candidate.match.path === undefined || candidate.match.path === path),
    );
    if (!rule) return undefined;
    if (rule.remaining !== null) rule.remaining -= 1;
    this.pruneFaults(at);
    return {
      status: rule.status,
      delay_ms: rule.delay_ms,
      ...(rule.body === undefined ? {} : { body: rule.body }),
      ...(rule.raw_body === undefined ? {} : { raw_body: rule.raw_body }),
      ...(rule.after === undefined ? {} : { after: rule.after }),
    };
  }
}

function isLive(rule: FaultRule, at: number): boolean {
  if (rule.remaining !== null && rule.remaining <= 0) return false;
  return rule.expires_at === undefined || Date.parse(rule.expires_at) > at;
}
