// npm run bench:backfill [-- --db sqlite|postgresql|both] [--orders 2500,5000,10000]
// The backfill of issue 17 (decision 029): a shop whose orders were placed before it connected
// the service, reported with one bulk query whose JSONL result the app streams. For each order
// count: the time from the merchant's request to the last event recorded, the Admin API points
// it used, and the app process's peak memory, which must stay flat as the count grows. The local
// store plays Shopify in this process; the app runs in a child process of its own. Figures go to
// docs/performance.md. Exits 1 only when the benchmark itself failed.

import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { createPrismaClient } from "../../../app/db/client.server";
import type { DatabaseProvider } from "../../../app/lib/database-url";
import { startStore, type RunningStore } from "../../../store/server/server";
import { createThrowawayDatabase } from "../../../test/support/databases";
import { createOfflineSession, APP_SCOPES } from "../../../test/support/offline-session";
import { TEST_API_KEY, TEST_API_SECRET, TEST_ENCRYPTION_KEY } from "../../../test/support/test-env";
import { describeMachine, machineLine, writeMarkedSection } from "../report";
import { BenchmarkError, databasesOption } from "../stats";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SHOP = "svc-backfill-bench.myshopify.com";
const DAY = 86_400_000;
/** Orders are placed over the 50 days before the shop installs the app. */
const SPREAD_DAYS = 50;

const options = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    orders: { type: "string", default: "2500,5000,10000" },
  },
}).values;

interface Result {
  provider: DatabaseProvider;
  orders: number;
  status: string;
  detail: string | null;
  ordersDone: number;
  eventsRecovered: number;
  deferred: number;
  totalMs: number;
  streamingMs: number;
  points: number;
  calls: number;
  wholeReads: number;
  baselineRss: number;
  peakRss: number;
  peakHeap: number;
}

/**
 * The shop's history, seeded by the store without webhooks over the 50 days before the shop
 * installs the app: the store's default shares (a third with a plan, three in ten fulfilled, one
 * in ten with a refunded unit, one in twenty edited).
 */
function seedOrders(store: RunningStore, count: number) {
  const merchant = { kind: "merchant" } as const;
  for (const [index, title] of ["Laptop", "Camera", "Headphones"].entries()) {
    store.state.setProduct(
      SHOP,
      { title, variants: [{ title: "Default Title", price: 19_900 + index * 10_000 }] },
      merchant,
    );
  }
  return store.state.seedOrders(SHOP, {
    count,
    seed: 17,
    createdFrom: new Date(Date.now() - (SPREAD_DAYS + 1) * DAY).toISOString(),
    createdTo: new Date(Date.now() - DAY).toISOString(),
  });
}

interface GraphqlLogEntry {
  shop: string;
  operation_name: string | null;
  answer: {
    extensions?: { cost?: { actualQueryCost?: number; requestedQueryCost?: number } };
  } | null;
}

async function measure(provider: DatabaseProvider, count: number): Promise<Result> {
  const store = await startStore({ port: 0 });
  const database = await createThrowawayDatabase(provider);
  try {
    store.state.createShop({
      domain: SHOP,
      appUrl: "http://127.0.0.1:9", // nothing listens: the app is not installed while orders come
      apiKey: TEST_API_KEY,
      apiSecret: TEST_API_SECRET,
      currency: "EUR",
      // Shopify Plus: 1,000 points a second. The points used are the same on every plan; the
      // report also gives the time they take at the standard plan's 100 a second.
      plan: "plus",
    });
    const seeding = Date.now();
    const seeded = seedOrders(store, count);
    console.log(`  ${seeded.count} orders seeded in ${Date.now() - seeding} ms`);
    const installation = store.state.install(SHOP, APP_SCOPES.split(","));

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: database.url,
      SHOPIFY_API_KEY: TEST_API_KEY,
      SHOPIFY_API_SECRET: TEST_API_SECRET,
      SHOPIFY_APP_URL: "https://svc-protection.test",
      SHOPIFY_ADMIN_ORIGIN: store.url,
      SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SVC_BASE_URL: "http://127.0.0.1:9/",
      LOG_LEVEL: "warn",
      BENCH_SHOP: SHOP,
      BENCH_SINCE: new Date(Date.now() - 59 * DAY).toISOString(),
    };
    const { migrateDatabase } = await import("../../../app/db/migrate.server");
    await migrateDatabase(database.url);
    const db = createPrismaClient(database.url);
    try {
      await createOfflineSession(db, SHOP, installation.offlineAccessToken);
      await db.shopConnection.create({ data: { shop: SHOP, status: "connected" } });
    } finally {
      await db.$disconnect();
    }

    const output = await runChild(env);
    const log = (await (await fetch(`${store.url}/__store/graphql`)).json()) as {
      requests: GraphqlLogEntry[];
    };
    const requests = log.requests.filter((request) => request.shop === SHOP);
    const points = requests.reduce(
      (total, request) =>
        total +
        (request.answer?.extensions?.cost?.actualQueryCost ??
          request.answer?.extensions?.cost?.requestedQueryCost ??
          0),
      0,
    );
    return {
      provider,
      orders: count,
      status: output.status,
      detail: output.detail,
      ordersDone: output.orders,
      eventsRecovered: output.eventsRecovered,
      deferred: output.deferred,
      totalMs: output.totalMs,
      streamingMs: output.streamingMs,
      points,
      calls: requests.length,
      wholeReads: requests.filter((request) => request.operation_name === "ReconcileOrder").length,
      baselineRss: output.baselineRss,
      peakRss: output.peakRss,
      peakHeap: output.peakHeap,
    };
  } finally {
    await store.close();
    await database.drop();
  }
}

