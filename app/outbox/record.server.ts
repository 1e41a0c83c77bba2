import { randomUUID } from "node:crypto";
import type { AppPrismaClient, AppTransaction } from "../db/client.server";
import { logger, type Logger } from "../logger.server";
import { isUniqueViolation } from "../lib/unique-violation";
import {
  findDuplicateReceipt,
  findOrderName,
  receiptFor,
  receiptRow,
  type ReceiptStatus,
} from "../models/WebhookReceipt.server";
import { parseWebhookJson } from "../lib/json";
import {
  cancelledOrderHasPlans,
  mapOrderWebhook,
  missingConfirmationReason,
  orderCustomerIdOf,
  orderNameOf,
  placedLineRefs,
  planLinesForRefund,
  readRefundTrigger,
  refundCancellationKey,
  summarizeOrderPlaced,
  type DerivedEvent,
  type MappingResult,
  type OrderTopic,
  type RefundTrigger,
} from "../orders";
import type { Environment, OrderEvent } from "../protection/types";
import type { TraceRef } from "../tracing/tracing.server";
import { WAITING_STATUSES } from "../models/outbox-status";
import {
  PLAN_LINES_UNKNOWN,
  queueCancelledPlansCheck,
  queuePlanFulfilment,
  queuePlanRefunds,
} from "../models/ShopifyAction.server";
import { planEditRequestOf } from "./plan-edit-request.server";
import {
  planFulfilmentRequest,
  planFulfilmentToQueue,
  type PlanFulfilmentRequest,
} from "./plan-fulfilment-queue";

export interface OrderWebhookDelivery {
  shop: string;
  topic: OrderTopic;
  webhookId: string;
  eventId?: string | null;
  apiVersion?: string | null;
  /** The body exactly as signed: parsed here without losing digits of large IDs. */
  rawBody: string;
  /** Set when the Admin API stands in for a webhook that never came (issue 17). */
  recoveredBy?: RecoveredBy;
  /** The delivery's logger (request ID, shop, topic, webhook ID) for the lines on its way. */
  log?: Logger;
  /** The webhook's span, when tracing is on: its events' send attempts join its trace (051). */
  trace?: TraceRef | null;
}

/** Who read an event from the Admin API: a reconciliation run, or the backfill. */
export type RecoveredBy = "reconciliation" | "backfill";

export type RecordOutcome =
  | { outcome: "duplicate" }
  | {
      outcome: "recorded" | "ignored" | "unprocessable";
      receiptId: string;
      orderId: string | null;
      eventCount: number;
      detail: string;
    };

const MAX_RECORD_ATTEMPTS = 3;
/** Deliveries per group commit; Prisma splits the inserts further where a database needs it. */
const MAX_GROUP_SIZE = 200;

type ParsedBody = { ok: true; payload: unknown } | { ok: false; reason: string };

interface ShopSettings {
  environment: Environment;
  reportOrdersWithoutPlan: boolean;
  autoRefundPlans: boolean;
  autoFulfilPlans: boolean;
}

const UNCONNECTED_SHOP: ShopSettings = {
  environment: "sandbox",
  reportOrdersWithoutPlan: true,
  autoRefundPlans: true,
  autoFulfilPlans: false,
};

/**
 * Turns one verified order webhook into its receipt and outbox events, in one transaction.
 * A delivery (or event) seen before records nothing. Two deliveries racing on the same
 * event key lose one transaction to the unique index; it is re-run and finds the other's rows.
 *
 * New orders, nearly all of the traffic, are committed in groups (decision 009): each
 * delivery still waits for the commit that holds its rows before it is answered.
 */
export async function recordOrderWebhook(
  db: AppPrismaClient,
  delivery: OrderWebhookDelivery,
): Promise<RecordOutcome> {
  const parsed = parseBody(delivery.rawBody);
  if (delivery.topic === "orders/create" && parsed.ok) {
    return groupCommitFor(db).record(delivery, parsed.payload);
  }
  const settings = (await readShopSettings(db, [delivery.shop])).get(delivery.shop);
  return recordCarefully(db, delivery, parsed, settings ?? UNCONNECTED_SHOP);
}

