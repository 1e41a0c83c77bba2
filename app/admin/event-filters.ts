import { z } from "zod";
import { ORDER_TOPICS } from "../orders/types";
import { OUTBOX_STATUSES, type OutboxStatus } from "../models/outbox-status";
import { OUTBOX_MESSAGE_TYPES, type OutboxMessageType } from "../protection/types";

// The event log's URL query (tab, filters, page), parsed without I/O so that links, the back
// button and the loader agree. A value that does not parse is dropped and named in `invalid`:
// an old or hand-edited link still opens the log.

export const EVENT_LOG_PAGE_SIZE = 50;

export const EVENT_LOG_TABS = ["events", "webhooks"] as const;
export type EventLogTab = (typeof EVENT_LOG_TABS)[number];

export const RECEIPT_STATUSES = ["processed", "ignored", "unprocessable"] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * How the app learnt of an event that no webhook brought (OutboxEvent.recoveredBy, issue 17):
 * its webhook never arrived, or the merchant asked for earlier orders.
 */
export const RECOVERY_SOURCES = ["reconciliation", "backfill"] as const;
export type RecoverySource = (typeof RECOVERY_SOURCES)[number];

/** An event's stored `recoveredBy` as a source the admin names; null for a webhook's event. */
export function recoverySourceOf(recoveredBy: string | null): RecoverySource | null {
  return RECOVERY_SOURCES.find((source) => source === recoveredBy) ?? null;
}

/** Every topic the app subscribes to (shopify.app.toml), so every topic a receipt can have. */
export const WEBHOOK_TOPICS = [
  ...ORDER_TOPICS,
  "app/uninstalled",
  "app/scopes_update",
  "customers/data_request",
  "customers/redact",
  "shop/redact",
] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

export { OUTBOX_STATUSES, OUTBOX_MESSAGE_TYPES };
export type { OutboxMessageType, OutboxStatus };

export type PageDirection = "older" | "newer";

/** Events page on their autoincrement id. */
export interface EventCursor {
  direction: PageDirection;
  id: number;
}

/** Receipts page on (receivedAt, id): their id is a UUID, so time orders them. */
export interface ReceiptCursor {
  direction: PageDirection;
  receivedAtMs: number;
  id: string;
}

/** The URL parameter names, one place for the loader, the links and the tests. */
export const PARAM = {
  tab: "tab",
  status: "status",
  type: "type",
  order: "order",
  environment: "env",
  recovered: "recovered",
  attention: "attention",
  older: "before",
  newer: "after",
} as const;

/**
 * What the order search names: an order ID (a number or the Admin API GID), an order name
 * ("#1001"), or a bare number, which is the order with that ID or else the one of that name.
 */
export type OrderSearch =
  | { kind: "id"; orderId: string }
  | { kind: "name"; orderName: string }
  | { kind: "id_or_name"; orderId: string; orderName: string };

/** The filters both tabs share: the order, and the orders whose actions need the merchant. */
interface SharedFilters {
  order?: OrderSearch;
  /** Only orders with an action the merchant has to look at (skipped or dead). */
  attention?: true;
}

export type EventLogQuery = SharedFilters &
  (
    | {
        tab: "events";
        status?: OutboxStatus;
        eventType?: OutboxMessageType;
        environment?: Environment;
        recoveredBy?: RecoverySource;
        cursor?: EventCursor;
        /** URL parameters whose values were not valid and were ignored. */
        invalid: string[];
      }
    | {
        tab: "webhooks";
        status?: ReceiptStatus;
        topic?: WebhookTopic;
        cursor?: ReceiptCursor;
        invalid: string[];
      }
  );

/** A Shopify order ID: its number, or the Admin API GID holding it. */
export const orderIdSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/^gid:\/\/shopify\/Order\//i, ""))
  .pipe(z.string().regex(/^\d{1,20}$/));

/** An order's name as Shopify writes it: "#" and the number, with the shop's prefix or suffix. */
const orderNameSchema = z
  .string()
  .trim()
  .regex(/^#[^\s#\p{Cc}][^\p{Cc}]{0,62}$/u);

/** What the order search field asks for; the name of a bare number is "#" and the number. */
export const orderSearchSchema = z.union([
  orderNameSchema.transform((orderName): OrderSearch => ({ kind: "name", orderName })),
  z
    .string()
    .trim()
    .regex(/^\d{1,20}$/)
    .transform((orderId): OrderSearch => ({
      kind: "id_or_name",
      orderId,
      orderName: `#${orderId}`,
    })),
  orderIdSchema.transform((orderId): OrderSearch => ({ kind: "id", orderId })),
]);

/** OutboxEvent ids are 32-bit on PostgreSQL (INTEGER); a larger one names no event. */
export const MAX_EVENT_ID = 2_147_483_647;
export const eventIdSchema = z.coerce.number().int().positive().max(MAX_EVENT_ID);

const receiptCursorSchema = z
  .string()
  .regex(/^(\d{1,15})_([0-9A-Za-z-]{1,64})$/)
  .transform((value) => {
    const separator = value.indexOf("_");
    return { receivedAtMs: Number(value.slice(0, separator)), id: value.slice(separator + 1) };
  });

/** Parses an event's id from the URL (`/app/events/:id`); null when it is not one. */
export function parseEventId(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value)) return null;
  const parsed = eventIdSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function encodeReceiptCursor(receipt: { receivedAt: Date | string; id: string }): string {
  return `${new Date(receipt.receivedAt).getTime()}_${receipt.id}`;
}

