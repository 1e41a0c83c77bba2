// npm run bench:retention [-- --db sqlite|postgresql|both] [--rows 100000]
// Retention (issue 28, decision 049) against the built production server: N old delivered events
// (one attempt each) and N old receipts are deleted by the retention pass, with its default
// batch size and pause, while signed orders/create webhooks arrive at 300/s; the webhook p99 is
// measured with and without the deletion running, in one run. Figures go to docs/performance.md.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createSecretBox } from "../../app/crypto/secret-box.server";
import { createPrismaClient, type AppPrismaClient } from "../../app/db/client.server";
import type { DatabaseProvider } from "../../app/lib/database-url";
import { saveConnectionKeys } from "../../app/models/ShopConnection.server";
import { deleteExpiredRows, type RowRetentionResult } from "../../app/privacy/retention.server";
import { startEmulator } from "../../emulator/server";
import { readLifecycleFixture } from "../../test/fixtures/lifecycle/lifecycle";
import { createThrowawayDatabase } from "../../test/support/databases";
import { describeAnswers, OrderWebhookFactory, runOpenLoop, type LoadResult } from "./http-load";
import { onCleanup, runBenchmark } from "./lifecycle";
import { decidePinning, ensureBuild, freePort, spawnAppScript, waitForHealthy } from "./processes";
import { benchCommand, describeMachine, machineLine, publishSection } from "./report";
import { BenchmarkError, databasesOption, percentile, positiveInteger } from "./stats";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SHOP = "svc-bench-retention.myshopify.com";
const SANDBOX_KEY = "sk_test_svc_bench";
const RATE_PER_SECOND = 300;
const LOAD_MS = 15_000;
/** The defaults of SVC_RETENTION_BATCH_SIZE and SVC_RETENTION_PAUSE_MS. */
const BATCH_SIZE = 500;
const PAUSE_MS = 100;
const SEED_CHUNK = 2_000;
const DAY_MS = 24 * 60 * 60 * 1_000;

const options = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    rows: { type: "string", default: "100000" },
    // Internal: the deletion runs in a process of its own, so that SQLite's synchronous driver
    // never stalls the load generator's event loop (which would count against the webhooks).
    "delete-from": { type: "string" },
  },
}).values;
const ROWS = positiveInteger("--rows", options.rows, 1);

interface LoadFigures {
  accepted: number;
  sent: number;
  p50: number;
  p99: number;
  answers: string;
}

interface ProviderResult {
  provider: DatabaseProvider;
  without: LoadFigures;
  during: LoadFigures;
  deletion: RowRetentionResult & { seconds: number; rowsPerSecond: number };
  /** Whether the deletion was still running when the webhooks of the second phase stopped. */
  overlappedWholeLoad: boolean;
  left: { events: number; receipts: number };
}

function figuresOf(result: LoadResult): LoadFigures {
  return {
    accepted: result.statuses.get(200) ?? 0,
    sent: result.sent,
    p50: percentile(result.latenciesMs, 0.5),
    p99: percentile(result.latenciesMs, 0.99),
    answers: describeAnswers(result),
  };
}

/**
 * N settled rows 200 days old: delivered events with one attempt each, and processed receipts.
 * The events are follow-ups (fulfilments): each order's delivered order_placed is kept for good
 * (decision 049), so the rows retention deletes are the orders' later events.
 */
async function seedOldRows(db: AppPrismaClient, rows: number) {
  const at = new Date(Date.now() - 200 * DAY_MS);
  for (let from = 0; from < rows; from += SEED_CHUNK) {
    const count = Math.min(SEED_CHUNK, rows - from);
    const ids = Array.from({ length: count }, (_, i) => `old-${from + i}`);
    await db.outboxEvent.createMany({
      data: ids.map((id) => ({
        shop: SHOP,
        environment: "sandbox",
        orderId: id,
        eventType: "order_fulfillment_added",
        dedupeKey: `order:${id}:fulfillment:1`,
        payload: "{}",
        status: "delivered",
        createdAt: at,
        updatedAt: at,
        deliveredAt: at,
      })),
    });
    const events = await db.outboxEvent.findMany({
      where: { shop: SHOP, orderId: { in: ids } },
      select: { id: true },
    });
    await db.outboxAttempt.createMany({
      data: events.map((event) => ({
        eventId: event.id,
        shop: SHOP,
        attempt: 1,
        environment: "sandbox",
        workerId: "bench",
        idempotencyKey: `bench-${event.id}`,
        startedAt: at,
        finishedAt: at,
        outcome: "delivered",
        httpStatus: 200,
      })),
    });
    await db.webhookReceipt.createMany({
      data: ids.map((id) => ({
        shop: SHOP,
        topic: "orders/create",
        webhookId: `old-webhook-${id}`,
        orderId: id,
        status: "processed",
        receivedAt: at,
      })),
    });
  }
}