function parseBody(rawBody: string): ParsedBody {
  try {
    return { ok: true, payload: parseWebhookJson(rawBody) };
  } catch (error) {
    const reason = `Body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, reason };
  }
}

function mapParsed(
  delivery: OrderWebhookDelivery,
  parsed: ParsedBody,
  settings: ShopSettings,
): MappingResult {
  if (!parsed.ok) return { kind: "unprocessable", orderId: null, reason: parsed.reason };
  const mapping = mapOrderWebhook(delivery.topic, parsed.payload, {
    reportOrdersWithoutPlan: settings.reportOrdersWithoutPlan,
  });
  const reason = missingConfirmationReason(delivery.topic, parsed.payload, mapping);
  if (reason !== null) {
    const { shop, topic, webhookId } = delivery;
    const log = delivery.log ?? logger.child({ shop, topic, webhookId });
    log.info({ orderId: mapping.orderId, reason }, "No checkout confirmation for the order");
  }
  return mapping;
}

/** The environment and reporting setting of each shop, read once for a whole group. */
async function readShopSettings(
  db: AppPrismaClient,
  shops: string[],
): Promise<Map<string, ShopSettings>> {
  const rows = await db.shopConnection.findMany({
    where: { shop: { in: [...new Set(shops)] } },
    select: {
      shop: true,
      environment: true,
      reportOrdersWithoutPlan: true,
      autoRefundPlans: true,
      autoFulfilPlans: true,
    },
  });
  return new Map(
    rows.map((row) => [
      row.shop,
      {
        environment: row.environment as Environment,
        reportOrdersWithoutPlan: row.reportOrdersWithoutPlan,
        autoRefundPlans: row.autoRefundPlans,
        autoFulfilPlans: row.autoFulfilPlans,
      },
    ]),
  );
}

/** The path for everything but a new order, and for a new order its group could not commit. */
async function recordCarefully(
  db: AppPrismaClient,
  delivery: OrderWebhookDelivery,
  parsed: ParsedBody,
  settings: ShopSettings,
): Promise<RecordOutcome> {
  const mapping = mapParsed(delivery, parsed, settings);
  const plans: PlanActionRequest | null =
    delivery.topic === "refunds/create" && parsed.ok
      ? { trigger: readRefundTrigger(parsed.payload), autoRefundPlans: settings.autoRefundPlans }
      : delivery.topic === "orders/cancelled" && parsed.ok && cancelledOrderHasPlans(parsed.payload)
        ? { trigger: { kind: "cancelled" }, autoRefundPlans: settings.autoRefundPlans }
        : parsed.ok
          ? planFulfilmentRequest(delivery.topic, parsed.payload, settings.autoFulfilPlans)
          : null;
  const payloadName = parsed.ok ? orderNameOf(delivery.topic, parsed.payload) : null;
  const customerId =
    delivery.topic === "orders/create" && parsed.ok ? orderCustomerIdOf(parsed.payload) : null;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await recordOnce(db, delivery, settings.environment, mapping, plans, {
        payloadName,
        customerId,
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= MAX_RECORD_ATTEMPTS) throw error;
    }
  }
}

interface QueuedOrder {
  delivery: OrderWebhookDelivery;
  payload: unknown;
  resolve: (outcome: RecordOutcome) => void;
  reject: (error: unknown) => void;
}

const groupCommits = new WeakMap<AppPrismaClient, GroupCommit>();

function groupCommitFor(db: AppPrismaClient): GroupCommit {
  let group = groupCommits.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groupCommits.set(db, group);
  }
  return group;
}

/**
 * Group commit of new orders: while one transaction runs, the deliveries that arrive queue up,
 * and the next transaction writes all of them: two multi-row inserts, no reads. A lone delivery
 * waits for nothing. If a group fails (a duplicate, a race, a bad row), each of its deliveries
 * is recorded on its own by the careful path, so one delivery never fails another.
 */
class GroupCommit {
  private queue: QueuedOrder[] = [];
  private running = false;

  constructor(private readonly db: AppPrismaClient) {}

  record(delivery: OrderWebhookDelivery, payload: unknown): Promise<RecordOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ delivery, payload, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.run());
      }
    });
  }

  /**
   * Starts in the event loop's next check phase, and waits for it again between groups: an
   * SQLite commit runs without ever yielding to the event loop, so without this pause no other
   * request would be read while it runs, and every group would hold one delivery.
   */
  private async run() {
    try {
      while (this.queue.length) {
        const group = this.queue.splice(0, MAX_GROUP_SIZE);
        await this.commit(group).catch((error: unknown) => {
          for (const queued of group) queued.reject(error);
        });
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.running = false;
    }
  }

  private async commit(group: QueuedOrder[]) {
    const settingsByShop = await readShopSettings(
      this.db,
      group.map((queued) => queued.delivery.shop),
    );
    const rows: NewOrderRows[] = [];
    const careful: Array<[QueuedOrder, ShopSettings]> = [];
    for (const queued of group) {
      const settings = settingsByShop.get(queued.delivery.shop) ?? UNCONNECTED_SHOP;
      const mapping = mapParsed(queued.delivery, { ok: true, payload: queued.payload }, settings);
      if (mapping.kind === "events") {
        rows.push(newOrderRows(queued, settings, mapping));
      } else {
        careful.push([queued, settings]);
      }
    }
    if (rows.length) {
      try {
        await this.db.$transaction([
          this.db.webhookReceipt.createMany({ data: rows.map((row) => row.receipt) }),
          this.db.outboxEvent.createMany({ data: rows.flatMap((row) => row.events) }),
          this.db.orderSummary.createMany({ data: rows.flatMap((row) => row.summary) }),
        ]);
        logger.debug(
          {
            deliveries: rows.length,
            webhookIds: rows.map((row) => row.queued.delivery.webhookId),
          },
          "New orders committed as one group",
        );
        for (const row of rows) row.queued.resolve(row.outcome);
      } catch {
        for (const row of rows) careful.push([row.queued, row.settings]);
      }
    }
    await Promise.all(
      careful.map(([queued, settings]) =>
        recordCarefully(
          this.db,
          queued.delivery,
          { ok: true, payload: queued.payload },
          settings,
        ).then(queued.resolve, queued.reject),
      ),
    );
  }
}

interface NewOrderRows {
  queued: QueuedOrder;
  settings: ShopSettings;
  receipt: ReturnType<typeof receiptData> & { id: string };
  events: ReturnType<typeof outboxRow>[];
  summary: NonNullable<ReturnType<typeof orderSummaryRow>>[];
  outcome: RecordOutcome;
}

function newOrderRows(
  queued: QueuedOrder,
  settings: ShopSettings,
  mapping: Extract<MappingResult, { kind: "events" }>,
): NewOrderRows {
  const { delivery } = queued;
  const { environment } = settings;
  const receiptId = randomUUID();
  const order = {
    orderId: mapping.orderId,
    orderName: orderNameOf(delivery.topic, queued.payload),
  };
  return {
    queued,
    settings,
    receipt: {
      ...receiptData(delivery, "processed", order, mapping.detail),
      id: receiptId,
    },
    events: mapping.events.map((derived) =>
      outboxRow(delivery, environment, order, derived, receiptId),
    ),
    summary: [
      orderSummaryRow(
        delivery.shop,
        environment,
        mapping.events,
        orderCustomerIdOf(queued.payload),
      ),
    ].filter((row) => row !== null),
    outcome: {
      outcome: "recorded",
      receiptId,
      orderId: mapping.orderId,
      eventCount: mapping.events.length,
      detail: mapping.detail,
    },
  };
}

/**
 * The dashboard's row for an order, when these events hold its order_placed, with the
 * orders/create customer that the Order status page's link is matched to (decision 034).
 */
function orderSummaryRow(
  shop: string,
  environment: Environment,
  events: DerivedEvent[],
  customerId: string | null,
) {
  const placed = events.find((derived) => derived.event.type === "order_placed")?.event;
  if (placed?.type !== "order_placed") return null;
  const { variantIds, ...figures } = summarizeOrderPlaced(placed.payload);
  return { shop, environment, ...figures, variantIds: JSON.stringify(variantIds), customerId };
}

/** The order a webhook is about: its ID, and its name ("#1001") when known. */
interface OrderRef<Id extends string | null = string | null> {
  orderId: Id;
  orderName: string | null;
}

function outboxRow(
  delivery: OrderWebhookDelivery,
  environment: Environment,
  order: OrderRef<string>,
  derived: DerivedEvent,
  sourceReceiptId: string,
) {
  return {
    shop: delivery.shop,
    recoveredBy: delivery.recoveredBy ?? null,
    traceId: delivery.trace?.traceId ?? null,
    traceSpanId: delivery.trace?.spanId ?? null,
    environment,
    orderId: order.orderId,
    orderName: order.orderName,
    eventType: derived.event.type,
    dedupeKey: derived.dedupeKey,
    payload: JSON.stringify(derived.event),
    sourceReceiptId,
  };
}

/** What a refunds/create asks of the app in Shopify (decision 022), and whether it may act. */
interface PlanRefundRequest {
  /** A refund's trigger; "cancelled": an order with plan lines, whose check is queued (027). */
  trigger: RefundTrigger | { kind: "cancelled" };
  autoRefundPlans: boolean;
}

/** A plan refund, or a plan fulfilment (decision 025). */
type PlanActionRequest = PlanRefundRequest | PlanFulfilmentRequest;

async function recordOnce(
  db: AppPrismaClient,
  delivery: OrderWebhookDelivery,
  environment: Environment,
  mapping: MappingResult,
  plans: PlanActionRequest | null,
  fromPayload: { payloadName: string | null; customerId: string | null },
): Promise<RecordOutcome> {
  const { payloadName, customerId } = fromPayload;
  if (await findDuplicateReceipt(db, delivery)) return { outcome: "duplicate" };

  const recorded = await db.$transaction(
    async (tx): Promise<RecordOutcome & { summary?: OrderSummaryRow | null }> => {
      const { orderId } = mapping;
      // Refunds and fulfillments name no order: they take the name an earlier webhook gave it.
      const orderName =
        payloadName ?? (orderId ? await findOrderName(tx, delivery.shop, orderId) : null);
      const order = { orderId, orderName };
      switch (mapping.kind) {
        case "unprocessable":
          return finish(tx, delivery, "unprocessable", order, mapping.reason, true);
        case "ignored": {
          const notes = [mapping.detail];
          if (delivery.topic === "orders/create" && mapping.orderId) {
            const dropped = await dropWaitingFollowUps(tx, delivery.shop, mapping.orderId);
            if (dropped) notes.push(`dropped ${dropped} waiting event(s) of this unreported order`);
          }
          return finish(tx, delivery, "ignored", order, notes.join("; "));
        }
        case "events":
          return recordEvents(tx, delivery, environment, mapping, plans, orderName, customerId);
      }
    },
  );
  const { summary, ...outcome } = recorded;
  if (summary) await writeOrderSummary(db, summary);
  return outcome;
}

async function recordEvents(
  tx: AppTransaction,
  delivery: OrderWebhookDelivery,
  environment: Environment,
  mapping: Extract<MappingResult, { kind: "events" }>,
  requested: PlanActionRequest | null,
  orderName: string | null,
  customerId: string | null,
): Promise<RecordOutcome & { summary?: OrderSummaryRow | null }> {
  const plans = requested && "autoRefundPlans" in requested ? requested : null;
  const { shop } = delivery;
  const { orderId } = mapping;
  const order = { orderId, orderName };
  const notes = [mapping.detail];
  let events = mapping.events;

  if (delivery.topic !== "orders/create" && (await wasOrderIgnored(tx, shop, orderId))) {
    const detail = `Order ${orderId} was not reported (no plan line, and reporting orders without a plan is off); nothing to send`;
    return finish(tx, delivery, "ignored", order, detail);
  }

  if (
    delivery.topic === "refunds/create" &&
    (await hasEvent(tx, shop, orderId, "order_cancelled"))
  ) {
    // Shopify's cancel refund repeats the cancellation line by line; order_cancelled says it all.
    const before = events.length;
    events = events.filter((derived) => derived.event.type !== "order_line_items_cancelled");
    if (events.length < before)
      notes.push("line cancellations repeated by the order's cancel refund are not sent");
  }

  if (mapping.cancelRefundIds?.length) {
    const dropped = await tx.outboxEvent.deleteMany({
      where: {
        shop,
        orderId,
        eventType: "order_line_items_cancelled",
        status: { in: [...WAITING_STATUSES] },
        dedupeKey: { in: mapping.cancelRefundIds.map(refundCancellationKey) },
      },
    });
    if (dropped.count) {
      notes.push(
        `dropped ${dropped.count} unsent line cancellation(s) repeated by the cancel refund`,
      );
    }
  }

  const existing = await tx.outboxEvent.findMany({
    where: { shop, dedupeKey: { in: events.map((derived) => derived.dedupeKey) } },
    select: { dedupeKey: true },
  });
  const seen = new Set(existing.map((row) => row.dedupeKey));
  const fresh = events.filter((derived) => !seen.has(derived.dedupeKey));
  if (seen.size) notes.push(`${seen.size} event(s) already recorded from an earlier webhook`);
  if (!fresh.length) {
    return finish(tx, delivery, "ignored", order, notes.join("; "));
  }

  // An order's events all go to the environment its order_placed went to (decision 018): a
  // refund after go-live of a sandbox order goes to the sandbox, where the order is known.
  const placement = await tx.outboxEvent.findFirst({
    where: { shop, orderId, eventType: "order_placed" },
    // The placement's lines tell a refund's, an edit's or a fulfilment's plan lines apart; other
    // topics need no payload.
    select: {
      environment: true,
      payload:
        plans?.trigger.kind === "trigger" ||
        delivery.topic === "orders/edited" ||
        (requested !== null && "autoFulfilPlans" in requested),
    },
  });
  const eventEnvironment = (placement?.environment as Environment | undefined) ?? environment;
  const planLineIds = plans ? planLinesToRefund(plans.trigger, placement?.payload) : [];
  if (planLineIds.length) {
    notes.push(
      plans?.autoRefundPlans
        ? `${planLineIds.length} plan refund(s) queued`
        : `${planLineIds.length} plan refund(s) skipped (refunding plans with their products is off)`,
    );
  }
  const planEdit =
    delivery.topic === "orders/edited"
      ? await planEditRequestOf(tx, delivery, orderId, placement?.payload)
      : null;
  if (planEdit) notes.push(planEdit.note);
  if (plans?.trigger.kind === "cancelled") notes.push("check of the plans' refund queued");
  const fulfilment =
    requested && "autoFulfilPlans" in requested
      ? planFulfilmentToQueue(requested, placement?.payload)
      : null;
  if (fulfilment) notes.push(fulfilment.note);
  const receipt = await createReceipt(tx, delivery, "processed", order, notes.join("; "), false);
  await planEdit?.queue(receipt.id);
  if (fulfilment)
    await queuePlanFulfilment(tx, { shop, orderId, sourceReceiptId: receipt.id, ...fulfilment });
  const created = await tx.outboxEvent.createMany({
    data: fresh.map((derived) => outboxRow(delivery, eventEnvironment, order, derived, receipt.id)),
  });
  if (plans?.trigger.kind === "trigger" && planLineIds.length) {
    await queuePlanRefunds(tx, {
      shop,
      orderId,
      triggerRefundId: plans.trigger.refundId,
      triggerLines: plans.trigger.lines,
      planLineIds,
      autoRefundPlans: plans.autoRefundPlans,
      sourceReceiptId: receipt.id,
    });
  }
  if (plans?.trigger.kind === "cancelled") {
    await queueCancelledPlansCheck(tx, { shop, orderId, sourceReceiptId: receipt.id });
  }
  // Follow-ups that arrived before their orders/create are moved to this order_placed's
  // environment by the worker (alignFollowUpEnvironments), for this path and the group commit.
  const summary = orderSummaryRow(shop, eventEnvironment, fresh, customerId);
  return {
    outcome: "recorded",
    receiptId: receipt.id,
    orderId,
    eventCount: created.count,
    detail: receipt.detail ?? "",
    summary,
  };
}

type OrderSummaryRow = NonNullable<ReturnType<typeof orderSummaryRow>>;

/**
 * The plan lines a refund may refund, from the order's lines as its order_placed recorded them.
 * Before that order_placed is recorded, one row stands for them all: the worker finds them when
 * it reads the order.
 */
function planLinesToRefund(
  trigger: PlanRefundRequest["trigger"],
  placedPayload: string | undefined,
): string[] {
  if (trigger.kind !== "trigger") return [];
  const placed = placedPayload ? (JSON.parse(placedPayload) as OrderEvent) : null;
  const orderLines =
    placed?.type === "order_placed" ? placedLineRefs(placed.payload.line_items) : null;
  const found = planLinesForRefund(trigger, orderLines);
  return found.kind === "plan_lines" ? found.planLineIds : [PLAN_LINES_UNKNOWN];
}

/**
 * The admin's figures for an order, written after its events are committed: a summary that
 * cannot be written is logged and never fails the webhook (the events are what matter).
 */
async function writeOrderSummary(db: AppPrismaClient, summary: OrderSummaryRow) {
  const { shop, orderId, ...figures } = summary;
  try {
    // An upsert: a summary may outlive its events (a group that failed on it comes here).
    await db.orderSummary.upsert({
      where: { shop_orderId: { shop, orderId } },
      create: summary,
      update: figures,
    });
  } catch (error) {
    logger.error(
      { err: error, shop, orderId },
      `Failed to write the order summary for order ${orderId}; its events are recorded`,
    );
  }
}

function hasEvent(tx: AppTransaction, shop: string, orderId: string, eventType: string) {
  return tx.outboxEvent
    .findFirst({ where: { shop, orderId, eventType }, select: { id: true } })
    .then(Boolean);
}

/**
 * Whether the order's orders/create was left unreported (no plan line, and reporting orders
 * without a plan is off). An orders/create repeated under a new delivery ID is recorded as
 * ignored too, because its order_placed was recorded already: that order is reported.
 */
async function wasOrderIgnored(tx: AppTransaction, shop: string, orderId: string) {
  const ignored = await tx.webhookReceipt.findFirst({
    where: { shop, orderId, topic: "orders/create", status: "ignored" },
    select: { id: true },
  });
  return ignored !== null && !(await hasEvent(tx, shop, orderId, "order_placed"));
}

/** Follow-up events that arrived before an orders/create that is not reported after all. */
async function dropWaitingFollowUps(tx: AppTransaction, shop: string, orderId: string) {
  const hasPlaced = await hasEvent(tx, shop, orderId, "order_placed");
  if (hasPlaced) return 0;
  const { count } = await tx.outboxEvent.deleteMany({
    where: { shop, orderId, status: { in: [...WAITING_STATUSES] } },
  });
  return count;
}

function receiptData(
  delivery: OrderWebhookDelivery,
  status: ReceiptStatus,
  order: OrderRef,
  detail: string,
  keepPayload = false,
) {
  const payload = keepPayload ? delivery.rawBody : null;
  return receiptRow(receiptFor(delivery, { status, ...order, detail, payload }));
}

function createReceipt(
  tx: AppTransaction,
  delivery: OrderWebhookDelivery,
  status: ReceiptStatus,
  order: OrderRef,
  detail: string,
  keepPayload: boolean,
) {
  return tx.webhookReceipt.create({
    data: receiptData(delivery, status, order, detail, keepPayload),
  });
}

async function finish(
  tx: AppTransaction,
  delivery: OrderWebhookDelivery,
  status: ReceiptStatus,
  order: OrderRef,
  detail: string,
  keepPayload = false,
): Promise<RecordOutcome> {
  const receipt = await createReceipt(tx, delivery, status, order, detail, keepPayload);
  const outcome = status === "processed" ? "recorded" : status;
  return { outcome, receiptId: receipt.id, orderId: order.orderId, eventCount: 0, detail };
}
