// npm run bench:admin [-- --db sqlite|postgresql|both] [--runs 30] [--warm-up 5] [--dry-run]
// Server time of the embedded admin's loaders on a large shop: 100,000 outbox events, 50,000
// webhook receipts and 30,000 order summaries, plus other shops' rows, on SQLite and PostgreSQL.
// The real route loaders are called in-process with App Bridge session tokens, as Remix calls
// them (the app layout's loader beside the page's). Figures go to docs/performance.md. Exits 0
// on a missed target (it is a benchmark); 1 only when the benchmark itself failed.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { register } from "node:module";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { AppPrismaClient, AppTransaction } from "../../app/db/client.server";
import type { DatabaseProvider } from "../../app/db/database-url";
import { percentile } from "./http-load";
import { BenchmarkError, machineBusyMs, postgresCpuMs, selfCpuMs } from "./processes";
import { describeMachine, machineLine, writeMarkedSection, type MachineInfo } from "./report";
import { createOfflineSession } from "../../test/support/offline-session";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ROUTES = path.join(ROOT, "app/routes");
const SHOP = "svc-bench-admin.myshopify.com";
const TARGET_P95_MS = 200;
/** Other processes using more than this many CPUs while loaders were timed make figures unreliable. */
const DISTURBED_CPUS = 0.15;

const SIZES = {
  events: 100_000,
  receipts: 50_000,
  orderSummaries: 30_000,
  noiseShops: 20,
  /** Every sixth row of each table belongs to another shop, interleaved with the bench shop's. */
  noiseEveryNth: 6,
  protectionItems: 12,
  protectableVariants: 300,
  chunk: 1_000,
  days: 90,
};

/**
 * Indexes to try that the schema does not have yet: created on the throwaway database after the
 * first timing, then the event log is timed again. Empty: the two this benchmark showed the event
 * log needs, `OutboxEvent (shop, id)` and `WebhookReceipt (shop, status, receivedAt)`, are in the
 * schema now (migration 20261122010000_admin_indexes).
 */
export const SUGGESTED_INDEXES: { prisma: string; sql: string }[] = [];

/** The pages timed again with the suggested indexes. */
const EVENT_LOG_PAGE = /^(events|webhooks|event)-/;

const SECTION = {
  name: "admin",
  heading: "## Admin loaders (npm run bench:admin)",
};

const options = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    runs: { type: "string", default: "30" },
    "warm-up": { type: "string", default: "5" },
    child: { type: "string" },
    result: { type: "string" },
    "dry-run": { type: "boolean", default: false },
  },
}).values;

function positiveInteger(name: string, value: string | undefined): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new BenchmarkError(`--${name} must be a whole number, not ${value}`);
  }
  return parsed;
}

function databasesToRun(): DatabaseProvider[] {
  switch (options.db) {
    case "sqlite":
    case "postgresql":
      return [options.db];
    case "both":
      return ["sqlite", "postgresql"];
    default:
      throw new BenchmarkError(`--db must be sqlite, postgresql or both, not ${options.db}`);
  }
}

// ---------------------------------------------------------------------------------------------
// What a run reports (a child process per database writes it as JSON).

type PageOutcome =
  | { status: "measured"; samplesMs: number[]; bytes: number }
  | { status: "not built"; missing: string[] }
  | { status: "error"; message: string };

interface PageResult {
  key: string;
  label: string;
  loaders: string;
  outcome: PageOutcome;
}

interface QueryPlan {
  label: string;
  sql: string;
  plan: string[];
  /** One line: the index used, or that there is none, and what it reads. */
  summary: string;
  /** The query alone, median of 10, ms. */
  queryMs: number;
}

interface CpuUse {
  wallMs: number;
  bench: number;
  postgres: number;
  other: number;
}

interface DatabaseRun {
  provider: DatabaseProvider;
  rows: Record<string, number>;
  seedMs: number;
  pages: PageResult[];
  plans: QueryPlan[];
  cpu: CpuUse;
  notes: string[];
  /** The event log's pages and queries again after `SUGGESTED_INDEXES` were created. */
  withIndexes: { pages: PageResult[]; plans: QueryPlan[]; cpu: CpuUse } | null;
}

// ---------------------------------------------------------------------------------------------
// CPU accounting: where the machine's CPU went while the loaders were timed.

function accountCpu() {
  const start = {
    at: performance.now(),
    machine: machineBusyMs(),
    self: selfCpuMs(),
    pg: postgresCpuMs(),
  };
  return () => {
    const wallMs = performance.now() - start.at;
    const bench = selfCpuMs() - start.self;
    const postgres = postgresCpuMs() - start.pg;
    const other = Math.max(0, machineBusyMs() - start.machine - bench - postgres);
    return { wallMs, bench: bench / wallMs, postgres: postgres / wallMs, other: other / wallMs };
  };
}

// ---------------------------------------------------------------------------------------------
// The child: one database, seeded, then every page's loaders timed.

