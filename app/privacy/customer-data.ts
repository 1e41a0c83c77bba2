import { parseWebhookJson } from "../lib/json";
import { idString } from "../lib/shopify-id";

// What the app holds about a customer, and how it is redacted (decision 015). Pure: the
// database side is customer-data.server.ts. Personal data lives in three places only:
// - an order_placed event's `customer` and `customer_billing_address` (what the service gets);
// - the raw body a WebhookReceipt keeps when a delivery could not be mapped (the whole order);
// - an OrderSummary's `customerId`, the Order status page's customer match (decision 034).

/** Whom a customers/data_request or customers/redact is about, as the signed body says. */
export interface CustomerSubject {
  /** Decimal strings, exact even past 2^53 (parsed with parseWebhookJson). */
  orderIds: string[];
  /** Trimmed and lower-cased: e-mail addresses are compared without regard to case. */
  email: string | null;
  customerId: string | null;
}

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const email = value.trim().toLowerCase();
  return email === "" ? null : email;
}

/** The subject of a compliance payload parsed by parseWebhookJson. */
export function customerSubjectOf(payload: unknown): CustomerSubject {
  const body = isRecord(payload) ? payload : {};
  const orders = body.orders_requested ?? body.orders_to_redact;
  const customer = isRecord(body.customer) ? body.customer : {};
  return {
    orderIds: Array.isArray(orders)
      ? orders.map(idString).filter((id): id is string => id !== null)
      : [],
    email: normalizeEmail(customer.email),
    customerId: idString(customer.id),
  };
}

export function isEmptySubject(subject: CustomerSubject): boolean {
  return !subject.orderIds.length && !subject.email && !subject.customerId;
}

// ---- order_placed events -------------------------------------------------------------------

/** What the order mapping itself produces for an order without a customer or an address. */
const BLANK_CUSTOMER = { first_name: "", last_name: "", email: "" };
const BLANK_BILLING_ADDRESS = { address_line_1: "", city: "", zip: "" };

/**
 * The text of a redacted order_placed payload. An event whose payload contains it holds no
 * personal data, so the retention purge can skip it in SQL instead of reading every old event.
 */
export const REDACTED_ORDER_PLACED_TEXT = JSON.stringify({
  customer: BLANK_CUSTOMER,
  customer_billing_address: BLANK_BILLING_ADDRESS,
}).slice(1, -1);

const EVENT_PERSONAL_FIELDS = {
  customer: ["first_name", "last_name", "email"],
  customer_billing_address: ["address_line_1", "address_line_2", "city", "zip", "country"],
} as const;

function eventBody(payloadJson: string): JsonRecord | null {
  try {
    const envelope: unknown = JSON.parse(payloadJson);
    return isRecord(envelope) && isRecord(envelope.payload) ? envelope.payload : null;
  } catch {
    return null;
  }
}

/** The personal fields an event payload holds, with their values: none once redacted. */
export function personalDataOfEvent(payloadJson: string): Array<[field: string, value: string]> {
  const body = eventBody(payloadJson);
  if (!body) return [];
  const found: Array<[string, string]> = [];
  for (const [group, fields] of Object.entries(EVENT_PERSONAL_FIELDS)) {
    const values = body[group];
    if (!isRecord(values)) continue;
    for (const field of fields) {
      const value = values[field];
      if (typeof value === "string" && value.trim() !== "")
        found.push([`${group}.${field}`, value]);
    }
  }
  return found;
}

export function eventEmail(payloadJson: string): string | null {
  const customer = eventBody(payloadJson)?.customer;
  return isRecord(customer) ? normalizeEmail(customer.email) : null;
}

/**
 * The event payload with the customer and billing address blanked, exactly as the mapping
 * writes them for an order that has neither. The event keeps its type, order, lines and keys,
 * so one not yet delivered is still sent, and the service gets no personal data in it.
 */
export function redactEventPayload(payloadJson: string): string {
  const envelope: unknown = JSON.parse(payloadJson);
  if (!isRecord(envelope) || !isRecord(envelope.payload)) return payloadJson;
  const body = envelope.payload;
  if ("customer" in body) body.customer = { ...BLANK_CUSTOMER };
  if ("customer_billing_address" in body) {
    body.customer_billing_address = { ...BLANK_BILLING_ADDRESS };
  }
  return JSON.stringify(envelope);
}

/**
 * A service answer or error may quote what it was sent: each personal value is cut out of it.
 * One pass, longest value first: a first name cut out before the e-mail that contains it would
 * leave the rest of the address, and a later pass could match inside an earlier "[redacted]".
 */
