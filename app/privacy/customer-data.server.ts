import type { AppPrismaClient } from "../db/client.server";
import {
  type CustomerSubject,
  type HeldRecord,
  type RedactionReason,
  REDACTED_ORDER_PLACED_TEXT,
  REDACTION_MARK_KEY,
  SETTLED_EVENT_STATUSES,
  eventEmail,
  isEmptySubject,
  personalDataOfEvent,
  personalFieldsOfRawBody,
  rawBodyConcerns,
  redactEventPayload,
  redactRawBody,
  retentionCutoff,
  withoutPersonalText,
} from "./customer-data";

// The database side of customer privacy (decision 015): find, redact and expire the personal
// data described in customer-data.ts, for one shop at a time or, for retention, for all shops.

const EVENT_FIELDS = {
  id: true,
  orderId: true,
  eventType: true,
  status: true,
  payload: true,
  lastError: true,
  lastResponse: true,
} as const;

const RECEIPT_FIELDS = {
  id: true,
  topic: true,
  status: true,
  orderId: true,
  detail: true,
  payload: true,
} as const;

const PURGE_BATCH = 500;
/** Raw bodies read at once by a data request or a redaction: each may be a whole order. */
const READ_PAGE = 100;

function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (char) => `!${char}`);
}

/**
 * IDs of the shop's order_placed events whose customer e-mail is this one, in any case. lower()
 * on both sides, in SQL: PostgreSQL's LIKE (and Prisma's `contains`) is case-sensitive, SQLite's
 * is not, and the mode option that would fix it exists on PostgreSQL only.
 */
async function eventIdsWithEmail(db: AppPrismaClient, shop: string, email: string) {
  const pattern = `%${escapeLike(JSON.stringify(email.toLowerCase()))}%`;
  const rows = await db.$queryRaw<Array<{ id: number | bigint }>>`
    SELECT id FROM "OutboxEvent"
    WHERE shop = ${shop} AND "eventType" = 'order_placed' AND lower(payload) LIKE ${pattern} ESCAPE '!'`;
  return rows.map((row) => Number(row.id));
}

/** The shop's order_placed events about the subject: its orders, or its e-mail. */
async function subjectEvents(db: AppPrismaClient, shop: string, subject: CustomerSubject) {
  const byEmail = subject.email ? await eventIdsWithEmail(db, shop, subject.email) : [];
  if (!subject.orderIds.length && !byEmail.length) return [];
  const events = await db.outboxEvent.findMany({
    where: {
      shop,
      eventType: "order_placed",
      OR: [
        ...(subject.orderIds.length ? [{ orderId: { in: subject.orderIds } }] : []),
        ...(byEmail.length ? [{ id: { in: byEmail } }] : []),
      ],
    },
    select: EVENT_FIELDS,
    orderBy: { id: "asc" },
  });
  // The LIKE above may match the address elsewhere in the payload; the customer's own counts.
  return events.filter(
    (event) =>
      subject.orderIds.includes(event.orderId) ||
      (subject.email !== null && eventEmail(event.payload) === subject.email),
  );
}

/**
 * The shop's receipts whose kept raw body is about the subject, with the personal fields each
 * holds, in the order they came. Only unmapped deliveries keep one, but a shop may have many:
 * they are read a page at a time, and only the matches' findings are kept, never their bodies.
 */
async function subjectReceipts(db: AppPrismaClient, shop: string, subject: CustomerSubject) {
  const found: Array<Omit<HeldRecord, "kind" | "type"> & { topic: string; receivedAt: Date }> = [];
  for (let afterId = ""; ;) {
    const page = await db.webhookReceipt.findMany({
      where: { shop, payload: { not: null }, id: { gt: afterId } },
      select: { ...RECEIPT_FIELDS, receivedAt: true },
      orderBy: { id: "asc" },
      take: READ_PAGE,
    });
    for (const receipt of page) {
      if (receipt.payload === null) continue;
      if (!rawBodyConcerns({ ...receipt, payload: receipt.payload }, subject)) continue;
      found.push({
        id: receipt.id,
        orderId: receipt.orderId,
        topic: receipt.topic,
        status: receipt.status,
        receivedAt: receipt.receivedAt,
        fields: personalFieldsOfRawBody(receipt.payload),
      });
    }
    if (page.length < READ_PAGE) break;
    afterId = page[page.length - 1]!.id;
  }
  return found.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
}

/**
 * The shop's order summaries that name the subject's customer: by the customer's ID, or as the
 * customer of one of the subject's orders (named, or found by the e-mail in their events).
 */