/** `import styles from "….css?url"` (app.tsx) is Vite's; outside Vite it is just a string. */
function stubViteUrlImports() {
  const hooks = `export async function load(url, context, next) {
    if (/\\.css(\\?url)?$/.test(url)) {
      return { format: "module", source: "export default '/assets/styles.css';", shortCircuit: true };
    }
    return next(url, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

/** Deterministic pseudo-random numbers, so every run seeds the same rows. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function pick<T extends string>(roll: number, weights: [T, number][]): T {
  let sum = 0;
  for (const [value, weight] of weights) {
    sum += weight;
    if (roll < sum) return value;
  }
  return weights[weights.length - 1]![0];
}

const EVENT_TYPES: [string, number][] = [
  ["order_placed", 0.4],
  ["order_fulfillment_added", 0.3],
  ["order_refund_added", 0.15],
  ["order_line_items_cancelled", 0.05],
  ["order_cancelled", 0.1],
];
const EVENT_STATUSES: [string, number][] = [
  ["delivered", 0.92],
  ["pending", 0.02],
  ["delivering", 0.005],
  ["failed", 0.02],
  ["dead", 0.02],
  ["unprocessable", 0.015],
];
const TOPICS: [string, number][] = [
  ["orders/create", 0.4],
  ["fulfillments/create", 0.25],
  ["fulfillments/update", 0.05],
  ["refunds/create", 0.15],
  ["orders/cancelled", 0.1],
  ["orders/edited", 0.04],
  ["app/scopes_update", 0.01],
];
const RECEIPT_STATUSES: [string, number][] = [
  ["processed", 0.95],
  ["ignored", 0.04],
  ["unprocessable", 0.01],
];

const VALIDATION_ANSWER = JSON.stringify({
  status: 400,
  error: {
    error_code: "invalid_request",
    validation_errors: [
      { field: "payload.line_items[1].price_amount", message: "must be greater than 0" },
      { field: "payload.customer.email", message: "is not a valid email address" },
    ],
  },
});

/** The sample lifecycle's events as the app sends them: the payload sizes of real orders. */
async function payloadTemplates(): Promise<{ orderId: string; byType: Map<string, string> }> {
  const { mapOrderWebhook, parseWebhookJson } = await import("../../app/orders");
  const { LIFECYCLE, readLifecycleFixture } =
    await import("../../test/fixtures/lifecycle/lifecycle");
  const byType = new Map<string, string>();
  for (const [topic, file] of LIFECYCLE.files) {
    const mapped = mapOrderWebhook(topic, parseWebhookJson(readLifecycleFixture(file)), {
      reportOrdersWithoutPlan: true,
    });
    if (mapped.kind !== "events") throw new BenchmarkError(`${file} maps to ${mapped.kind}`);
    for (const derived of mapped.events) {
      byType.set(derived.event.type, JSON.stringify(derived.event));
    }
  }
  const refund = byType.get("order_refund_added");
  if (refund) {
    byType.set(
      "order_line_items_cancelled",
      refund.replace('"order_refund_added"', '"order_line_items_cancelled"'),
    );
  }
  return { orderId: LIFECYCLE.orderId, byType };
}

function shopOf(index: number): { shop: string; own: boolean } {
  if (index % SIZES.noiseEveryNth !== SIZES.noiseEveryNth - 1) return { shop: SHOP, own: true };
  const noise = Math.floor(index / SIZES.noiseEveryNth) % SIZES.noiseShops;
  return { shop: `svc-bench-other-${noise}.myshopify.com`, own: false };
}

/** Rows of the bench shop plus every nth row of another shop, so `count` of its own. */
function totalFor(count: number) {
  return Math.ceil((count * SIZES.noiseEveryNth) / (SIZES.noiseEveryNth - 1));
}

/** Inserts `total` rows in chunks, in one transaction (one commit, not one per chunk). */
async function inChunks<Row>(
  db: AppPrismaClient,
  total: number,
  makeRow: (index: number) => Row,
  insert: (tx: AppTransaction, rows: Row[]) => Promise<unknown>,
) {
  await db.$transaction(
    async (tx) => {
      for (let from = 0; from < total; from += SIZES.chunk) {
        const rows: Row[] = [];
        for (let index = from; index < Math.min(total, from + SIZES.chunk); index++) {
          rows.push(makeRow(index));
        }
        await insert(tx, rows);
      }
    },
    { timeout: 15 * 60_000, maxWait: 60_000 },
  );
}

async function seed(db: AppPrismaClient): Promise<Record<string, number>> {
  const { getSecretBox } = await import("../../app/crypto/secrets.server");
  const { saveConnectionKeys } = await import("../../app/models/ShopConnection.server");
  const templates = await payloadTemplates();
  const now = Date.now();
  const start = now - SIZES.days * 86_400_000;

  await createOfflineSession(
    db,
    SHOP,
    "shpat_bench_admin",
    "read_orders,write_orders,read_products,write_products",
  );
  await saveConnectionKeys(db, getSecretBox(), SHOP, {
    environment: "production",
    sandboxSecretKey: "sk_test_bench_admin_0000",
    liveSecretKey: "sk_live_bench_admin_0000",
    sandboxPublishableKey: "pk_test_bench_admin",
    livePublishableKey: "pk_live_bench_admin",
    sandboxKeyVerifiedAt: new Date(start),
    liveKeyVerifiedAt: new Date(start),
  });

  const eventTotal = totalFor(SIZES.events);
  const roll = random(1);
  await inChunks(
    db,
    eventTotal,
    (index) => {
      const { shop } = shopOf(index);
      const eventType = pick(roll(), EVENT_TYPES);
      const status = pick(roll(), EVENT_STATUSES);
      const createdAt = new Date(start + ((now - start) * index) / eventTotal);
      // About 2.5 events per order; ids are 13 digits like Shopify's.
      const orderId = String(6_000_000_000_000 + Math.floor((index * 2) / 5));
      const attempted = status !== "pending";
      return {
        shop,
        environment: roll() < 0.7 ? "production" : "sandbox",
        orderId,
        eventType,
        dedupeKey: `bench:${index}`,
        payload: (templates.byType.get(eventType) ?? "{}").replaceAll(templates.orderId, orderId),
        status,
        attempts: status === "failed" ? 1 + Math.floor(roll() * 20) : attempted ? 1 : 0,
        nextAttemptAt: createdAt,
        firstFailedAt: status === "failed" || status === "dead" ? createdAt : null,
        lastAttemptAt: attempted ? new Date(createdAt.getTime() + 900) : null,
        lastError:
          status === "dead"
            ? "400 invalid_request: 2 validation errors"
            : status === "failed"
              ? "503 Service Unavailable"
              : null,
        lastResponse:
          status === "delivered"
            ? `{"status":200,"body":{"event_id":"evt_${index}"}}`
            : status === "dead"
              ? VALIDATION_ANSWER
              : status === "failed"
                ? '{"status":503,"summary":"503 Service Unavailable"}'
                : null,
        serviceEventId: status === "delivered" ? `evt_${index}` : null,
        createdAt,
        deliveredAt: status === "delivered" ? new Date(createdAt.getTime() + 1_000) : null,
      };
    },
    (tx, rows) => tx.outboxEvent.createMany({ data: rows }),
  );

  const rawOrder = readFileSync(path.join(ROOT, "test/fixtures/lifecycle/orders-create.json"));
  const receiptTotal = totalFor(SIZES.receipts);
  await inChunks(
    db,
    receiptTotal,
    (index) => {
      const { shop } = shopOf(index);
      const topic = pick(roll(), TOPICS);
      const status = pick(roll(), RECEIPT_STATUSES);
      const orderId = topic.startsWith("app/")
        ? null
        : String(6_000_000_000_000 + Math.floor((index * 4) / 5));
      return {
        shop,
        topic,
        webhookId: `bench-webhook-${index}`,
        eventId: `bench-event-${index}`,
        apiVersion: "2026-07",
        orderId,
        status,
        detail:
          status === "unprocessable"
            ? "line_items[0].price: not a decimal amount"
            : status === "ignored"
              ? `order ${orderId} has no protection plan line; not reported`
              : `1 event recorded for order ${orderId}`,
        payload: status === "unprocessable" ? rawOrder.toString("utf8") : null,
        // Group commits record several deliveries in the same millisecond: pairs share one.
        receivedAt: new Date(start + ((now - start) * Math.floor(index / 2) * 2) / receiptTotal),
      };
    },
    (tx, rows) => tx.webhookReceipt.createMany({ data: rows }),
  );

  const variants = Array.from({ length: SIZES.protectableVariants }, (_, i) =>
    String(45_000_000_000_000 + i),
  );
  const summaryTotal = totalFor(SIZES.orderSummaries);
  await inChunks(
    db,
    summaryTotal,
    (index) => {
      const { shop } = shopOf(index);
      const lineCount = 1 + Math.floor(roll() * 4);
      const planLineCount = roll() < 0.3 ? 1 : 0;
      return {
        shop,
        orderId: String(6_000_000_000_000 + index),
        environment: roll() < 0.7 ? "production" : "sandbox",
        placedAt: new Date(start + ((now - start) * index) / summaryTotal),
        currency: "EUR",
        lineCount,
        planLineCount,
        planRevenue: planLineCount * 2_999,
        variantIds: JSON.stringify(
          Array.from(
            { length: lineCount - planLineCount || 1 },
            () => variants[Math.floor(roll() * variants.length)],
          ),
        ),
      };
    },
    (tx, rows) => tx.orderSummary.createMany({ data: rows }),
  );

  await db.protectableVariant.createMany({
    data: variants.map((variantId) => ({ shop: SHOP, variantId, lastOfferedAt: new Date(now) })),
  });
  await db.protectionItem.createMany({
    data: Array.from({ length: SIZES.protectionItems }, (_, i) => ({
      shop: SHOP,
      strategy: "one_to_one",
      productId: String(9_000_000_000_000 + i),
      variantId: String(9_100_000_000_000 + i),
      title: `Protection plan ${i + 1}`,
      priceAmount: 1_999 + i * 500,
      currency: "EUR",
      createdByApp: i % 2 === 0,
    })),
  });

  const [events, receipts, summaries] = await Promise.all([
    db.outboxEvent.count({ where: { shop: SHOP } }),
    db.webhookReceipt.count({ where: { shop: SHOP } }),
    db.orderSummary.count({ where: { shop: SHOP } }),
  ]);
  return {
    events,
    eventsAllShops: eventTotal,
    receipts,
    receiptsAllShops: receiptTotal,
    orderSummaries: summaries,
    orderSummariesAllShops: summaryTotal,
  };
}

type Loader = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<unknown>;

interface PageSpec {
  key: string;
  label: string;
  /** Route files under app/routes whose loaders run for this URL, outermost first. */
  files: string[];
  url: string;
  params?: Record<string, string>;
  shop?: string;
  /** What the answer must hold, so a fast wrong answer does not count; "" when fine. */
  check?: (data: unknown[]) => string;
}

async function loaderOf(file: string): Promise<Loader> {
  const module = (await import(path.join(ROUTES, file))) as { loader?: Loader };
  if (!module.loader) throw new BenchmarkError(`app/routes/${file} has no loader`);
  return module.loader;
}

async function callLoaders(
  loaders: Loader[],
  spec: PageSpec,
  sessionToken: (shop: string) => string,
): Promise<{ ms: number; data: unknown[] }> {
  const requests = loaders.map(
    () =>
      new Request(`https://svc-protection.test${spec.url}`, {
        headers: { Authorization: `Bearer ${sessionToken(spec.shop ?? SHOP)}` },
      }),
  );
  const started = performance.now();
  const data = await Promise.all(
    loaders.map(async (loader, index) => {
      try {
        return await loader({ request: requests[index]!, params: spec.params ?? {}, context: {} });
      } catch (thrown) {
        if (thrown instanceof Response) {
          throw new BenchmarkError(`${spec.url} threw a ${thrown.status} response`);
        }
        throw thrown;
      }
    }),
  );
  const ms = performance.now() - started;
  // A loader may answer its data as a Response (app.tsx does, for its cookie): only 2xx is data.
  const refused = data.find((value): value is Response => value instanceof Response && !value.ok);
  if (refused) throw new BenchmarkError(`${spec.url} answered ${refused.status}`);
  return { ms, data };
}