/** The parameter's value parsed by the schema, or undefined (and its name in `invalid`). */
function optional<T>(
  params: URLSearchParams,
  name: string,
  schema: z.ZodType<T>,
  invalid: string[],
): T | undefined {
  const raw = params.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  invalid.push(name);
  return undefined;
}

function cursorOf<T>(
  params: URLSearchParams,
  schema: z.ZodType<T>,
  invalid: string[],
): (T & { direction: PageDirection }) | undefined {
  const older = optional(params, PARAM.older, schema, invalid);
  if (older !== undefined) return { ...older, direction: "older" };
  const newer = optional(params, PARAM.newer, schema, invalid);
  if (newer !== undefined) return { ...newer, direction: "newer" };
  return undefined;
}

/** The event log's view from its URL query. Never throws. */
export function parseEventLogQuery(params: URLSearchParams): EventLogQuery {
  const invalid: string[] = [];
  const tab = optional(params, PARAM.tab, z.enum(EVENT_LOG_TABS), invalid) ?? "events";
  const shared: SharedFilters = {
    order: optional(params, PARAM.order, orderSearchSchema, invalid),
    attention: optional(params, PARAM.attention, z.literal("1"), invalid) && true,
  };
  if (tab === "webhooks") {
    const cursor = cursorOf(params, receiptCursorSchema, invalid);
    return {
      tab,
      status: optional(params, PARAM.status, z.enum(RECEIPT_STATUSES), invalid),
      topic: optional(params, PARAM.type, z.enum(WEBHOOK_TOPICS), invalid),
      ...shared,
      cursor,
      invalid,
    };
  }
  const cursor = cursorOf(
    params,
    eventIdSchema.transform((id) => ({ id })),
    invalid,
  );
  return {
    tab,
    status: optional(params, PARAM.status, z.enum(OUTBOX_STATUSES), invalid),
    eventType: optional(params, PARAM.type, z.enum(OUTBOX_MESSAGE_TYPES), invalid),
    ...shared,
    environment: optional(params, PARAM.environment, z.enum(ENVIRONMENTS), invalid),
    recoveredBy: optional(params, PARAM.recovered, z.enum(RECOVERY_SOURCES), invalid),
    cursor,
    invalid,
  };
}

/** Whether the view narrows the log: an empty page then means "no match", not "nothing yet". */
export function hasFilters(query: EventLogQuery): boolean {
  if (query.order || query.status || query.attention) return true;
  return query.tab === "events"
    ? Boolean(query.eventType || query.environment || query.recoveredBy)
    : !!query.topic;
}

type FilterName = "status" | "type" | "order" | "environment" | "recovered" | "attention";

/**
 * Only the log's own parameters: Shopify's launch parameters (`id_token`, `host`, `hmac`, …)
 * belong to the first load and must not travel into links, where they would go stale.
 */
function ownParams(params: URLSearchParams): URLSearchParams {
  const own = new URLSearchParams();
  const names: readonly string[] = Object.values(PARAM);
  for (const [name, value] of params) if (names.includes(name)) own.append(name, value);
  return own;
}

/**
 * The query string after changing filters (undefined removes one). A new filter or tab starts
 * again at the newest entry, so the page cursor is dropped.
 */
export function withFilters(
  params: URLSearchParams,
  changes: Partial<Record<FilterName | "tab", string | undefined>>,
): string {
  const next = ownParams(params);
  next.delete(PARAM.older);
  next.delete(PARAM.newer);
  if (changes.tab !== undefined && changes.tab !== (params.get(PARAM.tab) ?? "events")) {
    // Statuses and types differ between the tabs; the order ID means the same in both.
    for (const name of [PARAM.status, PARAM.type, PARAM.environment, PARAM.recovered]) {
      next.delete(name);
    }
  }
  for (const [name, value] of Object.entries(changes) as [FilterName | "tab", string][]) {
    const key = PARAM[name];
    if (value === undefined || value === "") next.delete(key);
    else next.set(key, value);
  }
  if (next.get(PARAM.tab) === "events") next.delete(PARAM.tab);
  return next.toString();
}

/** The query string of the next page in one direction: the filters stay, the cursor changes. */
export function pageSearch(
  params: URLSearchParams,
  direction: PageDirection,
  cursor: string | number,
): string {
  const next = ownParams(params);
  next.delete(PARAM.older);
  next.delete(PARAM.newer);
  next.set(direction === "older" ? PARAM.older : PARAM.newer, String(cursor));
  return next.toString();
}
