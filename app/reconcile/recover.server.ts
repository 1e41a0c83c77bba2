import type { AppPrismaClient } from "../db/client.server";
import { mapOrderWebhook, type MappingResult } from "../orders";
import {
  webhooksOfApiOrder,
  type ApiOrder,
  type ReadingOptions,
  type RecoveredWebhook,
} from "../orders/api-order";
import { recordOrderWebhook, type RecoveredBy } from "../outbox/record.server";

/*
 * Orders read from the Admin API compared with what the outbox holds (issue 17, decision 029).
 * Each order's webhooks are derived as Shopify would have sent them and mapped as webhooks are;
 * those whose events the outbox lacks are recorded through the webhooks' own path, so the keys,
 * the order lanes, the plan actions and the "recorded once" guarantee are the webhooks'.
 */

/** Orders recorded at once: their new orders share the webhooks' group commits. */
const ORDER_CONCURRENCY = 8;
/** Keys per lookup: well under SQLite's and PostgreSQL's limits on bound parameters. */
const KEYS_PER_LOOKUP = 500;

export interface RecoverOptions extends ReadingOptions {
  shop: string;
  recoveredBy: RecoveredBy;
  /** Say what would be recorded, and record nothing. */
  dryRun: boolean;
}

export interface RecoveredOrder {
  orderId: string;
  orderName: string;
  /** The events recorded (or, in a dry run, that would be), by type. */
  events: string[];
}

export interface RecoveryResult {
  ordersChecked: number;
  eventsRecovered: number;
  recovered: RecoveredOrder[];
  /** Orders to read again later (recent edits), with when. */
  readAgain: { orderId: string; dueAt: string }[];
}

interface MappedWebhook {
  webhook: RecoveredWebhook;
  mapping: MappingResult;
  keys: string[];
}

interface OrderPlan {
  order: ApiOrder;
  orderId: string;
  mapped: MappedWebhook[];
}

/** The webhook ID a recovered webhook is recorded under: one per Shopify object and topic. */
export function recoveredWebhookId(webhook: RecoveredWebhook): string {
  return `api:${webhook.topic}:${webhook.objectId}`;
}

function keysOf(mapping: MappingResult): string[] {
  return mapping.kind === "events" ? mapping.events.map((derived) => derived.dedupeKey) : [];
}

async function existingKeys(db: AppPrismaClient, shop: string, keys: string[]) {
  const found = new Set<string>();
  for (let start = 0; start < keys.length; start += KEYS_PER_LOOKUP) {
    const rows = await db.outboxEvent.findMany({
      where: { shop, dedupeKey: { in: keys.slice(start, start + KEYS_PER_LOOKUP) } },
      select: { dedupeKey: true },
    });
    for (const row of rows) found.add(row.dedupeKey);
  }
  return found;
}

/** Orders whose orders/create was recorded as not reported (no plan, reporting off). */
export async function ignoredPlacements(db: AppPrismaClient, shop: string, orderIds: string[]) {
  const rows = orderIds.length
    ? await db.webhookReceipt.findMany({
        where: { shop, topic: "orders/create", status: "ignored", orderId: { in: orderIds } },
        select: { orderId: true },
      })
    : [];
  return new Set(rows.flatMap((row) => (row.orderId ? [row.orderId] : [])));
}

/** The lines and units of a line cancellation: how an edit is recognised under another ID. */
function cancellationSignature(lines: { line_item_id: string; quantity?: number }[]): string {
  return lines
    .map((line) => `${line.line_item_id}x${line.quantity ?? 0}`)
    .sort()
    .join(",");
}

/**
 * Edits already reported under the webhook's `order_edit.id`, by signature, for the orders
 * whose edits reconciliation would record under the agreement's ID: whether the two IDs are
 * the same is not confirmed (decision 028), so an edit with the same lines and units counts as
 * reported, once per edit.
 */
async function reportedEdits(db: AppPrismaClient, shop: string, orderIds: string[]) {
  const rows = orderIds.length
    ? await db.outboxEvent.findMany({
        where: { shop, orderId: { in: orderIds }, dedupeKey: { startsWith: "order-edit:" } },
        select: { orderId: true, dedupeKey: true, payload: true },
      })
    : [];
  const byOrder = new Map<string, { key: string; signature: string }[]>();
  for (const row of rows) {
    const event = JSON.parse(row.payload) as {
      payload: { cancelled_line_items: { line_item_id: string; quantity: number }[] };
    };
    const list = byOrder.get(row.orderId) ?? [];
    list.push({
      key: row.dedupeKey,
      signature: cancellationSignature(event.payload.cancelled_line_items),
    });
    byOrder.set(row.orderId, list);
  }
  return byOrder;
}