/** The loaders' data as the page receives it (a Response's JSON body). */
async function dataOf(values: unknown[]): Promise<unknown[]> {
  return Promise.all(
    values.map((value) => (value instanceof Response ? value.json() : Promise.resolve(value))),
  );
}

interface EventsData {
  view: string;
  events?: { id: number; status: string; eventType: string; environment: string }[];
  receipts?: { id: string }[];
  olderCursor?: string;
}

const eventsOf = (data: unknown[]) => (data[1] as EventsData).events ?? [];

async function pageSpecs(db: AppPrismaClient): Promise<PageSpec[]> {
  const { middleId, deadId: deadEventId, orderId: deadOrderId, smallShop } = await planSubjects(db);
  const dead = { id: deadEventId, orderId: deadOrderId };
  await createOfflineSession(db, smallShop, "shpat_bench_small", "read_orders");
  const fullPage = (data: unknown[]) =>
    eventsOf(data).length === 50 ? "" : `${eventsOf(data).length} events instead of 50`;
  const layout = "app.tsx";
  return [
    {
      key: "layout",
      label: "`app.tsx` alone (authenticate.admin + locale; runs beside every page below)",
      files: [layout],
      url: "/app",
    },
    { key: "home", label: "/app (home)", files: [layout, "app._index/route.tsx"], url: "/app" },
    {
      key: "connection",
      label: "/app/connection",
      files: [layout, "app.connection/route.tsx"],
      url: "/app/connection",
    },
    {
      key: "items",
      label: "/app/items",
      files: [layout, "app.items/route.tsx"],
      url: "/app/items",
    },
    {
      key: "events-first",
      label: "/app/events, first page",
      files: [layout, "app.events/route.tsx"],
      url: "/app/events",
      check: fullPage,
    },
    {
      key: "events-filtered",
      label: "/app/events, filtered: status dead (indexed)",
      files: [layout, "app.events/route.tsx"],
      url: "/app/events?status=dead",
      check: (data) =>
        fullPage(data) ||
        (eventsOf(data).every((event) => event.status === "dead") ? "" : "a row is not dead"),
    },
    {
      key: "events-filtered-type",
      label: "/app/events, filtered: type line items cancelled + sandbox",
      files: [layout, "app.events/route.tsx"],
      url: "/app/events?type=order_line_items_cancelled&env=sandbox",
      check: (data) =>
        fullPage(data) ||
        (eventsOf(data).every(
          (event) =>
            event.eventType === "order_line_items_cancelled" && event.environment === "sandbox",
        )
          ? ""
          : "a row does not match the filter"),
    },
    {
      key: "events-older",
      label: `/app/events, older page (before the ${new Intl.NumberFormat("en-US").format(SIZES.events / 2)}th newest event)`,
      files: [layout, "app.events/route.tsx"],
      url: `/app/events?before=${middleId}`,
      check: (data) =>
        fullPage(data) ||
        (eventsOf(data).every((event) => event.id < middleId) ? "" : "a row is not older"),
    },
    {
      key: "events-order",
      label: "/app/events, one order's events (order ID search)",
      files: [layout, "app.events/route.tsx"],
      url: `/app/events?order=${dead.orderId}`,
      check: (data) => (eventsOf(data).some((event) => event.id === dead.id) ? "" : "not found"),
    },
    {
      key: "webhooks-first",
      label: "/app/events?tab=webhooks, first page",
      files: [layout, "app.events/route.tsx"],
      url: "/app/events?tab=webhooks",
      check: (data) =>
        (data[1] as EventsData).receipts?.length === 50 ? "" : "not 50 webhooks on the page",
    },
    {
      key: "events-small-shop",
      label: `/app/events, first page of a small shop (${new Intl.NumberFormat("en-US").format(SIZES.events / (SIZES.noiseEveryNth - 1) / SIZES.noiseShops)} events among the others')`,
      files: [layout, "app.events/route.tsx"],
      url: "/app/events",
      shop: smallShop,
      check: fullPage,
    },
    {
      key: "event-detail",
      label: "/app/events/:id, one dead event with validation errors",
      files: [layout, "app.events/route.tsx", "app.events.$id/route.tsx"],
      url: `/app/events/${dead.id}`,
      params: { id: String(dead.id) },
      check: (data) => {
        const detail = data[2] as { answer?: { validationErrors?: unknown[] } };
        return detail.answer?.validationErrors?.length === 2 ? "" : "no validation errors";
      },
    },
    {
      key: "settings",
      label: "/app/settings",
      files: [layout, "app.settings/route.tsx"],
      url: "/app/settings",
    },
  ];
}