async function subjectSummaries(
  db: AppPrismaClient,
  shop: string,
  subject: CustomerSubject,
  eventOrderIds: string[],
) {
  const orderIds = [...new Set([...subject.orderIds, ...eventOrderIds])];
  if (!subject.customerId && !orderIds.length) return [];
  return db.orderSummary.findMany({
    where: {
      shop,
      customerId: { not: null },
      OR: [
        ...(subject.customerId ? [{ customerId: subject.customerId }] : []),
        ...(orderIds.length ? [{ orderId: { in: orderIds } }] : []),
      ],
    },
    select: { orderId: true },
    orderBy: { orderId: "asc" },
  });
}

/** customers/data_request: every stored record that holds the customer's personal data. */
export async function findCustomerData(
  db: AppPrismaClient,
  shop: string,
  subject: CustomerSubject,
): Promise<HeldRecord[]> {
  if (isEmptySubject(subject)) return [];
  const [events, receipts] = await Promise.all([
    subjectEvents(db, shop, subject),
    subjectReceipts(db, shop, subject),
  ]);
  const summaries = await subjectSummaries(
    db,
    shop,
    subject,
    events.map((event) => event.orderId),
  );
  const held: HeldRecord[] = [
    ...events.map((event) => ({
      kind: "event" as const,
      id: String(event.id),
      orderId: event.orderId,
      type: event.eventType,
      status: event.status,
      fields: personalDataOfEvent(event.payload).map(([field]) => field),
    })),
    ...receipts.map((receipt) => ({
      kind: "receipt" as const,
      id: receipt.id,
      orderId: receipt.orderId,
      type: receipt.topic,
      status: receipt.status,
      fields: receipt.fields,
    })),
    ...summaries.map((summary) => ({
      kind: "order_summary" as const,
      id: summary.orderId,
      orderId: summary.orderId,
      type: "order summary",
      status: "recorded",
      fields: ["customerId"],
    })),
  ];
  return held.filter((record) => record.fields.length > 0);
}

function redactedEventData(event: {
  payload: string;
  lastError: string | null;
  lastResponse: string | null;
}) {
  const values = personalDataOfEvent(event.payload).map(([, value]) => value);
  return {
    payload: redactEventPayload(event.payload),
    lastError: withoutPersonalText(event.lastError, values),
    lastResponse: withoutPersonalText(event.lastResponse, values),
  };
}

/**
 * The updates that cut the events' personal values out of their attempt log: each send's
 * outcome keeps the service's answer, which may quote what it was sent (issue 27), and the
 * admin's event page shows it.
 */
async function attemptRedactions(db: AppPrismaClient, events: { id: number; payload: string }[]) {
  const valuesOf = new Map(
    events.map((event) => [event.id, personalDataOfEvent(event.payload).map(([, value]) => value)]),
  );
  const ids = events.filter((event) => valuesOf.get(event.id)!.length).map((event) => event.id);
  if (!ids.length) return [];
  const attempts = await db.outboxAttempt.findMany({
    where: { eventId: { in: ids }, detail: { not: null } },
    select: { id: true, eventId: true, detail: true },
  });
  return attempts.flatMap((attempt) => {
    const detail = withoutPersonalText(attempt.detail, valuesOf.get(attempt.eventId)!);
    return detail === attempt.detail
      ? []
      : [db.outboxAttempt.update({ where: { id: attempt.id }, data: { detail } })];
  });
}

/** The updates that redact the raw bodies of these receipts; a receipt without one needs none. */
function receiptRedactions(
  db: AppPrismaClient,
  receipts: { id: string; payload: string | null; detail: string | null }[],
  reason: RedactionReason,
  now: Date,
) {
  const note = `raw body redacted (${reason})`;
  return receipts.flatMap(({ id, payload, detail }) =>
    payload === null
      ? []
      : [
          db.webhookReceipt.update({
            where: { id },
            data: {
              payload: redactRawBody(payload, reason, now),
              detail: detail ? `${detail}; ${note}` : note,
            },
          }),
        ],
  );
}

/**
 * customers/redact: blanks the customer in the shop's order_placed events about them (an event
 * not yet delivered is still sent, without personal data), redacts the raw bodies receipts
 * kept and forgets their orders' customer ID (the Order status page then offers nothing). Rows,
 * IDs and statuses stay.
 */
