import { randomUUID } from "node:crypto";
import os from "node:os";
import type { AppPrismaClient } from "../db/client.server";
import { logger as rootLogger, type Logger } from "../logger.server";
import {
  claimReconcileLease,
  isBackfillActive,
  releaseReconcileLease,
  shopsDueForReconciliation,
} from "../models/ReconcileState.server";
import { beatHeartbeat } from "../metrics/registry.server";
import { createQueueLoop, type QueueWorkerControls } from "../outbox/polling-loop.server";
import type { AdminForShop } from "../plan-actions/worker.server";
import { stepBackfill } from "./backfill.server";
import { runReconciliation, type ReconcileSettings } from "./run.server";

/*
 * The reconciliation worker (issue 17, decision 029): each poll, the shops with work due (a
 * scheduled or requested run, a backfill step) are taken one at a time under a lease, so two
 * workers never run the same shop at once, and a worker that dies frees its shops when the lease
 * runs out. A run renews its lease after every page.
 */

export interface ReconcileWorkerOptions {
  db: AppPrismaClient;
  adminFor: AdminForShop;
  settings: ReconcileSettings;
  pollIntervalMs?: number;
  leaseMs?: number;
  workerId?: string;
  now?: () => Date;
  log?: Logger;
}

export interface ReconcileWorker extends QueueWorkerControls {
  readonly workerId: string;
}

const DEFAULT_POLL_MS = 30_000;
/** Longer than a page and the reads of its incomplete orders take, even when throttled. */
const DEFAULT_LEASE_MS = 5 * 60_000;

export function createReconcileWorker(options: ReconcileWorkerOptions): ReconcileWorker {
  const { db, settings } = options;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const workerId =
    options.workerId ?? `${os.hostname()}:${process.pid}:reconcile:${randomUUID().slice(0, 8)}`;
  const log = (options.log ?? rootLogger).child({ component: "reconcile-worker", workerId });
  const held = new Set<string>();

  async function work(shop: string): Promise<number> {
    if (!(await claimReconcileLease(db, shop, workerId, now(), leaseMs))) return 0;
    held.add(shop);
    try {
      const admin = await options.adminFor(shop);
      if (!admin) {
        log.warn({ shop }, `Reconciliation of ${shop} skipped: the shop has no offline session`);
        await db.reconcileState.updateMany({
          where: { shop },
          data: {
            nextRunAt: new Date(now().getTime() + (settings.intervalMs || 86_400_000)),
            requestedAt: null,
          },
        });
        return 0;
      }
      const deps = {
        db,
        admin,
        settings,
        now,
        onProgress: async () => {
          // A long run (many pages, throttle waits) is alive while its pages come (issue 28).
          beatHeartbeat("reconcile");
          await claimReconcileLease(db, shop, workerId, now(), leaseMs);
        },
      };
      const state = await db.reconcileState.findUnique({ where: { shop } });
      const backfill = isBackfillActive(state?.backfillStatus ?? null)
        ? await stepBackfill(deps, shop)
        : "idle";
      const backfillMoved = backfill === "progress" || backfill === "finished";
      const runDue =
        !state ||
        state.requestedAt !== null ||
        (settings.intervalMs > 0 && state.nextRunAt <= now());
      if (!runDue) return backfillMoved ? 1 : 0;
      await runReconciliation(deps, {
        shop,
        trigger: state?.requestedAt ? "merchant" : "schedule",
      });
      return 1;
    } finally {
      held.delete(shop);
      await releaseReconcileLease(db, shop, workerId);
    }
  }

  async function round(): Promise<number> {
    const shops = await shopsDueForReconciliation(db, now(), settings.intervalMs > 0);
    let handled = 0;
    for (const shop of shops) {
      if (loop.stopRequested) break;
      try {
        handled += await work(shop);
      } catch (error) {
        log.error(
          { err: error, shop },
          `Reconciliation of ${shop} failed; it is tried again later`,
        );
      }
    }
    return handled;
  }

  const loop = createQueueLoop({
    name: "Reconciliation worker",
    heartbeat: "reconcile",
    log,
    settings: { ...settings, workerId },
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_MS,
    round,
    maxDrainRounds: 20,
    // New webhooks are no reason to reconcile: the schedule and the merchant's requests are.
    wakeOnOutbox: false,
    async release() {
      const shops = [...held];
      await Promise.all(shops.map((shop) => releaseReconcileLease(db, shop, workerId)));
      return shops.length;
    },
  });
  // The first look waits one poll: a deploy starts every process at once, and none of them
  // needs to reconcile in its first seconds.
  let starting: NodeJS.Timeout | null = null;
  return {
    ...loop.controls,
    workerId,
    start() {
      starting ??= setTimeout(
        () => loop.controls.start(),
        options.pollIntervalMs ?? DEFAULT_POLL_MS,
      );
    },
    async stop() {
      if (starting) clearTimeout(starting);
      starting = null;
      await loop.controls.stop();
    },
  };
}
