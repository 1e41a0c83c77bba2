import { performance } from "node:perf_hooks";
import type { AppPrismaClient } from "../../../app/db/client.server";
import { sqliteFilePath, type DatabaseProvider } from "../../../app/lib/database-url";
import { BenchmarkError, median } from "../stats";
import { planSubjects, SHOP } from "./seed";

// Query plans of the event log's queries, on the database they ran on: the SQL Prisma sent for
// the model functions the loaders call, explained, then run alone.

/**
 * Indexes to try that the schema does not have yet: created on the throwaway database after the
 * first timing, then the event log is timed again. Empty: the two this benchmark showed the event
 * log needs, `OutboxEvent (shop, id)` and `WebhookReceipt (shop, status, receivedAt)`, are in the
 * schema now (migration 20261122010000_admin_indexes).
 */
export const SUGGESTED_INDEXES: { prisma: string; sql: string }[] = [];

export interface QueryPlan {
  label: string;
  sql: string;
  plan: string[];
  /** One line: the index used, or that there is none, and what it reads. */
  summary: string;
  /** The query alone, median of 10, ms. */
  queryMs: number;
}

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
    const { PrismaClient } = await import("../../../app/generated/prisma/postgresql/client");
    client = new PrismaClient({
      adapter: new PrismaPg({ connectionString: url, max: 2 }),
      log,
    }) as unknown as AppPrismaClient;
  } else {
    const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
    const { PrismaClient } = await import("../../../app/generated/prisma/sqlite/client");
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

export async function explainEventLogQueries(
  url: string,
  provider: DatabaseProvider,
  db: AppPrismaClient,
): Promise<QueryPlan[]> {
  const events = await import("../../../app/models/OutboxEvent.server");
  const receipts = await import("../../../app/models/WebhookReceipt.server");
  const { parseEventLogQuery, EVENT_LOG_PAGE_SIZE } =
    await import("../../../app/admin/event-filters");
  const specs = await planSubjects(db);
  const recorder = await recordingClient(url, provider);
  const pageSize = EVENT_LOG_PAGE_SIZE;
  const eventQuery = (search: string, shop = SHOP) => {
    const query = parseEventLogQuery(new URLSearchParams(search));
    if (query.tab !== "events") throw new BenchmarkError(`${search} is not the events tab`);
    const { status, eventType, environment, cursor } = query;
    const orderId = query.order && "orderId" in query.order ? query.order.orderId : undefined;
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
          ? await explainSqlite(sqliteFilePath(url), query)
          : await explainPostgres(url, query);
      plans.push({ label, sql: query.sql, ...explained });
    }
  } finally {
    await recorder.client.$disconnect();
  }
  return plans;
}