export async function redactCustomerData(
  db: AppPrismaClient,
  shop: string,
  subject: CustomerSubject,
  now = new Date(),
) {
  const held = await findCustomerData(db, shop, subject);
  if (!held.length) return { events: 0, receipts: 0, summaries: 0, attempts: 0 };
  const eventIds = held.filter((record) => record.kind === "event").map((record) => +record.id);
  const receiptIds = held.filter((record) => record.kind === "receipt").map((record) => record.id);
  const summaryOrderIds = held
    .filter((record) => record.kind === "order_summary")
    .map((record) => record.id);
  const [events, receipts] = await Promise.all([
    db.outboxEvent.findMany({ where: { shop, id: { in: eventIds } }, select: EVENT_FIELDS }),
    db.webhookReceipt.findMany({ where: { shop, id: { in: receiptIds } }, select: RECEIPT_FIELDS }),
  ]);
  const attempts = await attemptRedactions(db, events);
  await db.$transaction([
    ...events.map((event) =>
      db.outboxEvent.update({ where: { id: event.id }, data: redactedEventData(event) }),
    ),
    ...attempts,
    ...receiptRedactions(db, receipts, "customers/redact", now),
    db.orderSummary.updateMany({
      where: { shop, orderId: { in: summaryOrderIds } },
      data: { customerId: null },
    }),
  ]);
  return {
    events: events.length,
    receipts: receipts.length,
    summaries: summaryOrderIds.length,
    attempts: attempts.length,
  };
}

export interface RetentionOptions {
  now: Date;
  retentionDays: number;
}

/**
 * Scrubs the personal data that outlived the retention period, in every shop: the customer of
 * settled (delivered, dead, unprocessable) order_placed events created before the cutoff, the
 * raw bodies of receipts received before it, and the customer ID of orders placed before it.
 * Rows, IDs and statuses stay. Safe to run again at any time: what is already scrubbed is not
 * read again.
 */
export async function purgeExpiredCustomerData(db: AppPrismaClient, options: RetentionOptions) {
  const cutoff = retentionCutoff(options.now, options.retentionDays);
  let events = 0;
  let attempts = 0;
  for (let afterId = 0; ;) {
    const batch = await db.outboxEvent.findMany({
      where: {
        eventType: "order_placed",
        status: { in: [...SETTLED_EVENT_STATUSES] },
        createdAt: { lt: cutoff },
        id: { gt: afterId },
        NOT: { payload: { contains: REDACTED_ORDER_PLACED_TEXT } },
      },
      select: EVENT_FIELDS,
      orderBy: { id: "asc" },
      take: PURGE_BATCH,
    });
    if (!batch.length) break;
    afterId = batch[batch.length - 1]!.id;
    const personal = batch.filter((event) => personalDataOfEvent(event.payload).length > 0);
    const attemptUpdates = await attemptRedactions(db, personal);
    const updated = await db.$transaction([
      ...personal.map((event) =>
        // Only while still settled: an operator may have sent it again meanwhile.
        db.outboxEvent.updateMany({
          where: { id: event.id, status: { in: [...SETTLED_EVENT_STATUSES] } },
          data: redactedEventData(event),
        }),
      ),
      ...attemptUpdates,
    ]);
    events += updated
      .slice(0, personal.length)
      .reduce((sum, result) => sum + ("count" in result ? result.count : 0), 0);
    attempts += attemptUpdates.length;
  }

  // Attempts whose event was redacted before attempts were (issue 27): its values are gone, so
  // only what is recognisably personal, an e-mail address, can still be cut out.
  for (let afterId = 0; ;) {
    const batch = await db.outboxAttempt.findMany({
      where: { startedAt: { lt: cutoff }, id: { gt: afterId }, detail: { contains: "@" } },
      select: { id: true, detail: true },
      orderBy: { id: "asc" },
      take: PURGE_BATCH,
    });
    if (!batch.length) break;
    afterId = batch[batch.length - 1]!.id;
    const scrubbed = batch.flatMap((attempt) => {
      const detail = withoutPersonalText(attempt.detail, []);
      return detail === attempt.detail
        ? []
        : [db.outboxAttempt.update({ where: { id: attempt.id }, data: { detail } })];
    });
    await db.$transaction(scrubbed);
    attempts += scrubbed.length;
  }

  let receipts = 0;
  for (let afterId = ""; ;) {
    const batch = await db.webhookReceipt.findMany({
      where: {
        receivedAt: { lt: cutoff },
        id: { gt: afterId },
        payload: { not: null },
        NOT: { payload: { startsWith: `{"${REDACTION_MARK_KEY}":` } },
      },
      select: RECEIPT_FIELDS,
      orderBy: { id: "asc" },
      take: PURGE_BATCH,
    });
    if (!batch.length) break;
    afterId = batch[batch.length - 1]!.id;
    await db.$transaction(receiptRedactions(db, batch, "retention", options.now));
    receipts += batch.length;
  }

  // The Order status page's customer match (decision 034) ends with the retention period too.
  const { count: summaries } = await db.orderSummary.updateMany({
    where: { placedAt: { lt: cutoff }, customerId: { not: null } },
    data: { customerId: null },
  });
  return { cutoff, events, receipts, summaries, attempts };
}