export function withoutValues(text: string | null, values: string[]): string | null {
  if (text === null) return null;
  const cut = [...new Set(values.filter((value) => value.trim().length >= 2))]
    .sort((a, b) => b.length - a.length)
    .map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return cut.length ? text.replace(new RegExp(cut.join("|"), "gi"), "[redacted]") : text;
}

/** An e-mail address anywhere in a text: the one personal value a text shows by its form. */
const EMAIL_ADDRESS = /[^\s"'\\<>()[\]{},;:@]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

/**
 * A service answer or error without the customer's values, nor any e-mail address: for the event
 * and its attempt log, whose texts may quote the order as it was sent.
 */
export function withoutPersonalText(text: string | null, values: string[]): string | null {
  return withoutValues(text, values)?.replace(EMAIL_ADDRESS, "[redacted]") ?? null;
}

// ---- raw Shopify bodies kept by receipts ---------------------------------------------------

/** Objects that are about a person as a whole: addresses, the customer, the browser. */
const PERSONAL_OBJECT_KEYS = new Set([
  "customer",
  "billing_address",
  "shipping_address",
  "default_address",
  "addresses",
  "destination",
  "client_details",
  "payment_details",
  "note_attributes",
]);
/** Single values about a person, wherever they appear (a shipping line has a phone too). */
const PERSONAL_VALUE_KEYS = new Set([
  "email",
  "contact_email",
  "phone",
  "first_name",
  "last_name",
  "browser_ip",
  "note",
  "customer_locale",
  "landing_site",
  "referring_site",
  "order_status_url",
]);

function isPersonalKey(key: string, value: unknown): boolean {
  if (value === null || value === undefined || value === "") return false;
  return PERSONAL_OBJECT_KEYS.has(key) || PERSONAL_VALUE_KEYS.has(key);
}

/** Paths of the personal fields a parsed Shopify body holds, e.g. `customer`, `shipping_lines[].phone`. */
export function personalFieldsOfBody(value: unknown, path = ""): string[] {
  const found = new Set<string>();
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, `${at}[]`);
    } else if (isRecord(node)) {
      for (const [key, child] of Object.entries(node)) {
        const childPath = at ? `${at}.${key}` : key;
        if (isPersonalKey(key, child)) found.add(childPath);
        else visit(child, childPath);
      }
    }
  };
  visit(value, path);
  return [...found].sort();
}

/** A copy of a parsed Shopify body with every personal field set to null. */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      isPersonalKey(key, child) ? null : redactBody(child),
    ]),
  );
}

/** The first key of a raw body the app has redacted; Shopify never sends it. */
export const REDACTION_MARK_KEY = "svc_redacted";

export type RedactionReason = "customers/redact" | "retention";

export function isRedactedRawBody(raw: string): boolean {
  return raw.startsWith(`{"${REDACTION_MARK_KEY}":`);
}

type ParsedRaw = { ok: true; body: unknown } | { ok: false };

function parseRaw(raw: string): ParsedRaw {
  try {
    return { ok: true, body: parseWebhookJson(raw) };
  } catch {
    return { ok: false };
  }
}

/**
 * A receipt's raw body without its personal fields, marked with when and why, or null when the
 * body is not JSON (nothing in it can be told apart, so none of it is kept).
 */
export function redactRawBody(raw: string, reason: RedactionReason, at: Date): string | null {
  const parsed = parseRaw(raw);
  if (!parsed.ok || !isRecord(parsed.body)) return null;
  const redacted = redactBody(parsed.body) as JsonRecord;
  delete redacted[REDACTION_MARK_KEY];
  return JSON.stringify({
    [REDACTION_MARK_KEY]: { at: at.toISOString(), reason },
    ...redacted,
  });
}

/** The personal fields of a receipt's raw body; `(raw body)` when it is not JSON. */
export function personalFieldsOfRawBody(raw: string): string[] {
  const parsed = parseRaw(raw);
  if (!parsed.ok) return ["(raw body, not JSON)"];
  return personalFieldsOfBody(parsed.body);
}

function emailsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) emailsIn(item, into);
  } else if (isRecord(value)) {
    for (const [key, child] of Object.entries(value)) {
      const email = key === "email" || key === "contact_email" ? normalizeEmail(child) : null;
      if (email) into.add(email);
      else emailsIn(child, into);
    }
  }
  return into;
}