interface ChildOutput {
  status: string;
  detail: string | null;
  orders: number;
  eventsRecovered: number;
  deferred: number;
  totalMs: number;
  streamingMs: number;
  baselineRss: number;
  peakRss: number;
  peakHeap: number;
}

function runChild(env: NodeJS.ProcessEnv): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    // The app's own memory limit for its worker process (`npm run worker`).
    const child = spawn(
      process.execPath,
      ["--max-old-space-size=128", "--import", "tsx", "scripts/bench/backfill/child.ts"],
      { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("exit", (code) => {
      const last = stdout.trim().split("\n").at(-1) ?? "";
      if (code !== 0)
        return reject(
          new BenchmarkError(`The app's process exited ${code}: ${stdout.slice(-2_000)}`),
        );
      try {
        resolve(JSON.parse(last) as ChildOutput);
      } catch {
        reject(new BenchmarkError(`The app's process printed no result: ${stdout.slice(-2_000)}`));
      }
    });
  });
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1_000).toFixed(1)} s`;
const integer = new Intl.NumberFormat("en-US");

function render(results: Result[]): string {
  const rows = results.map(
    (result) =>
      `| ${result.provider} | ${integer.format(result.orders)} | ${result.status} | ${integer.format(result.eventsRecovered)} | ${seconds(result.totalMs)} | ${integer.format(result.wholeReads)} | ${integer.format(result.points)} | ${seconds((result.points / 100) * 1_000)} | ${mb(result.peakRss)} | ${mb(result.peakHeap)} |`,
  );
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:backfill\`. ${machineLine(describeMachine("not pinned"))}`,
    "",
    `The merchant asks for the orders of the last 59 days. The shop's orders were placed over the ${SPREAD_DAYS} days before it installed the app, so none of their webhooks reached it; the store seeds them with its default shares (a third with a plan, three in ten fulfilled, one in ten with a refunded unit, one in twenty edited). The app's process, with the worker's memory limit (128 MB of heap), steps the backfill as the worker does: one bulk query (orders with their lines), its JSONL result streamed one order at a time, 100 orders between saves of the progress; then the orders with fulfilments, refunds or edits, whose lines a bulk query cannot read, read whole one by one. The local store plays Shopify in the benchmark's own process, as a Shopify Plus shop (1,000 points a second).`,
    "",
    "| Database | Orders | Result | Events recorded | Time (Plus) | Read whole | API points | Points at 100/s | Peak RSS | Peak heap |",
    "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    "Time runs from the merchant's request to the last event recorded, the bulk query's run in the store included. API points are the actual cost Shopify's rules charge (the bulk mutation, the polls of its status, the whole reads; the result's download costs none); on a standard shop (100 points a second) the reads take at least the time in the \"Points at 100/s\" column, and reconciliation's share of the bucket keeps half of it free for others. Peak memory is the app process's, sampled every 20 ms, startup included: it must not grow with the number of orders.",
  ].join("\n");
}

async function main() {
  const providers = databasesOption(options.db);
  const counts = options.orders.split(",").map((value) => Number(value.trim()));
  if (counts.some((count) => !Number.isSafeInteger(count) || count < 1)) {
    throw new BenchmarkError(`--orders must be a list of counts, not ${options.orders}`);
  }
  const results: Result[] = [];
  for (const provider of providers) {
    for (const count of counts) {
      console.log(`Backfill of ${count} orders on ${provider}…`);
      const result = await measure(provider, count);
      console.log(
        `  ${result.status}: ${result.eventsRecovered} events in ${seconds(result.totalMs)}, ${result.points} points, peak RSS ${mb(result.peakRss)}, peak heap ${mb(result.peakHeap)}`,
      );
      if (result.status !== "completed")
        throw new BenchmarkError(`The backfill ended ${result.status}: ${result.detail}`);
      results.push(result);
    }
  }
  await writeMarkedSection(
    path.join(ROOT, "docs/performance.md"),
    "backfill",
    "## Backfill (npm run bench:backfill)",
    render(results),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
