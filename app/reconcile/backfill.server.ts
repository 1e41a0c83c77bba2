import { BACKFILL_OPERATION_QUERY, RUN_BACKFILL_QUERY_MUTATION } from "../graphql/RunBackfillQuery";
import { logger } from "../logger.server";
import { deferredOrdersOf, mergeDeferredOrders } from "../models/ReconcileState.server";
import type { ApiOrder } from "../orders/api-order";
import { callShopify } from "../plan-actions/shopify-calls.server";
import { backfillBulkQuery, BulkOrderReader, jsonLines } from "./backfill-query";
import { recoverOrders } from "./recover.server";
import type { RunDependencies } from "./run.server";

/*
 * The backfill (issue 17, decision 029): the orders created since the merchant's date, read with
 * one bulk operation whose JSONL result is streamed, one order at a time, through the same
 * comparison as reconciliation. Each step does what the backfill's state asks and returns; the
 * worker calls it again at its next poll. Progress is saved after every batch, so a backfill
 * cut off by a restart goes on from the last saved order.
 */

/** Orders recorded between two saves of the progress. */
const BATCH_SIZE = 100;

export type BackfillStep = "idle" | "waiting" | "finished";

export interface BackfillDependencies extends RunDependencies {
  /** Downloads the result: Shopify's URL is a signed link that takes no token. */
  fetch?: typeof fetch;
  /** Orders recorded between two saves of the progress (BATCH_SIZE). */
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
    default:
      return "idle";
  }
}

async function fail(
  deps: BackfillDependencies,
  shop: string,
  detail: string,
): Promise<BackfillStep> {
  const now = deps.now ?? (() => new Date());
  await deps.db.reconcileState.update({
    where: { shop },
    data: { backfillStatus: "failed", backfillDetail: detail, backfillFinishedAt: now() },
  });
  logger.warn({ shop }, `Backfill of ${shop} failed: ${detail}`);
  return "finished";
}

async function startOperation(
  deps: BackfillDependencies,
  shop: string,
  since: Date,
): Promise<BackfillStep> {
  const answer = await callShopify(deps.admin, {
    query: RUN_BACKFILL_QUERY_MUTATION,
    variables: { query: backfillBulkQuery(since) },
  });
  if (answer.kind === "refused") return fail(deps, shop, answer.detail);
  if (answer.kind !== "ok") return "waiting";
  const { bulkOperation, userErrors } = answer.data.bulkOperationRunQuery ?? {
    bulkOperation: null,
    userErrors: [],
  };
  if (!bulkOperation) {
    const messages = userErrors.map((error) => error.message).join("; ");
    // Shopify runs one bulk query per shop and app at a time: another (the app's own earlier
    // one, or one in progress) must finish first.
    if (/in progress|already/i.test(messages)) return "waiting";
    return fail(deps, shop, `Shopify refused the bulk query: ${messages || "no reason given"}`);
  }
  await deps.db.reconcileState.update({
    where: { shop },
    data: {
      backfillStatus: "running",
      backfillOperationId: bulkOperation.id,
      backfillOrdersDone: 0,
      backfillEventsRecovered: 0,
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
  const answer = await callShopify(deps.admin, {
    query: BACKFILL_OPERATION_QUERY,
    variables: { id: operationId },
  });
  if (answer.kind === "refused") return fail(deps, shop, answer.detail);
  if (answer.kind !== "ok") return "waiting";
  const operation = answer.data.node;
  if (!operation || !("status" in operation)) {
    return fail(deps, shop, `Shopify no longer knows the bulk operation ${operationId}`);
  }
  const total = operation.rootObjectCount === undefined ? null : Number(operation.rootObjectCount);
  switch (operation.status) {
    case "CREATED":
    case "RUNNING":
      await deps.db.reconcileState.update({
        where: { shop },
        data: { backfillOrdersTotal: total },
      });
      return "waiting";
    case "COMPLETED":
      if (!operation.url) return complete(deps, shop, 0);
      return readResult(deps, shop, operation.url, total);
    default:
      return fail(
        deps,
        shop,
        `Shopify's bulk query ended ${operation.status}${operation.errorCode ? ` (${operation.errorCode})` : ""}`,
      );
  }
}

async function complete(deps: BackfillDependencies, shop: string, total: number) {
  const now = deps.now ?? (() => new Date());
  const state = await deps.db.reconcileState.update({
    where: { shop },
    data: {
      backfillStatus: "completed",
      backfillOrdersTotal: total,
      backfillFinishedAt: now(),
      backfillDetail: null,
    },
  });
  logger.info(
    { shop, orders: state.backfillOrdersDone, events: state.backfillEventsRecovered },
    `Backfill of ${shop} completed`,
  );
  return "finished" as const;
}

/** Streams the result, skipping the orders an earlier, interrupted step saved as done. */
async function readResult(
  deps: BackfillDependencies,
  shop: string,
  url: string,
  total: number | null,
): Promise<BackfillStep> {
  const { db, settings } = deps;
  const now = deps.now ?? (() => new Date());
  const response = await (deps.fetch ?? fetch)(url);
  if (!response.ok || !response.body) {
    // The link expired (Shopify's last a week) or the file is gone: the query runs again. The
    // orders recorded so far are found recorded and cost nothing more.
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
  const start = await db.reconcileState.findUniqueOrThrow({ where: { shop } });
  let skip = start.backfillOrdersDone;
  const reader = new BulkOrderReader();
  let batch: ApiOrder[] = [];

  async function save() {
    if (!batch.length) return;
    const result = await recoverOrders(db, batch, {
      shop,
      recoveredBy: "backfill",
      dryRun: false,
      now: now(),
      editSettleMs: settings.editSettleMs,
    });
    const current = await db.reconcileState.findUniqueOrThrow({
      where: { shop },
      select: { deferredOrders: true },
    });
    await db.reconcileState.update({
      where: { shop },
      data: {
        backfillOrdersDone: { increment: batch.length },
        backfillEventsRecovered: { increment: result.eventsRecovered },
        deferredOrders: JSON.stringify(
          mergeDeferredOrders(deferredOrdersOf(current.deferredOrders), result.readAgain),
        ),
      },
    });
    batch = [];
    await deps.onProgress?.();
  }

  async function take(order: ApiOrder | null) {
    if (!order) return;
    if (skip > 0) {
      skip -= 1;
      return;
    }
    batch.push(order);
    if (batch.length >= (deps.batchSize ?? BATCH_SIZE)) await save();
  }

  for await (const line of jsonLines(response.body)) await take(reader.push(line));
  await take(reader.finish());
  await save();
  const done = await db.reconcileState.findUniqueOrThrow({
    where: { shop },
    select: { backfillOrdersDone: true },
  });
  return complete(deps, shop, total ?? done.backfillOrdersDone);
}