async function benchProvider(
  provider: DatabaseProvider,
  factory: OrderWebhookFactory,
  shared: { emulatorUrl: string; apiSecret: string; pinning: ReturnType<typeof decidePinning> },
  logDir: string,
): Promise<ProviderResult> {
  const say = (message: string) => console.log(`[${provider}] ${message}`);
  const database = await createThrowawayDatabase(provider);
  const dropDatabase = onCleanup(() => database.drop());
  const encryptionKey = randomBytes(32).toString("base64");
  const port = await freePort();
  const serverLog = path.join(logDir, `server-${provider}.log`);
  say(`starting the production server on port ${port} (log: ${serverLog})`);
  const server = spawnAppScript({
    npmScript: "start",
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? os.homedir(),
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      SHOPIFY_API_KEY: "svc-bench-client-id",
      SHOPIFY_API_SECRET: shared.apiSecret,
      // No load balancer in front to see /readyz turn 503: a stop need not wait for one.
      SVC_SHUTDOWN_DELAY_MS: "0",
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: database.url,
      SVC_ENCRYPTION_KEY: encryptionKey,
      SVC_BASE_URL: shared.emulatorUrl,
      // Receiving alone: the retention pass runs here, as the worker process would run it.
      SVC_OUTBOX_WORKER: "off",
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    pinning: shared.pinning,
    logPath: serverLog,
  });
  const stopServer = onCleanup(() => server.stop());
  const db = createPrismaClient(database.url);
  const disconnect = onCleanup(() => db.$disconnect());
  await waitForHealthy(port, server, 120_000, serverLog);
  await saveConnectionKeys(db, createSecretBox([Buffer.from(encryptionKey, "base64")]), SHOP, {
    environment: "sandbox",
    sandboxSecretKey: SANDBOX_KEY,
  });

  say(`seeding ${ROWS} old events (one attempt each) and ${ROWS} old receipts`);
  await seedOldRows(db, ROWS);

  say(`warm-up, then webhooks at ${RATE_PER_SECOND}/s for ${LOAD_MS / 1000} s without retention`);
  await runOpenLoop(port, factory, { ratePerSecond: RATE_PER_SECOND, durationMs: 3_000 });
  const without = figuresOf(
    await runOpenLoop(port, factory, { ratePerSecond: RATE_PER_SECOND, durationMs: LOAD_MS }),
  );

  say(`the same load while retention deletes (batches of ${BATCH_SIZE}, ${PAUSE_MS} ms pause)`);
  const started = performance.now();
  let finishedAt: number | null = null;
  const deletion = deleteInChild(database.url).then((result) => {
    finishedAt = performance.now();
    return result;
  });
  const during = figuresOf(
    await runOpenLoop(port, factory, { ratePerSecond: RATE_PER_SECOND, durationMs: LOAD_MS }),
  );
  const overlappedWholeLoad = finishedAt === null;
  const deleted = await deletion;
  const seconds = ((finishedAt ?? performance.now()) - started) / 1000;
  const left = {
    events: await db.outboxEvent.count({ where: { orderId: { startsWith: "old-" } } }),
    receipts: await db.webhookReceipt.count({ where: { webhookId: { startsWith: "old-" } } }),
  };
  if (left.events || left.receipts || deleted.events !== ROWS || deleted.receipts !== ROWS) {
    throw new BenchmarkError(
      `${provider}: retention left ${left.events} old events and ${left.receipts} old receipts`,
    );
  }
  const rows = deleted.events + deleted.attempts + deleted.receipts;
  say(
    `deleted ${rows} rows in ${seconds.toFixed(1)} s (${deleted.batches} batches); p99 ${without.p99.toFixed(1)} ms without, ${during.p99.toFixed(1)} ms during`,
  );
  await disconnect();
  await stopServer();
  await dropDatabase();
  return {
    provider,
    without,
    during,
    deletion: { ...deleted, seconds, rowsPerSecond: rows / seconds },
    overlappedWholeLoad,
    left,
  };
}

/** This script again, with --delete-from: the retention pass's deletion in its own process. */
function deleteInChild(databaseUrl: string): Promise<RowRetentionResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", import.meta.filename, "--delete-from", databaseUrl],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new BenchmarkError(`the deletion process exited ${code}`));
      else resolve(JSON.parse(output.trim().split("\n").at(-1)!) as RowRetentionResult);
    });
  });
}