async function measurePages(
  specs: PageSpec[],
  runs: number,
  warmUp: number,
): Promise<{ pages: PageResult[]; cpu: CpuUse }> {
  const { sessionToken } = await import("../../test/support/session-token");
  const prepared: { spec: PageSpec; loaders: Loader[]; samples: number[]; bytes: number }[] = [];
  const results = new Map<string, PageResult>();
  for (const spec of specs) {
    const loaders = spec.files.map((file) => `app/routes/${file}`).join(" + ");
    const missing = spec.files.filter((file) => !existsSync(path.join(ROUTES, file)));
    if (missing.length) {
      results.set(spec.key, { ...spec, loaders, outcome: { status: "not built", missing } });
      continue;
    }
    try {
      const modules = await Promise.all(spec.files.map(loaderOf));
      const first = await dataOf((await callLoaders(modules, spec, sessionToken)).data);
      const problem = spec.check?.(first) ?? "";
      if (problem) throw new BenchmarkError(`${spec.url}: ${problem}`);
      const bytes = first.reduce<number>(
        (sum, value) => sum + Buffer.byteLength(JSON.stringify(value)),
        0,
      );
      prepared.push({ spec, loaders: modules, samples: [], bytes });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`  ${spec.label}: ${message}`);
      results.set(spec.key, { ...spec, loaders, outcome: { status: "error", message } });
    }
  }

  // Round-robin over the pages, so a burst of other work on the machine hits them all alike.
  const stopCpu = accountCpu();
  for (let round = 0; round < warmUp + runs; round++) {
    for (const page of prepared) {
      const { ms } = await callLoaders(page.loaders, page.spec, sessionToken);
      if (round >= warmUp) page.samples.push(ms);
    }
  }
  const cpu = stopCpu();
  for (const page of prepared) {
    results.set(page.spec.key, {
      ...page.spec,
      loaders: page.spec.files.map((file) => `app/routes/${file}`).join(" + "),
      outcome: { status: "measured", samplesMs: page.samples, bytes: page.bytes },
    });
  }
  return { pages: specs.map((spec) => results.get(spec.key)!), cpu };
}

// ---------------------------------------------------------------------------------------------
// Query plans of the event log's queries, on the database they ran on.

interface CapturedQuery {
  sql: string;
  params: unknown[];
}

/**
 * A second client that records each statement it sends, for EXPLAIN. Built as
 * app/db/client.server.ts builds the app's (same adapters, same options), plus query events.
 */
