import { randomUUID } from "node:crypto";
import os from "node:os";
import type { AppPrismaClient } from "../db/client.server";
import type { ShopifyAction } from "../generated/prisma/sqlite/client";
import { logger as rootLogger, type Logger } from "../logger.server";
import { REQUESTED_BY_MERCHANT, queueFoundPlanLines } from "../models/ShopifyAction.server";
import { scheduleRetry } from "../outbox/retry-policy";
import { createQueueLoop, type QueueWorkerControls } from "../outbox/polling-loop.server";
import { beatHeartbeat, countThrottleWait } from "../metrics/registry.server";
import type { AdminGraphql } from "../services/admin-api.server";
import { claimDueActions, releaseActions, renewActionClaim } from "./claim.server";
import { AUTOMATION_SETTINGS, actionHandlerOf } from "./handlers.server";
import { runSettlingRefusal, type SettledOutcome } from "./outcome.server";

/*
 * The worker of the Shopify action queue (decision 022): claims due actions, runs each, and
 * records what came of it. Failures of Shopify or the network are retried with the outbox's
 * backoff for 72 hours; a throttle waits until the shop's bucket has room again; a refusal is
 * final, with Shopify's reason.
 */

/** The shop's Admin API through its offline session; null when the shop has none. */
export type AdminForShop = (shop: string) => Promise<AdminGraphql | null>;

export interface PlanActionWorkerOptions {
  db: AppPrismaClient;
  adminFor: AdminForShop;
  workerId?: string;
  /** Actions claimed per round trip to the database. */
  batchSize?: number;
  pollIntervalMs?: number;
  /**
   * How long a claim holds. The worker renews it before every mutation, so it must outlast the
   * calls between two renewals (at most three, of 30 s each) with a margin; a worker that died
   * holds its action no longer than this.
   */
  leaseMs?: number;
  log?: Logger;
  /** Simulated time for tests. Without it, claims and leases use the database's clock. */
  now?: () => Date;
}

export interface PlanActionWorker extends QueueWorkerControls {
  readonly workerId: string;
  /** One claim-and-run round; the number of actions it handled. */
  runOnce(): Promise<number>;
}

type RowOutcome = SettledOutcome["kind"] | "skipped" | "deferred";

