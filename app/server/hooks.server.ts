import prisma from "../db.server";
import { getEnv } from "../env.server";
import { logger, type Logger } from "../logger.server";
import { metrics } from "../metrics/registry.server";
import { startMetricsService, type MetricsService } from "../metrics/server.server";
import type { OrderTopic } from "../orders";
import { handleOrderWebhook, ORDER_WEBHOOK_PATHS } from "../webhooks/orders.server";
import { stopEmbeddedWorkers } from "../workers.server";
import type { EdgeLimits } from "./body-limits.server";
import { checkAppReadiness, type Readiness } from "./readiness.server";

/**
 * What the production server (server/serve.ts) takes from the server build besides Remix's
 * request handler. Taken from the build, not imported from source, so that the server and
 * Remix share one Prisma client, one logger and one embedded worker.
 */
export interface ServerHooks {
  /** Order webhooks are answered before Express and Remix see them (decision 009). */
  orderWebhookPaths: ReadonlyMap<string, OrderTopic>;
  handleOrderWebhook: typeof handleOrderWebhook;
  logger: Logger;
  /** Body caps, byte budget, rates and time-outs of the HTTP server (decisions 016, 041). */
  edgeLimits(): EdgeLimits;
  /** Stops the embedded workers (they release their claims) and closes the database. */
  stopBackgroundWork(): Promise<void>;
  /** /readyz: the database answers and every migration is applied (decision 048). */
  checkReadiness(): Promise<Readiness>;
  /** How long a stopping server keeps serving, /readyz 503, before it closes its port. */
  shutdownDelayMs(): number;
  /**
   * The metrics port of the web process when SVC_METRICS_PORT is set (decision 047); it reads
   * the database gauges when the embedded workers run here.
   */
  startMetrics(): Promise<MetricsService | undefined>;
  /** Counts a request the edge refused before a route saw it (svc_http_body_refusals_total). */
  countEdgeRefusal(status: number): void;
}

export const serverHooks: ServerHooks = {
  orderWebhookPaths: ORDER_WEBHOOK_PATHS,
  handleOrderWebhook,
  logger,
  edgeLimits() {
    const env = getEnv();
    return {
      maxBodyBytes: env.SVC_MAX_BODY_BYTES,
      orderWebhookMaxBodyBytes: env.SVC_ORDER_WEBHOOK_MAX_BODY_BYTES,
      budgetBytes: env.SVC_BODY_BUDGET_BYTES,
      // The reserve is at most half the budget: the rest of the traffic keeps the other half.
      webhookReserveBytes: Math.min(
        env.SVC_WEBHOOK_BODY_RESERVE_BYTES,
        env.SVC_BODY_BUDGET_BYTES / 2,
      ),
      webhookReservePerSourceBytes: env.SVC_WEBHOOK_RESERVE_PER_SOURCE_BYTES,
      bodiesPerSource: env.SVC_BODIES_PER_SOURCE,
      minBodyBytesPerSecond: env.SVC_BODY_MIN_BYTES_PER_SECOND,
      bodyRateWindowMs: env.SVC_BODY_RATE_WINDOW_MS,
      trustedProxies: env.SVC_TRUSTED_PROXY_COUNT,
      headersTimeoutMs: env.SVC_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: Math.max(env.SVC_HTTP_REQUEST_TIMEOUT_MS, env.SVC_HTTP_HEADERS_TIMEOUT_MS),
    };
  },
  startMetrics() {
    const env = getEnv();
    return startMetricsService({
      env,
      processType: "web",
      log: logger,
      ...(env.SVC_OUTBOX_WORKER === "embedded" ? { db: prisma } : {}),
    });
  },
  countEdgeRefusal(status) {
    metrics.httpBodyRefusals.inc({ status });
  },
  async stopBackgroundWork() {
    await stopEmbeddedWorkers();
    await prisma.$disconnect();
  },
  checkReadiness: checkAppReadiness,
  shutdownDelayMs: () => getEnv().SVC_SHUTDOWN_DELAY_MS,
};