async function recordingClient(url: string, provider: DatabaseProvider) {
  const captured: CapturedQuery[] = [];
  const log = [{ emit: "event" as const, level: "query" as const }];
  let client: AppPrismaClient;
  if (provider === "postgresql") {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const { PrismaClient } = await import("../../app/generated/prisma/postgresql/client");
    client = new PrismaClient({
      adapter: new PrismaPg({ connectionString: url, max: 2 }),
      log,
    }) as unknown as AppPrismaClient;
  } else {
    const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
    const { PrismaClient } = await import("../../app/generated/prisma/sqlite/client");
    const { sqliteFilePath } = await import("../../app/db/database-url");
    client = new PrismaClient({
      adapter: new PrismaBetterSqlite3(
        { url: sqliteFilePath(url), timeout: 10_000 },
        { timestampFormat: "unixepoch-ms" },
      ),
      log,
    }) as unknown as AppPrismaClient;
  }
  (
    client as unknown as {
      $on(event: "query", cb: (e: { query: string; params: string }) => void): void;
    }
  ).$on("query", (event) =>
    captured.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] }),
  );
  return { client, captured };
}

/** Runs `run` with the recording client and returns the one SELECT it sent. */
async function captureSelect(
  recorder: Awaited<ReturnType<typeof recordingClient>>,
  run: (db: AppPrismaClient) => Promise<unknown>,
): Promise<CapturedQuery> {
  recorder.captured.length = 0;
  await run(recorder.client);
  const selects = recorder.captured.filter((query) => /^\s*SELECT/i.test(query.sql));
  if (selects.length !== 1) {
    throw new BenchmarkError(`Expected one SELECT, captured ${selects.length}`);
  }
  return selects[0]!;
}

function median(values: number[]) {
  return percentile(values, 0.5);
}

async function explainSqlite(file: string, query: CapturedQuery) {
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(file, { readonly: true });
  try {
    // Bound as the adapter binds them: times as epoch milliseconds (decision 001).
    const params = query.params.map((value) =>
      typeof value === "string" && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(value)
        ? Date.parse(value)
        : value,
    );
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...params) as {
      detail: string;
    }[];
    const plan = rows.map((row) => row.detail);
    const statement = db.prepare(query.sql);
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      statement.all(...params);
      times.push(performance.now() - started);
    }
    const index = plan
      .map((line) => /USING (?:COVERING )?INDEX (\S+)/.exec(line)?.[1])
      .find(Boolean);
    const fullScan = plan.some((line) => /^SCAN \S+$/.test(line));
    const sortsAll = plan.some((line) => /USE TEMP B-TREE FOR ORDER BY/.test(line));
    const summary = index
      ? `${index}${sortsAll ? ", then sorts every match" : ""}`
      : plan.some((line) => /INTEGER PRIMARY KEY|USING PRIMARY KEY|rowid/i.test(line))
        ? "primary key"
        : fullScan
          ? sortsAll
            ? "no index: reads the whole table, then sorts it"
            : "no index: walks the table in id order, filtering by shop, until the page is full"
          : plan.join("; ");
    return { plan, summary, queryMs: median(times) };
  } finally {
    db.close();
  }
}

interface PgPlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Scan Direction"?: string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PgPlanNode[];
}

async function explainPostgres(url: string, query: CapturedQuery) {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const params = query.params.map((value) =>
      typeof value === "object" ? JSON.stringify(value) : value,
    );
    const text = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`,
      params,
    );
    const json = await client.query<{
      "QUERY PLAN": [{ Plan: PgPlanNode; "Execution Time": number }];
    }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`, params);
    const root = json.rows[0]!["QUERY PLAN"][0];
    const scans: PgPlanNode[] = [];
    const walk = (node: PgPlanNode) => {
      if (/Scan/.test(node["Node Type"])) scans.push(node);
      node.Plans?.forEach(walk);
    };
    walk(root.Plan);
    const read = scans.reduce(
      (sum, node) =>
        sum +
        ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) *
          (node["Actual Loops"] ?? 1),
      0,
    );
    const described = scans
      .map((node) =>
        node["Index Name"]
          ? `${node["Node Type"]}${node["Scan Direction"] === "Backward" ? " Backward" : ""} on ${node["Index Name"]}`
          : `${node["Node Type"]} on ${node["Relation Name"] ?? "?"}`,
      )
      .join(", ");
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await client.query(query.sql, params);
      times.push(performance.now() - started);
    }
    return {
      plan: text.rows.map((row) => row["QUERY PLAN"]),
      summary: `${described}; ${new Intl.NumberFormat("en-US").format(read)} rows read`,
      queryMs: median(times),
    };
  } finally {
    await client.end();
  }
}

async function explainEventLogQueries(
  url: string,
  provider: DatabaseProvider,
  db: AppPrismaClient,
): Promise<QueryPlan[]> {
  const events = await import("../../app/models/OutboxEvent.server");
  const receipts = await import("../../app/models/WebhookReceipt.server");
  const { parseEventLogQuery, EVENT_LOG_PAGE_SIZE } = await import("../../app/admin/event-filters");
  const specs = await planSubjects(db);
  const recorder = await recordingClient(url, provider);
  const pageSize = EVENT_LOG_PAGE_SIZE;
  const eventQuery = (search: string, shop = SHOP) => {
    const query = parseEventLogQuery(new URLSearchParams(search));
    if (query.tab !== "events") throw new BenchmarkError(`${search} is not the events tab`);
    const { status, eventType, orderId, environment, cursor } = query;
    return (client: AppPrismaClient) =>
      events.listOutboxEventPage(client, {
        shop,
        status,
        eventType,
        orderId,
        environment,
        cursor,
        pageSize,
      });
  };
  const queries: [string, (client: AppPrismaClient) => Promise<unknown>][] = [
    ["Events, first page", eventQuery("")],
    ["Events, status dead", eventQuery("status=dead")],
    ["Events, type + environment", eventQuery("type=order_line_items_cancelled&env=sandbox")],
    ["Events, older page", eventQuery(`before=${specs.middleId}`)],
    ["Events, newer page", eventQuery(`after=${specs.middleId}`)],
    ["Events, one order", eventQuery(`order=${specs.orderId}`)],
    ["Events, first page of a small shop", eventQuery("", specs.smallShop)],
    [
      "Events, counts by status (GROUP BY)",
      (client) => events.countOutboxEventsByStatus(client, SHOP),
    ],
    ["Event by id (detail)", (client) => events.findOutboxEventForShop(client, SHOP, specs.deadId)],
    [
      "Events of one order (detail)",
      (client) => events.listOrderEvents(client, SHOP, specs.orderId),
    ],
    [
      "Webhooks, first page",
      (client) => receipts.listWebhookReceiptPage(client, { shop: SHOP, pageSize }),
    ],
    [
      "Webhooks, older page",
      (client) =>
        receipts.listWebhookReceiptPage(client, {
          shop: SHOP,
          pageSize,
          cursor: { direction: "older", receivedAt: specs.receiptAt, id: specs.receiptId },
        }),
    ],
    [
      "Webhooks, status unprocessable",
      (client) =>
        receipts.listWebhookReceiptPage(client, { shop: SHOP, pageSize, status: "unprocessable" }),
    ],
    [
      "Webhooks, counts by status (GROUP BY)",
      (client) => receipts.countWebhookReceiptsByStatus(client, SHOP),
    ],
    [
      "Webhooks of one order (detail)",
      (client) => receipts.listOrderReceipts(client, SHOP, specs.orderId),
    ],
  ];
  const plans: QueryPlan[] = [];
  try {
    for (const [label, run] of queries) {
      const query = await captureSelect(recorder, run);
      const explained =
        provider === "sqlite"
          ? await explainSqlite(
              (await import("../../app/db/database-url")).sqliteFilePath(url),
              query,
            )
          : await explainPostgres(url, query);
      plans.push({ label, sql: query.sql, ...explained });
    }
  } finally {
    await recorder.client.$disconnect();
  }
  return plans;
}

