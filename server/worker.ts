import "./production-default";
import { providerOf } from "../app/lib/database-url";
import { flushTraces, tracingRequested } from "../app/tracing/tracing.server";
import { prepareServer } from "./prepare-server";

// npm run worker (production unless NODE_ENV says development or test): one outbox worker and one Shopify action worker (decision 022) on their own,
// for scale. Run as many as you like on PostgreSQL (rows are claimed with FOR UPDATE SKIP
// LOCKED) and set SVC_OUTBOX_WORKER=off on the web servers. SIGTERM or SIGINT: stop claiming,
// finish what is in flight, release the rest, exit 0.
const env = await prepareServer(process.env);
// Imported once the configuration is known to be good: these modules read it on load.
const { default: prisma } = await import("../app/db.server");
const { logger } = await import("../app/logger.server");
// Traces only with an OTLP endpoint: otherwise nothing of OpenTelemetry is loaded (decision 051).
if (tracingRequested(process.env))
  (await import("../app/tracing/export.server")).startTracing({ process: "worker", log: logger });
const { createBackgroundWorkers } = await import("../app/workers.server");
const { startMetricsService } = await import("../app/metrics/server.server");

if (providerOf(env.DATABASE_URL) === "sqlite" && env.SVC_OUTBOX_WORKER === "embedded") {
  logger.warn(
    "SQLite runs one worker: with this worker, set SVC_OUTBOX_WORKER=off on the web server",
  );
}
const workers = createBackgroundWorkers(env);
const started: { metrics?: Awaited<ReturnType<typeof startMetricsService>> } = {};

// The handlers come before anything starts: a SIGTERM while the metrics port opens still stops
// the workers cleanly and exits 0.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void workers
      .stop()
      .then(() => started.metrics?.close())
      .then(() => prisma.$disconnect())
      .then(() => flushTraces())
      .then(() => process.exit(0));
  });
}

workers.start();
// The worker's metrics, its liveness (/healthz) and, as it runs the workers, the database gauges.
started.metrics = await startMetricsService({
  env,
  processType: "worker",
  log: logger,
  db: prisma,
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
