import { BACKFILL_OPERATION_QUERY } from "../graphql/BackfillOperation";
import { RUN_BACKFILL_QUERY_MUTATION } from "../graphql/RunBackfillQuery";
import { logger } from "../logger.server";
import { addDeferredOrders } from "../models/ReconcileState.server";
import { headerKeys, headerLooksComplete, orderNumericId } from "../orders/api-order";
import { callShopify } from "../plan-actions/shopify-calls.server";
import {
  backfillBulkQuery,
  BulkOrderReader,
  jsonLines,
  mustBeReadWhole,
  placementOnly,
  type BulkOrder,
} from "./backfill-query";
import { ignoredPlacements, recoverOrders, type RecoverOptions } from "./recover.server";
import {
  readOrdersWhole,
  RunFailure,
  SharedBucketCaller,
  type RunDependencies,
} from "./run.server";

/*
 * The backfill (issue 17, decision 029): the orders created since the merchant's date, read with
 * one bulk operation whose JSONL result is streamed, one order at a time, through the same
 * comparison as reconciliation. Orders with fulfilments, refunds or edits, whose lines a bulk
 * query cannot read, are then read whole within the shop's share of its bucket. Each step does
 * what the backfill's state asks and returns; progress is saved after every batch, so a backfill
 * cut off by a restart goes on from the last saved order.
 */

/** Orders recorded between two saves of the progress. */
const BATCH_SIZE = 100;
/** Orders read whole between two saves of the progress. */
const READ_BATCH_SIZE = 25;
/** How long one step reads orders whole before it lets the worker run the shop's other work. */
const READING_STEP_MS = 60_000;

/** "progress": there is more to do at once; "waiting": for Shopify's bulk query. */
export type BackfillStep = "idle" | "waiting" | "progress" | "finished";

export interface BackfillDependencies extends RunDependencies {
  /** Downloads the result: Shopify's URL is a signed link that takes no token. */
  fetch?: typeof fetch;
  batchSize?: number;
}

/** Advances the shop's backfill by one step. */
export async function stepBackfill(
  deps: BackfillDependencies,
  shop: string,
): Promise<BackfillStep> {
  const { db } = deps;
  const state = await db.reconcileState.findUnique({ where: { shop } });
  if (!state?.backfillSince) return "idle";
  switch (state.backfillStatus) {
    case "requested":
      return startOperation(deps, shop, state.backfillSince);
    case "running":
      return state.backfillOperationId
        ? followOperation(deps, shop, state.backfillOperationId)
        : startOperation(deps, shop, state.backfillSince);
    case "reading":
      return readWhole(deps, shop);
    default:
      return "idle";
  }
}

function nowOf(deps: BackfillDependencies) {
  return (deps.now ?? (() => new Date()))();
}

function recoverOptions(deps: BackfillDependencies, shop: string): RecoverOptions {
  return {
    shop,
    recoveredBy: "backfill",
    dryRun: false,
    now: nowOf(deps),
    editSettleMs: deps.settings.editSettleMs,
  };
}

async function fail(deps: BackfillDependencies, shop: string, detail: string) {
  await deps.db.reconcileState.update({
    where: { shop },
    data: { backfillStatus: "failed", backfillDetail: detail, backfillFinishedAt: nowOf(deps) },
  });
  logger.warn({ shop }, `Backfill of ${shop} failed: ${detail}`);
  return "finished" as const;
}

async function startOperation(
  deps: BackfillDependencies,
  shop: string,
  since: Date,
): Promise<BackfillStep> {
  const answer = await callShopify(
    deps.admin,
    {
      query: RUN_BACKFILL_QUERY_MUTATION,
      variables: { query: backfillBulkQuery(since) },
    },
    "reconcile",
  );
  if (answer.kind === "refused") return fail(deps, shop, answer.detail);
  if (answer.kind !== "ok") return "waiting";
  const { bulkOperation, userErrors } = answer.data.bulkOperationRunQuery ?? {
    bulkOperation: null,
    userErrors: [],
  };
  if (!bulkOperation) {
    // Shopify runs a few bulk queries per shop and app at once: the others must finish first.
    if (userErrors.some((error) => error.code === "OPERATION_IN_PROGRESS")) return "waiting";
    const messages = userErrors.map((error) => error.message).join("; ");
    return fail(deps, shop, `Shopify refused the bulk query: ${messages || "no reason given"}`);
  }
  await deps.db.reconcileState.update({
    where: { shop },
    data: {
      backfillStatus: "running",
      backfillOperationId: bulkOperation.id,
      backfillOrdersDone: 0,
      backfillToRead: "[]",
      backfillDetail: null,
    },
  });
  logger.info({ shop, operation: bulkOperation.id }, `Backfill of ${shop} started`);
  return "waiting";
}

async function followOperation(
  deps: BackfillDependencies,
  shop: string,
  operationId: string,
): Promise<BackfillStep> {
  const answer = await callShopify(
    deps.admin,
    {
      query: BACKFILL_OPERATION_QUERY,
      variables: { id: operationId },
    },
    "reconcile",
  );
  if (answer.kind === "refused") return fail(deps, shop, answer.detail);
  if (answer.kind !== "ok") return "waiting";
  const operation = answer.data.node;
  if (!operation || !("status" in operation)) {
    return fail(deps, shop, `Shopify no longer knows the bulk operation ${operationId}`);
  }
  const total = operation.rootObjectCount == null ? null : Number(operation.rootObjectCount);
  switch (operation.status) {
    case "CREATED":
    case "RUNNING":
      await deps.db.reconcileState.update({
        where: { shop },
        data: { backfillOrdersTotal: total },
      });
      return "waiting";
    case "COMPLETED":
      return readResult(deps, shop, operation.url ?? null, total ?? 0);
    default:
      return fail(
        deps,
        shop,
        `Shopify's bulk query ended ${operation.status}${operation.errorCode ? ` (${operation.errorCode})` : ""}`,
      );
  }
}