/** The webhooks of an order whose events the outbox lacks; none for an order not reported. */
function missingWebhooks(
  plan: OrderPlan,
  existing: Set<string>,
  editsReported: { key: string; signature: string }[],
  placedIgnored: boolean,
): MappedWebhook[] {
  const [placed, ...followUps] = plan.mapped;
  if (!placed) return [];
  const isReported = placed.keys.some((key) => existing.has(key));
  // An order whose orders/create is not reported (no line, no plan with reporting off) stays
  // unreported, and its later events are not the service's either. Its orders/create is
  // recorded as ignored, once, as the webhook's would be: later runs then see it settled.
  if (!isReported && placed.mapping.kind === "ignored") return placedIgnored ? [] : [placed];
  // An order the mapping cannot read is recorded once as unprocessable, for the merchant to see;
  // its later events wait for it, as a webhook's would.
  if (!isReported && placed.mapping.kind === "unprocessable") return [placed];
  // Edits reported under an ID reconciliation also reads are matched by that ID already.
  const readKeys = new Set(followUps.flatMap((item) => item.keys));
  const unmatched = editsReported.filter((reported) => !readKeys.has(reported.key));
  const missing = isReported ? [] : [placed];
  for (const item of followUps) {
    if (item.mapping.kind === "unprocessable") {
      missing.push(item);
      continue;
    }
    if (item.mapping.kind !== "events" || item.keys.every((key) => existing.has(key))) continue;
    if (item.webhook.topic === "orders/edited") {
      const event = item.mapping.events[0]?.event;
      const signature =
        event?.type === "order_line_items_cancelled"
          ? cancellationSignature(event.payload.cancelled_line_items)
          : "";
      const index = unmatched.findIndex((reported) => reported.signature === signature);
      if (index >= 0) {
        unmatched.splice(index, 1);
        continue;
      }
    }
    missing.push(item);
  }
  return missing;
}

async function mapWithLimit<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  async function lane() {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await run(items[index] as T);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * Compares orders read from the Admin API with the outbox and records what is missing. Safe to
 * run in several processes at once, and beside the webhooks: every event is recorded under its
 * key, once.
 */
export async function recoverOrders(
  db: AppPrismaClient,
  orders: ApiOrder[],
  options: RecoverOptions,
): Promise<RecoveryResult> {
  const { shop } = options;
  const connection = await db.shopConnection.findUnique({
    where: { shop },
    select: { reportOrdersWithoutPlan: true },
  });
  const mappingOptions = { reportOrdersWithoutPlan: connection?.reportOrdersWithoutPlan ?? true };
  const readAgain: RecoveryResult["readAgain"] = [];
  const plans: OrderPlan[] = orders.map((order) => {
    const reading = webhooksOfApiOrder(order, options);
    if (reading.readAgainAt)
      readAgain.push({ orderId: reading.orderId, dueAt: reading.readAgainAt });
    const mapped = reading.webhooks.map((webhook) => {
      const mapping = mapOrderWebhook(webhook.topic, webhook.payload, mappingOptions);
      return { webhook, mapping, keys: keysOf(mapping) };
    });
    return { order, orderId: reading.orderId, mapped };
  });

  const existing = await existingKeys(
    db,
    shop,
    plans.flatMap((plan) => plan.mapped.flatMap((item) => item.keys)),
  );
  const withEdits = plans
    .filter((plan) => plan.mapped.some((item) => item.webhook.topic === "orders/edited"))
    .map((plan) => plan.orderId);
  const edits = await reportedEdits(db, shop, withEdits);
  const ignored = await ignoredPlacements(
    db,
    shop,
    plans.map((plan) => plan.orderId),
  );

  const work = plans
    .map((plan) => ({
      plan,
      missing: missingWebhooks(
        plan,
        existing,
        edits.get(plan.orderId) ?? [],
        ignored.has(plan.orderId),
      ),
    }))
    .filter(({ missing }) => missing.length > 0);

  const recorded = await mapWithLimit(work, ORDER_CONCURRENCY, async ({ plan, missing }) => {
    const events: string[] = [];
    for (const item of missing) {
      if (options.dryRun) {
        if (item.mapping.kind === "events") {
          events.push(
            ...item.mapping.events
              .filter((derived) => !existing.has(derived.dedupeKey))
              .map((derived) => derived.event.type),
          );
        }
        continue;
      }
      const outcome = await recordOrderWebhook(db, {
        shop,
        topic: item.webhook.topic,
        webhookId: recoveredWebhookId(item.webhook),
        eventId: null,
        apiVersion: null,
        rawBody: JSON.stringify(item.webhook.payload),
        recoveredBy: options.recoveredBy,
      });
      if (
        outcome.outcome === "recorded" &&
        outcome.eventCount > 0 &&
        item.mapping.kind === "events"
      ) {
        const fresh = await db.outboxEvent.findMany({
          where: { shop, sourceReceiptId: outcome.receiptId },
          select: { eventType: true },
        });
        events.push(...fresh.map((row) => row.eventType));
      }
    }
    return { orderId: plan.orderId, orderName: plan.order.name, events };
  });
  const recovered = recorded.filter((order) => order.events.length > 0);
  return {
    ordersChecked: orders.length,
    eventsRecovered: recovered.reduce((total, order) => total + order.events.length, 0),
    recovered,
    readAgain,
  };
}
