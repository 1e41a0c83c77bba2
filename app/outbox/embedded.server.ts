import prisma from "../db.server";
import { getEnv, type AppEnv } from "../env.server";
import { createOutboxWorker, type OutboxWorker } from "./worker.server";

declare global {
  var svcEmbeddedOutboxWorker: OutboxWorker | undefined;
}

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

/**
 * The embedded default: the web server process delivers the outbox too, so a single
 * `npm start` is a complete install. One worker per process, across Vite's hot reloads;
 * it stops gracefully with the server.
 */
export function startEmbeddedOutboxWorker(): OutboxWorker | undefined {
  const env = getEnv();
  if (env.SVC_OUTBOX_WORKER !== "embedded" || env.NODE_ENV === "test") return undefined;
  if (globalThis.svcEmbeddedOutboxWorker) return globalThis.svcEmbeddedOutboxWorker;
  const worker = createOutboxWorker({ db: prisma, ...outboxWorkerSettings(env) });
  globalThis.svcEmbeddedOutboxWorker = worker;
  worker.start();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void worker.stop());
  }
  return worker;
}

/** Stops this process's embedded worker, if it runs; waits for its in-flight deliveries. */
export async function stopEmbeddedOutboxWorker(): Promise<void> {
  await globalThis.svcEmbeddedOutboxWorker?.stop();
}