/**
 * Streams the result, skipping the orders an earlier, interrupted step saved as done. An order
 * the outbox already holds completely costs one lookup; one without fulfilments, refunds or
 * edits is recorded from the result; the others are listed to be read whole.
 */
async function readResult(
  deps: BackfillDependencies,
  shop: string,
  url: string | null,
  total: number,
): Promise<BackfillStep> {
  const { db } = deps;
  let body: ReadableStream<Uint8Array> | null = null;
  if (url) {
    const response = await (deps.fetch ?? fetch)(url);
    if (!response.ok || !response.body) {
      // The link expired (Shopify keeps a result a week) or the file is gone: the query runs
      // again. The orders recorded so far are found recorded and cost nothing more.
      await db.reconcileState.update({
        where: { shop },
        data: { backfillStatus: "requested", backfillOperationId: null },
      });
      logger.warn(
        { shop, status: response.status },
        `The backfill result of ${shop} could not be downloaded; the query runs again`,
      );
      return "waiting";
    }
    body = response.body;
  }
  const start = await db.reconcileState.findUniqueOrThrow({ where: { shop } });
  let skip = start.backfillOrdersDone;
  let batch: BulkOrder[] = [];

  async function save() {
    if (!batch.length) return;
    const keys = new Set(
      (
        await db.outboxEvent.findMany({
          where: { shop, dedupeKey: { in: batch.flatMap(headerKeys) } },
          select: { dedupeKey: true },
        })
      ).map((row) => row.dedupeKey),
    );
    const ignored = await ignoredPlacements(db, shop, batch.map(orderNumericId));
    const open = batch.filter(
      (order) =>
        !headerLooksComplete(order, (key) => keys.has(key), ignored.has(orderNumericId(order))),
    );
    const toRead = open.filter(mustBeReadWhole).map(orderNumericId);
    const result = await recoverOrders(
      db,
      open.filter((order) => !mustBeReadWhole(order)).map(placementOnly),
      recoverOptions(deps, shop),
    );
    const current = await db.reconcileState.findUniqueOrThrow({
      where: { shop },
      select: { backfillToRead: true },
    });
    await db.reconcileState.update({
      where: { shop },
      data: {
        backfillOrdersDone: { increment: batch.length },
        backfillEventsRecovered: { increment: result.eventsRecovered },
        backfillToRead: JSON.stringify([...idListOf(current.backfillToRead), ...toRead]),
      },
    });
    await addDeferredOrders(db, shop, result.readAgain);
    batch = [];
    await deps.onProgress?.();
  }

  async function take(order: BulkOrder | null) {
    if (!order) return;
    if (skip > 0) {
      skip -= 1;
      return;
    }
    batch.push(order);
    if (batch.length >= (deps.batchSize ?? BATCH_SIZE)) await save();
  }

  if (body) {
    const reader = new BulkOrderReader();
    for await (const line of jsonLines(body)) await take(reader.push(line));
    await take(reader.finish());
  }
  await save();
  await db.reconcileState.update({
    where: { shop },
    data: { backfillStatus: "reading", backfillOperationId: null, backfillOrdersTotal: total },
  });
  return "progress";
}

function idListOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/** Reads the listed orders whole, a batch at a time, for about a minute; then lets others run. */
async function readWhole(deps: BackfillDependencies, shop: string): Promise<BackfillStep> {
  const { db } = deps;
  const caller = new SharedBucketCaller(deps);
  const started = Date.now();
  for (;;) {
    const state = await db.reconcileState.findUniqueOrThrow({ where: { shop } });
    const toRead = idListOf(state.backfillToRead);
    if (!toRead.length) return complete(deps, shop);
    if (Date.now() - started > READING_STEP_MS) return "progress";
    const ids = toRead.slice(0, READ_BATCH_SIZE);
    let orders;
    try {
      orders = await readOrdersWhole(caller, ids);
    } catch (error) {
      if (!(error instanceof RunFailure)) throw error;
      await db.reconcileState.update({
        where: { shop },
        data: { backfillDetail: `Reading orders paused: ${error.message}` },
      });
      return "waiting";
    }
    const result = await recoverOrders(db, orders, recoverOptions(deps, shop));
    await db.reconcileState.update({
      where: { shop },
      data: {
        backfillToRead: JSON.stringify(toRead.slice(ids.length)),
        backfillEventsRecovered: { increment: result.eventsRecovered },
        backfillDetail: null,
      },
    });
    await addDeferredOrders(db, shop, result.readAgain);
    await deps.onProgress?.();
  }
}

async function complete(deps: BackfillDependencies, shop: string) {
  const state = await deps.db.reconcileState.update({
    where: { shop },
    data: { backfillStatus: "completed", backfillFinishedAt: nowOf(deps), backfillDetail: null },
  });
  logger.info(
    { shop, orders: state.backfillOrdersDone, events: state.backfillEventsRecovered },
    `Backfill of ${shop} completed`,
  );
  return "finished" as const;
}