async function planSubjects(db: AppPrismaClient) {
  const middle = await db.outboxEvent.findMany({
    where: { shop: SHOP },
    select: { id: true },
    orderBy: { id: "desc" },
    skip: SIZES.events / 2,
    take: 1,
  });
  const dead = await db.outboxEvent.findFirstOrThrow({
    where: { shop: SHOP, status: "dead" },
    orderBy: { id: "desc" },
  });
  const receipt = await db.webhookReceipt.findFirstOrThrow({
    where: { shop: SHOP },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    skip: SIZES.receipts / 2,
  });
  return {
    middleId: middle[0]?.id ?? 1,
    deadId: dead.id,
    orderId: dead.orderId,
    smallShop: shopOf(SIZES.noiseEveryNth - 1).shop,
    receiptAt: receipt.receivedAt,
    receiptId: receipt.id,
  };
}

function logPages(pages: PageResult[]) {
  for (const page of pages) {
    const outcome = page.outcome;
    console.log(
      `  ${page.label}: ${
        outcome.status === "measured"
          ? `p50 ${percentile(outcome.samplesMs, 0.5).toFixed(1)} ms, p95 ${percentile(outcome.samplesMs, 0.95).toFixed(1)} ms, max ${Math.max(...outcome.samplesMs).toFixed(1)} ms`
          : outcome.status === "not built"
            ? "not built"
            : `error: ${outcome.message}`
      }`,
    );
  }
}

function logPlans(plans: QueryPlan[]) {
  for (const plan of plans) {
    console.log(`  ${plan.label}: ${plan.summary} (${plan.queryMs.toFixed(2)} ms)`);
    for (const line of plan.plan) console.log(`      ${line}`);
  }
}

async function runChild(provider: DatabaseProvider, resultFile: string) {
  const runs = positiveInteger("runs", options.runs);
  const warmUp = positiveInteger("warm-up", options["warm-up"]);
  const { applyTestEnv } = await import("../../test/support/test-env");
  applyTestEnv();
  process.env.NODE_ENV = "production";
  process.env.LOG_LEVEL = "warn";
  process.env.SVC_OUTBOX_WORKER = "off";
  stubViteUrlImports();

  const { createThrowawayDatabase } = await import("../../test/support/databases");
  const { migrateDatabase } = await import("../../app/db/migrate.server");
  const database = await createThrowawayDatabase(provider);
  let prisma: AppPrismaClient | undefined;
  try {
    process.env.DATABASE_URL = database.url;
    await migrateDatabase(database.url);
    prisma = (await import("../../app/db.server")).default;

    console.log(`[${provider}] seeding`);
    const seedStarted = performance.now();
    const rows = await seed(prisma);
    const notes: string[] = [];
    if (provider === "postgresql") {
      // A live database has been vacuumed and analysed by autovacuum; a fresh bulk load has not.
      await prisma.$executeRawUnsafe("VACUUM ANALYZE");
      notes.push(
        "`VACUUM ANALYZE` after seeding, as autovacuum would have done on a live database",
      );
    } else {
      notes.push("no `ANALYZE` (the app never runs it, so these are the plans of a real install)");
    }
    const seedMs = performance.now() - seedStarted;
    console.log(`[${provider}] seeded in ${(seedMs / 1000).toFixed(1)} s: ${JSON.stringify(rows)}`);

    const specs = await pageSpecs(prisma);
    console.log(`[${provider}] timing loaders: ${warmUp} warm-up + ${runs} runs per page`);
    const { pages, cpu } = await measurePages(specs, runs, warmUp);
    logPages(pages);
    console.log(`[${provider}] query plans`);
    const plans = await explainEventLogQueries(database.url, provider, prisma);
    logPlans(plans);

    // The same event log pages and queries again, with the indexes we suggest adding.
    let withIndexes: DatabaseRun["withIndexes"] = null;
    if (SUGGESTED_INDEXES.length) {
      for (const index of SUGGESTED_INDEXES) await prisma.$executeRawUnsafe(index.sql);
      if (provider === "postgresql") {
        await prisma.$executeRawUnsafe('ANALYZE "OutboxEvent", "WebhookReceipt"');
      }
      console.log(`[${provider}] with the suggested indexes`);
      const indexed = await measurePages(
        specs.filter((spec) => EVENT_LOG_PAGE.test(spec.key)),
        runs,
        warmUp,
      );
      logPages(indexed.pages);
      const indexedPlans = await explainEventLogQueries(database.url, provider, prisma);
      logPlans(indexedPlans);
      withIndexes = { pages: indexed.pages, plans: indexedPlans, cpu: indexed.cpu };
    }

    const run: DatabaseRun = {
      provider,
      rows,
      seedMs,
      pages,
      plans,
      cpu,
      notes,
      withIndexes,
    };
    writeFileSync(resultFile, JSON.stringify(run));
  } finally {
    await prisma?.$disconnect();
    globalThis.svcPrismaGlobal = undefined;
    await database.drop();
  }
}

