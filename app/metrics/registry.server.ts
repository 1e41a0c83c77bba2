import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { ORDER_TOPICS } from "../orders";

/*
 * Every Prometheus metric of the app (issue 28, decision 047), in one registry per process.
 * Counters and histograms are plain in-memory numbers: incrementing one on the webhook path costs
 * no await and no database call. The gauges read from the database are set by the collector
 * (collector.server.ts) on an interval, never per scrape. No label names a shop.
 */

export type ProcessType = "web" | "worker";
export type AttemptOutcome = "2xx" | "4xx" | "5xx" | "timeout" | "network";
export type WebhookResult =
  "accepted" | "duplicate" | "refused_503" | "unauthenticated" | "invalid" | "error";
export type ShopifyCaller = "plan_actions" | "reconcile" | "storefront" | "buyer_links" | "other";
export type ProxyRoute = "plans" | "cart_updates";
export type ProxyResult = "ok" | "invalid" | "unauthorized" | "rate_limited" | "fallback" | "error";
export type WorkerName = "outbox" | "plan_actions" | "reconcile";

export const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = [
  "2xx",
  "4xx",
  "5xx",
  "timeout",
  "network",
];
export const SHOPIFY_CALLERS: readonly ShopifyCaller[] = [
  "plan_actions",
  "reconcile",
  "storefront",
  "buyer_links",
  "other",
];
export const EDGE_REFUSAL_STATUSES = [408, 411, 413, 429, 503] as const;