async function deleteFrom(databaseUrl: string) {
  const db = createPrismaClient(databaseUrl);
  try {
    const result = await deleteExpiredRows(db, {
      now: new Date(),
      retentionDays: 180,
      batchSize: BATCH_SIZE,
      pauseMs: PAUSE_MS,
    });
    console.log(JSON.stringify(result));
  } finally {
    await db.$disconnect();
  }
}

const NAMES: Record<DatabaseProvider, string> = { sqlite: "SQLite", postgresql: "PostgreSQL" };
const ms = (value: number) => `${value.toFixed(1)} ms`;

function renderSection(machine: ReturnType<typeof describeMachine>, results: ProviderResult[]) {
  const head = `| Measure | ${results.map((r) => NAMES[r.provider]).join(" | ")} |`;
  const rule = `| --- | ${results.map(() => "---:").join(" | ")} |`;
  const row = (label: string, cell: (r: ProviderResult) => string) =>
    `| ${label} | ${results.map(cell).join(" | ")} |`;
  return [
    `Last run: ${machine.date}, \`${benchCommand("bench:retention")}\`.`,
    "",
    `Machine: ${machineLine(machine)}. Pinning: ${machine.pinning}.`,
    "",
    head,
    rule,
    row(
      "Rows deleted (events + attempts + receipts)",
      (r) => `${r.deletion.events + r.deletion.attempts + r.deletion.receipts}`,
    ),
    row("Deletion time", (r) => `${r.deletion.seconds.toFixed(1)} s`),
    row("Deletion rate", (r) => `${Math.round(r.deletion.rowsPerSecond).toLocaleString("en")}/s`),
    row("Batches (at most 500 events or receipts each)", (r) => String(r.deletion.batches)),
    row(
      `Webhooks accepted at ${RATE_PER_SECOND}/s, without retention`,
      (r) => `${r.without.accepted}/${r.without.sent}`,
    ),
    row(
      `Webhooks accepted at ${RATE_PER_SECOND}/s, while retention deletes`,
      (r) => `${r.during.accepted}/${r.during.sent}`,
    ),
    row(
      "Webhook p50, without / during retention",
      (r) => `${ms(r.without.p50)} / ${ms(r.during.p50)}`,
    ),
    row(
      "Webhook p99, without / during retention",
      (r) => `${ms(r.without.p99)} / ${ms(r.during.p99)}`,
    ),
    "",
    `How it is measured: the built production server (\`npm start\`, \`NODE_ENV=production\`, \`SVC_OUTBOX_WORKER=off\`), one fresh database each. ${ROWS.toLocaleString("en")} delivered events with one attempt each and ${ROWS.toLocaleString("en")} processed receipts, all 200 days old, are seeded. Signed \`orders/create\` webhooks are sent open loop at ${RATE_PER_SECOND}/s for ${LOAD_MS / 1000} s (after a 3 s warm-up) without retention, then for ${LOAD_MS / 1000} s more while \`deleteExpiredRows\` (the retention worker's deletion) runs in a process of its own with the defaults, ${BATCH_SIZE} rows per transaction and a ${PAUSE_MS} ms pause. The rate is over the whole deletion, pauses included; the run fails unless every old row is gone.`,
    "",
    ...results.map(
      (r) =>
        `- **${NAMES[r.provider]}**: without retention ${r.without.answers}; during ${r.during.answers}; ${r.overlappedWholeLoad ? "the deletion outlasted the loaded phase" : "the deletion finished within the loaded phase"}.`,
    ),
  ].join("\n");
}

if (options["delete-from"]) {
  await deleteFrom(options["delete-from"]);
  process.exit(0);
}

await runBenchmark("retention", async (logDir) => {
  const providers = databasesOption(options.db);
  ensureBuild(ROOT);
  const pinning = decidePinning();
  const emulator = await startEmulator({
    sandboxKey: SANDBOX_KEY,
    liveKey: "sk_live_svc_bench",
    port: 0,
    host: "127.0.0.1",
  });
  onCleanup(() => emulator.close());
  const apiSecret = randomBytes(24).toString("hex");
  const factory = new OrderWebhookFactory(
    readLifecycleFixture("orders-create.json"),
    SHOP,
    apiSecret,
    8_000_000_000_000,
  );
  const results: ProviderResult[] = [];
  for (const provider of providers) {
    results.push(
      await benchProvider(
        provider,
        factory,
        { emulatorUrl: emulator.url, apiSecret, pinning },
        logDir,
      ),
    );
  }
  const machine = describeMachine(pinning.description);
  await publishSection(
    { name: "retention", heading: "## Retention (npm run bench:retention)" },
    renderSection(machine, results),
  );
});