// ---------------------------------------------------------------------------------------------
// The parent: one child per database, then the section of docs/performance.md.

function runChildProcess(provider: DatabaseProvider, resultFile: string): Promise<void> {
  const args = [
    "--import",
    "tsx",
    path.join(import.meta.dirname, "admin.ts"),
    "--child",
    provider,
    "--result",
    resultFile,
    "--runs",
    String(options.runs),
    "--warm-up",
    String(options["warm-up"]),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: "inherit" });
    const stop = () => child.kill("SIGTERM");
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      if (code === 0) resolve();
      else reject(new BenchmarkError(`The ${provider} run failed (${signal ?? `exit ${code}`})`));
    });
  });
}

const DATABASE_NAMES: Record<DatabaseProvider, string> = {
  sqlite: "SQLite",
  postgresql: "PostgreSQL",
};
const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

function pageCell(outcome: PageOutcome | undefined, withVerdict: boolean): string {
  if (!outcome) return "(not run)";
  if (outcome.status === "not built") return "not built";
  if (outcome.status === "error") return `error: ${outcome.message.replaceAll("|", "\\|")}`;
  const p50 = percentile(outcome.samplesMs, 0.5);
  const p95 = percentile(outcome.samplesMs, 0.95);
  const max = Math.max(...outcome.samplesMs);
  const verdict = withVerdict ? ` ${p95 <= TARGET_P95_MS ? "PASS" : "MISS"}` : "";
  return `${oneDecimal.format(p50)} / ${oneDecimal.format(p95)} / ${oneDecimal.format(max)} ms${verdict}`;
}

function p95Of(outcome: PageOutcome | undefined): number | null {
  return outcome?.status === "measured" ? percentile(outcome.samplesMs, 0.95) : null;
}

function escapeCell(text: string) {
  return text.replaceAll("|", "\\|");
}