function orderIdsOfBody(topic: string, body: JsonRecord): string[] {
  const edit = isRecord(body.order_edit) ? body.order_edit : {};
  const candidates = [body.order_id, edit.order_id, topic.startsWith("orders/") ? body.id : null];
  return candidates.map(idString).filter((id): id is string => id !== null);
}

function containsWholeNumber(text: string, digits: string): boolean {
  return new RegExp(`(?<![0-9])${digits}(?![0-9])`).test(text);
}

/** Whether a receipt's raw body is about the subject: its order, its customer ID or e-mail. */
export function rawBodyConcerns(
  receipt: { topic: string; orderId: string | null; payload: string },
  subject: CustomerSubject,
): boolean {
  if (receipt.orderId !== null && subject.orderIds.includes(receipt.orderId)) return true;
  const parsed = parseRaw(receipt.payload);
  if (!parsed.ok || !isRecord(parsed.body)) {
    // Not JSON: only its text can be searched.
    const text = receipt.payload.toLowerCase();
    if (subject.email && text.includes(subject.email)) return true;
    return [...subject.orderIds, ...(subject.customerId ? [subject.customerId] : [])].some(
      (id) => /^\d+$/.test(id) && containsWholeNumber(text, id),
    );
  }
  const body = parsed.body;
  if (orderIdsOfBody(receipt.topic, body).some((id) => subject.orderIds.includes(id))) return true;
  const customer = isRecord(body.customer) ? body.customer : {};
  if (subject.customerId && idString(customer.id) === subject.customerId) return true;
  return subject.email !== null && emailsIn(body).has(subject.email);
}

// ---- the data_request report ---------------------------------------------------------------

/** One stored record that holds personal data about the customer. */
export interface HeldRecord {
  kind: "event" | "receipt" | "order_summary";
  id: string;
  orderId: string | null;
  /** The event type or the receipt's topic. */
  type: string;
  status: string;
  fields: string[];
}

/** The receipt detail and merchant-facing summary of a data request: records and fields, no values. */
export function describeHeldData(records: HeldRecord[]): string {
  if (!records.length) return "Holds no personal data for this customer";
  const events = records.filter((record) => record.kind === "event").length;
  const summaries = records.filter((record) => record.kind === "order_summary").length;
  const receipts = records.length - events - summaries;
  const byOrder = new Map<string, HeldRecord[]>();
  for (const record of records) {
    const key = record.orderId ?? "";
    byOrder.set(key, [...(byOrder.get(key) ?? []), record]);
  }
  const orders = [...byOrder].map(([orderId, held]) => {
    const items = held.map((record) => {
      const what =
        record.kind === "event"
          ? `${record.type} event ${record.id} (${record.status})`
          : record.kind === "order_summary"
            ? "order summary"
            : `${record.type} receipt ${record.id} (${record.status}, raw body)`;
      return `${what}: ${record.fields.join(", ")}`;
    });
    return `${orderId ? `order ${orderId}` : "no order ID"}: ${items.join("; ")}`;
  });
  const where = summaries
    ? `${events} event(s), ${receipts} receipt(s) and ${summaries} order summary(ies)`
    : `${events} event(s) and ${receipts} receipt(s)`;
  return `Holds personal data in ${where}. ${orders.join(". ")}`;
}

// ---- retention -----------------------------------------------------------------------------

export const DEFAULT_RETENTION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1_000;

/** Event statuses after which the service needs nothing more from the payload. */
export const SETTLED_EVENT_STATUSES = ["delivered", "dead", "unprocessable"] as const;

/** Personal data recorded before this moment has outlived the retention period. */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * DAY_MS);
}

/** An event's personal data expires once it is settled and older than the period. */
export function isEventExpired(event: { status: string; createdAt: Date }, cutoff: Date): boolean {
  return (
    (SETTLED_EVENT_STATUSES as readonly string[]).includes(event.status) && event.createdAt < cutoff
  );
}

/** A receipt's raw body expires once older than the period, whatever became of the delivery. */
export function isReceiptExpired(receipt: { receivedAt: Date }, cutoff: Date): boolean {
  return receipt.receivedAt < cutoff;
}

/** SVC_CUSTOMER_DATA_RETENTION_DAYS as the CLI reads it: a whole number of days, 1 to 3650. */
export function parseRetentionDays(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return DEFAULT_RETENTION_DAYS;
  const days = Number(value.trim());
  return /^\d+$/.test(value.trim()) && days >= 1 && days <= 3_650 ? days : null;
}
