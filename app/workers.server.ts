import { HttpResponseError } from "@shopify/shopify-api";
import prisma from "./db.server";
import { getEnv, type AppEnv } from "./env.server";
import { createOutboxWorker, type OutboxWorker } from "./outbox/worker.server";
import {
  createPlanActionWorker,
  type AdminForShop,
  type PlanActionWorker,
} from "./plan-actions/worker.server";
import {
  ensureOfflineAccess,
  markOfflineTokenExpired,
  offlineAdminGraphql,
  OfflineTokenError,
  type OfflineAccess,
} from "./services/offline-session.server";
import { reconcileSettingsOf } from "./reconcile/run.server";
import { createReconcileWorker, type ReconcileWorker } from "./reconcile/worker.server";
import {
  createRetentionWorker,
  retentionSettingsOf,
  type RetentionWorker,
} from "./privacy/retention.server";

/*
 * The background work: the outbox (order events to the service, decision 008), the Shopify
 * actions (plan refunds, decision 022), reconciliation (issue 17, decision 029) and retention
 * (decision 049), one worker of each. The web server runs them unless
 * SVC_OUTBOX_WORKER=off; `npm run worker` runs them on their own.
 */

declare global {
  var svcEmbeddedWorkers: BackgroundWorkers | undefined;
}

export interface BackgroundWorkers {
  outbox: OutboxWorker;
  actions: PlanActionWorker;
  reconcile: ReconcileWorker;
  /** Retention (decision 049): the one scheduler of the data scrub and the row deletion. */
  retention: RetentionWorker;
  start(): void;
  /** Stops all four; each finishes what is in flight and releases the rest of its claims. */
  stop(): Promise<void>;
}

/**
 * The shop's Admin API through its offline session, as the app's background work calls it: each
 * call refreshes (or migrates) the token first when it needs to (decision 023), once per shop at
 * a time (decision 042), and a 401 to an expiring token marks it expired and fails as
 * `OfflineTokenError`, which the action worker retries rather than gives up.
 */
export const offlineAdminFor: AdminForShop = async (shop) => {
  let pending: OfflineAccess | undefined = await ensureOfflineAccess(shop);
  if (pending.status === "missing") return null;
  return async (query, options) => {
    const access = pending ?? (await ensureOfflineAccess(shop));
    pending = undefined;
    if (access.status === "missing")
      throw new OfflineTokenError("refused", `${shop} has no offline session any more`);
    if (access.status === "reauthorize") throw new OfflineTokenError("refused", access.detail);
    if (access.status === "unavailable") throw new OfflineTokenError("passing", access.detail);
    const { session } = access;
    try {
      // The session's token as it is: the library's own client would refresh it again, alone.
      return await offlineAdminGraphql(session)(query, options);
    } catch (error) {
      if (
        error instanceof HttpResponseError &&
        error.response.code === 401 &&
        session.refreshToken
      ) {
        await markOfflineTokenExpired(shop, session.accessToken ?? "");
        throw new OfflineTokenError(
          "expired",
          `Shopify answered 401 to the offline access token of ${shop} (it expired or was ` +
            `replaced): the next run refreshes it`,
        );
      }
      throw error;
    }
  };
};

export function outboxWorkerSettings(env: AppEnv) {
  return {
    batchSize: env.SVC_OUTBOX_BATCH_SIZE,
    concurrency: env.SVC_OUTBOX_CONCURRENCY,
    pollIntervalMs: env.SVC_OUTBOX_POLL_MS,
    // A claim outlives the slowest possible request, so a live worker never loses its rows.
    leaseMs: env.SVC_REQUEST_TIMEOUT_MS * 2 + 30_000,
  };
}

export function createBackgroundWorkers(env: AppEnv): BackgroundWorkers {
  const outbox = createOutboxWorker({ db: prisma, ...outboxWorkerSettings(env) });
  const actions = createPlanActionWorker({
    db: prisma,
    adminFor: offlineAdminFor,
    pollIntervalMs: env.SVC_OUTBOX_POLL_MS,
  });
  const reconcile = createReconcileWorker({
    db: prisma,
    adminFor: offlineAdminFor,
    settings: reconcileSettingsOf(env),
    pollIntervalMs: env.SVC_RECONCILE_POLL_MS,
  });
  const retention = createRetentionWorker({ db: prisma, settings: retentionSettingsOf(env) });
  return {
    outbox,
    actions,
    reconcile,
    retention,
    start() {
      outbox.start();
      actions.start();
      reconcile.start();
      retention.start();
    },
    async stop() {
      await Promise.all([outbox.stop(), actions.stop(), reconcile.stop(), retention.stop()]);
    },
  };
}

/**
 * The embedded default: the web server process runs the background work too, so a single
 * `npm start` is a complete install. One set per process, across Vite's hot reloads; it stops
 * gracefully with the server.
 */
export function startEmbeddedWorkers(): BackgroundWorkers | undefined {
  const env = getEnv();
  if (env.SVC_OUTBOX_WORKER !== "embedded" || env.NODE_ENV === "test") return undefined;
  if (globalThis.svcEmbeddedWorkers) return globalThis.svcEmbeddedWorkers;
  const workers = createBackgroundWorkers(env);
  globalThis.svcEmbeddedWorkers = workers;
  workers.start();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void workers.stop());
  }
  return workers;
}

/** Stops this process's embedded workers, if they run; waits for the work in flight. */
export async function stopEmbeddedWorkers(): Promise<void> {
  await globalThis.svcEmbeddedWorkers?.stop();
}
