import { SessionNotFoundError } from "@shopify/shopify-app-remix/server";
import prisma from "./db.server";
import { getEnv, type AppEnv } from "./env.server";
import { createOutboxWorker, type OutboxWorker } from "./outbox/worker.server";
import {
  createPlanActionWorker,
  type AdminForShop,
  type PlanActionWorker,
} from "./plan-actions/worker.server";
import { unauthenticated } from "./shopify.server";

/*
 * The background work: the outbox (order events to the service, decision 008) and the Shopify
 * actions (plan refunds, decision 022), one worker of each. The web server runs them unless
 * SVC_OUTBOX_WORKER=off; `npm run worker` runs them on their own.
 */

declare global {
  var svcEmbeddedWorkers: BackgroundWorkers | undefined;
}

export interface BackgroundWorkers {
  outbox: OutboxWorker;
  actions: PlanActionWorker;
  start(): void;
  /** Stops both; each finishes what is in flight and releases the rest of its claims. */
  stop(): Promise<void>;
}

/** The shop's Admin API through its offline session, as the app's background work calls it. */
export const offlineAdminFor: AdminForShop = async (shop) => {
  try {
    return (await unauthenticated.admin(shop)).admin.graphql;
  } catch (error) {
    if (error instanceof SessionNotFoundError) return null;
    throw error;
  }
};

export function outboxWorkerSettings(env: AppEnv) {
  return {
    batchSize: env.SVC_OUTBOX_BATCH_SIZE,
    concurrency: env.SVC_OUTBOX_CONCURRENCY,
    pollIntervalMs: env.SVC_OUTBOX_POLL_MS,
    // A claim outlives the slowest possible request, so a live worker never loses its rows.
    leaseMs: env.SVC_REQUEST_TIMEOUT_MS * 2 + 30_000,
    customerDataRetentionDays: env.SVC_CUSTOMER_DATA_RETENTION_DAYS,
  };
}

export function createBackgroundWorkers(env: AppEnv): BackgroundWorkers {
  const outbox = createOutboxWorker({ db: prisma, ...outboxWorkerSettings(env) });
  const actions = createPlanActionWorker({
    db: prisma,
    adminFor: offlineAdminFor,
    pollIntervalMs: env.SVC_OUTBOX_POLL_MS,
  });
  return {
    outbox,
    actions,
    start() {
      outbox.start();
      actions.start();
    },
    async stop() {
      await Promise.all([outbox.stop(), actions.stop()]);
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