function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const metrics = {
    registry,
    outboxEvents: new Gauge({
      name: "svc_outbox_events",
      help: "Outbox events by status and environment (from the database)",
      labelNames: ["status", "environment"] as const,
      registers,
    }),
    outboxOldestPendingAge: new Gauge({
      name: "svc_outbox_oldest_pending_age_seconds",
      help: "Age of the oldest event waiting to be delivered (pending or failed), 0 when none",
      registers,
    }),
    outboxDeadEvents: new Gauge({
      name: "svc_outbox_dead_events",
      help: "Outbox events that are dead now (from the database)",
      registers,
    }),
    outboxSendDuration: new Histogram({
      name: "svc_outbox_send_duration_seconds",
      help: "How long one send of an outbox event to the protection service took, by outcome",
      labelNames: ["outcome"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    outboxAttempts: new Counter({
      name: "svc_outbox_attempts_total",
      help: "Sends of outbox events to the protection service, by outcome",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhooksReceived: new Counter({
      name: "svc_webhooks_received_total",
      help: "Order webhooks received, by topic and result",
      labelNames: ["topic", "result"] as const,
      registers,
    }),
    planActions: new Gauge({
      name: "svc_plan_actions",
      help: "Queued Shopify actions by kind and state (from the database)",
      labelNames: ["kind", "state"] as const,
      registers,
    }),
    shopifyThrottled: new Counter({
      name: "svc_shopify_throttled_total",
      help: "Admin API calls that Shopify throttled, by caller",
      labelNames: ["caller"] as const,
      registers,
    }),
    shopifyThrottleWait: new Counter({
      name: "svc_shopify_throttle_wait_seconds_total",
      help: "Seconds spent waiting on Shopify's cost throttle, by caller",
      labelNames: ["caller"] as const,
      registers,
    }),
    reconcileRuns: new Counter({
      name: "svc_reconcile_runs_total",
      help: "Reconciliation runs finished, by result",
      labelNames: ["result"] as const,
      registers,
    }),
    reconcileRecoveredEvents: new Counter({
      name: "svc_reconcile_recovered_events_total",
      help: "Outbox events that reconciliation recovered (webhooks that never arrived)",
      registers,
    }),
    reconcilePointsUsed: new Counter({
      name: "svc_reconcile_points_used_total",
      help: "Admin API cost points that reconciliation used",
      registers,
    }),
    reconcileRecoveringRunsInARow: new Gauge({
      name: "svc_reconcile_recovering_runs_in_a_row",
      help: "The most, over shops, of the latest consecutive runs that each recovered an event",
      registers,
    }),
    proxyRequests: new Counter({
      name: "svc_proxy_requests_total",
      help: "Storefront app proxy requests, by route and result",
      labelNames: ["route", "result"] as const,
      registers,
    }),
    proxyPlansCache: new Counter({
      name: "svc_proxy_plans_cache_total",
      help: "Lookups of the storefront plans cache, by result",
      labelNames: ["result"] as const,
      registers,
    }),
    workerHeartbeat: new Gauge({
      name: "svc_worker_heartbeat_timestamp_seconds",
      help: "Unix time of the worker loop's last tick",
      labelNames: ["worker"] as const,
      registers,
    }),
    httpBodyRefusals: new Counter({
      name: "svc_http_body_refusals_total",
      help: "Requests the HTTP edge refused before a route saw them, by status",
      labelNames: ["status"] as const,
      registers,
    }),
  };
  // Every known series starts at 0, so that a rate() sees the first increment.
  for (const outcome of ATTEMPT_OUTCOMES) metrics.outboxAttempts.inc({ outcome }, 0);
  for (const topic of ORDER_TOPICS) {
    for (const result of ["accepted", "duplicate", "refused_503", "unauthenticated"] as const)
      metrics.webhooksReceived.inc({ topic, result }, 0);
  }
  for (const caller of SHOPIFY_CALLERS) {
    metrics.shopifyThrottled.inc({ caller }, 0);
    metrics.shopifyThrottleWait.inc({ caller }, 0);
  }
  for (const result of ["ok", "failed"] as const) metrics.reconcileRuns.inc({ result }, 0);
  for (const result of ["hit", "miss"] as const) metrics.proxyPlansCache.inc({ result }, 0);
  for (const status of EDGE_REFUSAL_STATUSES) metrics.httpBodyRefusals.inc({ status }, 0);
  return metrics;
}

export type AppMetrics = ReturnType<typeof createMetrics>;

declare global {
  var svcMetrics: AppMetrics | undefined;
  var svcDefaultMetricsCollected: boolean | undefined;
}

// One set per process, across Vite's hot reloads.
export const metrics: AppMetrics = (globalThis.svcMetrics ??= createMetrics());
export const registry = metrics.registry;

/**
 * Labels every series with the process kind and adds prom-client's process and Node metrics
 * (event-loop lag, heap, GC). Only when metrics are served: a process without them pays nothing.
 */
export function enableProcessMetrics(processType: ProcessType): void {
  registry.setDefaultLabels({ process_type: processType });
  if (globalThis.svcDefaultMetricsCollected) return;
  globalThis.svcDefaultMetricsCollected = true;
  collectDefaultMetrics({ register: registry });
}

/** A topic as a label: one of `known` (the order topics), else "other" (bounded cardinality). */
export function topicLabel(topic: string, known: readonly string[] = ORDER_TOPICS): string {
  return known.includes(topic) ? topic : "other";
}

/** Counts a webhook; `known` are the topics its route can have (the order topics by default). */
export function countWebhook(
  topic: string,
  result: WebhookResult,
  known: readonly string[] = ORDER_TOPICS,
): void {
  metrics.webhooksReceived.inc({ topic: topicLabel(topic, known), result });
}

/** A webhook's result from the status it was answered with (lifecycle and compliance routes). */
export function webhookResultOf(status: number): WebhookResult {
  if (status >= 200 && status < 300) return "accepted";
  if (status === 401) return "unauthenticated";
  if (status === 503) return "refused_503";
  return status >= 500 ? "error" : "invalid";
}

export function countThrottleWait(caller: ShopifyCaller, waitMs: number): void {
  if (waitMs > 0) metrics.shopifyThrottleWait.inc({ caller }, waitMs / 1_000);
}

export function beatHeartbeat(worker: WorkerName, now = Date.now()): void {
  metrics.workerHeartbeat.set({ worker }, now / 1_000);
}