export function createPlanActionWorker(options: PlanActionWorkerOptions): PlanActionWorker {
  const { db, adminFor } = options;
  const workerId =
    options.workerId ?? `${os.hostname()}:${process.pid}:actions:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 20;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 150_000;
  const log = (options.log ?? rootLogger).child({ component: "plan-action-worker", workerId });
  const now = options.now ?? (() => new Date());
  const owned = (id: number) => ({ id, claimedBy: workerId, status: "running" });

  async function finish(row: ShopifyAction, outcome: SettledOutcome, attempts: number) {
    const at = now();
    const released = { claimedBy: null, leaseExpiresAt: null };
    switch (outcome.kind) {
      case "done":
        return db.shopifyAction.updateMany({
          where: owned(row.id),
          data: {
            ...released,
            status: "done",
            detail: outcome.detail,
            lastError: null,
            completedAt: at,
            ...(outcome.result ?? {}),
          },
        });
      case "plan_lines_found": {
        const queued = await queueFoundPlanLines(db, row, outcome.planLineIds);
        const detail = `The order's plan lines were found when it was read: ${queued} plan refund(s) queued`;
        return db.shopifyAction.updateMany({
          where: owned(row.id),
          data: { ...released, status: "done", detail, completedAt: at },
        });
      }
      case "throttled":
        // Not a failure of the action: it waits for the shop's bucket, then runs again. Nor an
        // attempt: counted, a busy bucket would stretch the backoff of a later real failure.
        return db.shopifyAction.updateMany({
          where: owned(row.id),
          data: {
            ...released,
            attempts: attempts - 1,
            status: "pending",
            lastError: outcome.detail,
            nextAttemptAt: new Date(at.getTime() + outcome.retryAfterMs),
          },
        });
      case "retry": {
        const firstFailedAt = row.firstFailedAt ?? at;
        const decision = scheduleRetry(
          { failedAttempts: attempts, firstFailedAt, now: at },
          outcome.detail,
        );
        return db.shopifyAction.updateMany({
          where: owned(row.id),
          data: {
            ...released,
            firstFailedAt,
            ...(decision.outcome === "retry"
              ? {
                  status: "failed",
                  lastError: outcome.detail,
                  nextAttemptAt: decision.nextAttemptAt,
                }
              : {
                  status: "dead",
                  lastError: "error" in decision ? decision.error : outcome.detail,
                  completedAt: at,
                }),
          },
        });
      }
      case "flagged":
        // Done with, until the merchant decides: the admin offers the action as a button.
        return db.shopifyAction.updateMany({
          where: owned(row.id),
          data: { ...released, status: "skipped", detail: outcome.detail, completedAt: at },
        });
      case "dead":
        return db.shopifyAction.updateMany({
          where: owned(row.id),
          data: { ...released, status: "dead", lastError: outcome.detail, completedAt: at },
        });
      case "lost_claim":
        return { count: 0 };
    }
  }

  /** Runs one claimed action; the shop's throttle ends the batch's other actions of the shop. */
  async function runAction(
    row: ShopifyAction,
    throttledUntil: Map<string, Date>,
  ): Promise<RowOutcome> {
    const waitUntil = throttledUntil.get(row.shop);
    if (waitUntil) {
      await releaseActions(db, workerId, [row.id], waitUntil);
      return "deferred";
    }
    const started = await renewActionClaim(db, {
      id: row.id,
      workerId,
      leaseMs,
      now: options.now?.(),
      startAttempt: true,
    });
    if (!started) return "lost_claim";
    const handler = actionHandlerOf(row.kind);
    if (!handler) {
      await finish(row, { kind: "dead", detail: `Unknown action kind "${row.kind}"` }, 0);
      return "dead";
    }
    const connection = await db.shopConnection.findUnique({
      where: { shop: row.shop },
      select: AUTOMATION_SETTINGS,
    });
    const { automation } = handler;
    const automationOff = automation && connection && !connection[automation.setting];
    if (automationOff && row.requestedBy !== REQUESTED_BY_MERCHANT) {
      await finish(row, { kind: "flagged", detail: automation.offDetail }, started.attempts);
      return "skipped";
    }
    const graphql = await adminFor(row.shop);
    // What the row has recorded: a run after a refusal reads what the refused run recorded (an
    // edit committed before its refund was refused must still be refunded).
    let request = row.request;
    const context = graphql && {
      graphql,
      beforeMutation: async (next: string) => {
        const renewed = await renewActionClaim(db, {
          id: row.id,
          workerId,
          leaseMs,
          now: options.now?.(),
          request: next,
        });
        if (renewed === null) return false;
        request = next;
        return true;
      },
    };
    const outcome: SettledOutcome = !context
      ? { kind: "dead", detail: `${row.shop} has no offline session: the app is not installed` }
      : await runSettlingRefusal(() => handler.run(context, { ...row, request }));
    if (outcome.kind === "throttled") {
      // The action waits this long for the shop's bucket before it runs again.
      countThrottleWait("plan_actions", outcome.retryAfterMs);
      throttledUntil.set(row.shop, new Date(now().getTime() + outcome.retryAfterMs));
    }
    const recorded = await finish(row, outcome, started.attempts);
    const fields = { shop: row.shop, orderId: row.orderId, actionId: row.id };
    if (outcome.kind === "lost_claim" || recorded.count === 0) {
      log.warn(fields, "Action left alone: another worker took it after this claim ran out");
      return "lost_claim";
    }
    if (outcome.kind === "dead") log.error({ ...fields, reason: outcome.detail }, "Action dead");
    else if (outcome.kind === "retry" || outcome.kind === "throttled") {
      log.warn({ ...fields, reason: outcome.detail }, "Action will be tried again");
    } else log.info({ ...fields, outcome: outcome.kind }, "Action done");
    return outcome.kind;
  }

  /** An unexpected error (the database, a bug): retried with backoff, never at once. */
  async function retryAfterError(row: ShopifyAction, error: unknown) {
    const detail = `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    log.error(
      { err: error, shop: row.shop, orderId: row.orderId, actionId: row.id },
      `Failed to run the ${row.kind} action of order ${row.orderId}`,
    );
    await finish(row, { kind: "retry", detail }, row.attempts + 1).catch(() =>
      releaseActions(db, workerId, [row.id]),
    );
  }

  async function runOnce(): Promise<number> {
    const ids = await claimDueActions(db, {
      workerId,
      limit: batchSize,
      leaseMs,
      now: options.now?.(),
    });
    if (!ids.length) return 0;
    const rows = await db.shopifyAction.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
    });
    const throttledUntil = new Map<string, Date>();
    let next = 0;
    while (next < rows.length && !loop.stopRequested) {
      const row = rows[next++]!;
      await runAction(row, throttledUntil).catch((error: unknown) => retryAfterError(row, error));
      // A batch of slow Shopify calls is progress too: the loop is alive (issue 28).
      beatHeartbeat("plan_actions");
    }
    const unstarted = rows.slice(next).map((row) => row.id);
    if (unstarted.length) await releaseActions(db, workerId, unstarted);
    return next;
  }

  const loop = createQueueLoop({
    name: "Plan action worker",
    heartbeat: "plan_actions",
    log,
    settings: { batchSize, pollIntervalMs },
    pollIntervalMs,
    // A recorded refund wakes the loop: its plan refunds were recorded in the same commit.
    round: runOnce,
    maxDrainRounds: 1_000,
    release: () => releaseActions(db, workerId),
  });

  return { workerId, runOnce, ...loop.controls };
}