export function renderAdminSection(
  machine: MachineInfo,
  command: string,
  runs: DatabaseRun[],
  settings: { runs: number; warmUp: number },
): string {
  const first = runs[0]!;
  const name = (run: DatabaseRun) => DATABASE_NAMES[run.provider];
  const outcomeOf = (pages: PageResult[], key: string) =>
    pages.find((page) => page.key === key)?.outcome;

  const pagesTable = [
    `| Page (loaders run in parallel, as Remix runs them) | Target | ${runs.map((run) => `${name(run)} p50 / p95 / max`).join(" | ")} |`,
    `| --- | --- | ${runs.map(() => "--:").join(" | ")} |`,
    ...first.pages.map((page) => {
      const target = page.key === "layout" ? "(reported)" : `p95 ≤ ${TARGET_P95_MS} ms`;
      const cells = runs.map((run) =>
        pageCell(outcomeOf(run.pages, page.key), page.key !== "layout"),
      );
      return `| ${[page.label, target, ...cells].join(" | ")} |`;
    }),
  ].join("\n");

  const indexedTable = [
    `| Event log page | ${runs.map((run) => `${name(run)} p95 as is → with the indexes`).join(" | ")} |`,
    `| --- | ${runs.map(() => "--:").join(" | ")} |`,
    ...(first.withIndexes?.pages ?? []).map((page) => {
      const cells = runs.map((run) => {
        const before = p95Of(outcomeOf(run.pages, page.key));
        const after = run.withIndexes ? p95Of(outcomeOf(run.withIndexes.pages, page.key)) : null;
        return before === null || after === null
          ? "-"
          : `${oneDecimal.format(before)} → ${oneDecimal.format(after)} ms`;
      });
      return `| ${[page.label, ...cells].join(" | ")} |`;
    }),
  ].join("\n");

  const planTable = [
    `| Query | ${runs.map((run) => `${name(run)}: plan (query alone, median of 10)`).join(" | ")} |`,
    `| --- | ${runs.map(() => "---").join(" | ")} |`,
    ...first.plans.map(({ label }) => {
      const cells = runs.map((run) => {
        const plan = run.plans.find((candidate) => candidate.label === label);
        const indexed = run.withIndexes?.plans.find((candidate) => candidate.label === label);
        if (!plan) return "-";
        const now = `${plan.summary} (${oneDecimal.format(plan.queryMs)} ms)`;
        return escapeCell(
          indexed && indexed.summary !== plan.summary
            ? `${now}; **with the indexes:** ${indexed.summary} (${oneDecimal.format(indexed.queryMs)} ms)`
            : now,
        );
      });
      return `| ${[label, ...cells].join(" | ")} |`;
    }),
  ].join("\n");

  const disturbed = runs.filter((run) => run.cpu.other > DISTURBED_CPUS);
  const misses = runs.flatMap((run) =>
    run.pages
      .filter((page) => page.key !== "layout" && (p95Of(page.outcome) ?? 0) > TARGET_P95_MS)
      .map((page) => `${page.label} on ${name(run)}`),
  );
  const rows = first.rows;
  const sizes = first.pages
    .filter((page) => page.outcome.status === "measured")
    .map(
      (page) =>
        `${page.label.split(" (")[0]} ${integer.format(page.outcome.status === "measured" ? page.outcome.bytes : 0)} B`,
    );
  const cpuLine = (cpu: CpuUse) =>
    `bench process ${cpu.bench.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}, other processes ${cpu.other.toFixed(2)} CPUs over ${oneDecimal.format(cpu.wallMs / 1000)} s`;

  return [
    `Last run: ${machine.date}, \`${command}\`.`,
    "",
    `Machine: ${machineLine(machine)}. Not pinned: the bench process (which runs the loaders) and PostgreSQL share the CPUs.`,
    ...(disturbed.length
      ? [
          "",
          `**Disturbed:** other processes on the machine used ${disturbed
            .map((run) => `${run.cpu.other.toFixed(2)} CPUs while ${name(run)} was timed`)
            .join(" and ")}; those figures are slower than on a quiet machine.`,
        ]
      : []),
    "",
    `Target: loader p95 ≤ ${TARGET_P95_MS} ms for every page. Built for Shopify asks for LCP ≤ 2.5 s at p75 in the admin; the loaders are the server's share of each navigation inside the app, and ${TARGET_P95_MS} ms leaves the rest to the network, App Bridge and rendering.${misses.length ? ` **Missed:** ${misses.join("; ")}.` : ""}`,
    "",
    pagesTable,
    "",
    ...(first.withIndexes
      ? [
          `With the indexes we suggest adding (${SUGGESTED_INDEXES.map((index) => `\`${index.prisma}\``).join(", ")}; not in \`prisma/schema.prisma\` yet), created on the same databases after the run above, then the event log timed again:`,
          "",
          indexedTable,
          "",
        ]
      : []),
    "Query plans of the event log: `EXPLAIN QUERY PLAN` on SQLite and `EXPLAIN (ANALYZE, BUFFERS)` on PostgreSQL of the SQL Prisma sent for the model functions the loaders call, then each query alone. Every page query ends in `LIMIT 51 OFFSET 0` (Prisma's constant offset); none counts all rows.",
    "",
    planTable,
    "",
    "How it is measured:",
    "",
    `- Data, one throwaway database each (\`test/support/databases.ts\`, migrated by \`app/db/migrate.server.ts\`): the bench shop has ${integer.format(rows.events ?? 0)} outbox events, ${integer.format(rows.receipts ?? 0)} webhook receipts and ${integer.format(rows.orderSummaries ?? 0)} order summaries; ${SIZES.noiseShops} other shops have every ${SIZES.noiseEveryNth}th row of each table, interleaved (${integer.format(rows.eventsAllShops ?? 0)} events, ${integer.format(rows.receiptsAllShops ?? 0)} receipts, ${integer.format(rows.orderSummariesAllShops ?? 0)} summaries in all), inserted with \`createMany\` in chunks of ${integer.format(SIZES.chunk)}. Events spread over ${SIZES.days} days: 92 % delivered, 2 % pending, 2 % failed, 2 % dead (with the service's validation errors), 1.5 % unprocessable, 0.5 % being sent; 40 % order_placed, 30 % fulfillments, 15 % refunds, 10 % cancellations, 5 % line item cancellations; 70 % live. Payloads are the sample lifecycle's events as the app maps them (\`test/fixtures/lifecycle/\`, 0.1–0.9 KB); unprocessable receipts keep the 12 KB \`orders/create\` body. Plus the shop's connection (both keys sealed), ${SIZES.protectionItems} protection items and ${SIZES.protectableVariants} variants offered plans.`,
    `- ${runs.map((run) => `${name(run)}: ${run.notes.join("; ")}; seeded in ${oneDecimal.format(run.seedMs / 1000)} s`).join(". ")}.`,
    "- Each page: the real `loader` of `app/routes/app.tsx` and of the page's route file (and of `app.events/route.tsx` around an event's page), imported in-process with `NODE_ENV=production` and called together, each with its own request and a fresh App Bridge session token (HS256, the app's secret), as Remix calls a layout and its page in parallel; `authenticate.admin` verifies the token and loads the offline session from the database. The time runs from the calls to the last loader's answer: rendering, Remix's serialisation and the network are not in it. A thrown or non-2xx `Response` fails the run, and each page's answer is checked before timing (50 rows matching the filter, the event's validation errors).",
    `- ${settings.warmUp} warm-up rounds, then ${settings.runs} timed rounds; a round calls every page once, one page at a time, so a burst of other work on the machine hits all pages alike. Nearest-rank percentiles over the ${settings.runs} timed calls of each page. "not built": the page's route file did not exist when the benchmark ran.`,
    `- CPU while timing: ${runs.map((run) => `${name(run)}: ${cpuLine(run.cpu)}`).join("; ")}.`,
    `- Loader data per page (JSON of all its loaders, ${name(first)}): ${sizes.join(", ")}.`,
  ].join("\n");
}

async function runParent() {
  const databases = databasesToRun();
  const settings = {
    runs: positiveInteger("runs", options.runs),
    warmUp: positiveInteger("warm-up", options["warm-up"]),
  };
  const workDir = mkdtempSync(path.join(os.tmpdir(), "svc-bench-admin-"));
  const runs: DatabaseRun[] = [];
  try {
    for (const provider of databases) {
      const resultFile = path.join(workDir, `${provider}.json`);
      await runChildProcess(provider, resultFile);
      runs.push(JSON.parse(readFileSync(resultFile, "utf8")) as DatabaseRun);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const args = process.argv.slice(2);
  const command = `npm run bench:admin${args.length ? ` -- ${args.join(" ")}` : ""}`;
  const section = renderAdminSection(describeMachine("not pinned"), command, runs, settings);
  const docs = path.join(ROOT, "docs/performance.md");
  console.log(`\n${SECTION.heading}\n\n${section}\n`);
  if (options["dry-run"]) {
    console.log("--dry-run: docs/performance.md left as it is.");
  } else {
    await writeMarkedSection(docs, SECTION.name, SECTION.heading, section);
    console.log(`Written to ${path.relative(ROOT, docs)}.`);
  }
  const failed = runs.flatMap((run) =>
    run.pages
      .filter((page) => page.outcome.status === "error")
      .map((page) => `${page.label} on ${DATABASE_NAMES[run.provider]}`),
  );
  if (failed.length) {
    throw new BenchmarkError(`Not measured (the loader failed): ${failed.join("; ")}`);
  }
}

try {
  if (options.child) {
    if (options.child !== "sqlite" && options.child !== "postgresql") {
      throw new BenchmarkError(`--child must be sqlite or postgresql, not ${options.child}`);
    }
    if (!options.result) throw new BenchmarkError("--child needs --result");
    await runChild(options.child, options.result);
  } else {
    await runParent();
  }
  process.exitCode = 0;
} catch (error) {
  console.error(error instanceof BenchmarkError ? `Benchmark failed: ${error.message}` : error);
  process.exitCode = 1;
}
process.exit();
