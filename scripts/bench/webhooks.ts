// npm run bench:webhooks [-- --db sqlite|postgresql|both] [--profile] [--metrics-only]
// Order webhook acceptance, acknowledgement latency, outbox drain and peak memory, against the
// built production server on SQLite and PostgreSQL. Figures go to docs/performance.md. Exits 0
// on a missed target (it is a benchmark); 1 only when the benchmark itself failed.
// --profile writes V8 CPU profiles of the server and the worker (node --cpu-prof).
// Then, on the first database, acceptance and p99 at 300/s with metrics off and on (issue 28),
// side by side; --metrics-only runs that comparison alone.

import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { createSecretBox } from "../../app/crypto/secret-box.server";
import { createPrismaClient, type AppPrismaClient } from "../../app/db/client.server";
import type { DatabaseProvider } from "../../app/lib/database-url";
import { countOutboxEventsByStatus } from "../../app/models/OutboxEvent.server";
import { saveConnectionKeys } from "../../app/models/ShopConnection.server";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { readLifecycleFixture } from "../../test/fixtures/lifecycle/lifecycle";
import { createThrowawayDatabase } from "../../test/support/databases";
import { countRows, type RowCounts } from "./databases";
import { accountCpu, postgresCpu, processCpu, selfCpu } from "./cpu";
import {
  describeAnswers,
  OrderWebhookFactory,
  runClosedLoop,
  runOpenLoop,
  type LoadResult,
} from "./http-load";
import {
  ensureBuild,
  decidePinning,
  freePort,
  peakRssBytes,
  rssBytes,
  servingPid,
  spawnAppScript,
  waitForHealthy,
  type AppProcess,
  type Pinning,
} from "./processes";
import { BenchmarkError, databasesOption, percentile } from "./stats";
import {
  benchCommand,
  describeMachine,
  renderSection,
  SECTION,
  writeMarkedSection,
  type DatabaseResult,
} from "./report";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SHOP = "svc-bench.myshopify.com";
const EMULATOR_SANDBOX_KEY = "sk_test_svc_bench";
const EMULATOR_LIVE_KEY = "sk_live_svc_bench";

const LOAD = {
  connections: 64,
  warmUpMs: 3_000,
  acceptanceMs: 10_000,
  acceptanceMaxRequests: 10_000,
  latencyRatePerSecond: 300,
  latencyMs: 15_000,
  minimumDrainEvents: 5_000,
  drainWarmUpEvents: 500,
  drainPollMs: 100,
  drainStallMs: 60_000,
};

const options = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    profile: { type: "boolean", default: false },
    "metrics-only": { type: "boolean", default: false },
  },
}).values;

/** The app process (server or worker) beside this one (load generator and emulator) and PostgreSQL. */
function accountAppCpu(appPid: number) {
  return accountCpu({ app: processCpu(appPid), loadGenerator: selfCpu, postgres: postgresCpu });
}

/** Cleanups that must run even when the run is interrupted: processes, throwaway databases. */
const cleanups = new Set<() => Promise<void>>();
function onCleanup(cleanup: () => Promise<void>) {
  cleanups.add(cleanup);
  return async () => {
    cleanups.delete(cleanup);
    await cleanup();
  };
}
async function cleanUpAll() {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    await cleanup().catch((error: unknown) => console.error("Cleanup failed:", error));
  }
}

interface RunContext {
  emulator: RunningEmulator;
  factory: OrderWebhookFactory;
  apiSecret: string;
  pinning: Pinning;
  workDir: string;
  profileDir: string | null;
}

function appEnv(
  context: RunContext,
  port: number,
  databaseUrl: string,
  encryptionKey: string,
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    SHOPIFY_API_KEY: "svc-bench-client-id",
    SHOPIFY_API_SECRET: context.apiSecret,
    // No load balancer in front to see /readyz turn 503: a stop need not wait for one.
    SVC_SHUTDOWN_DELAY_MS: "0",
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    SVC_ENCRYPTION_KEY: encryptionKey,
    SVC_BASE_URL: context.emulator.url,
    // Acceptance alone on the server; the drain is one standalone worker.
    SVC_OUTBOX_WORKER: "off",
    ...(context.profileDir
      ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${context.profileDir}` }
      : {}),
  };
}

/**
 * Each 200 must have grown the database by exactly one processed receipt and one pending
 * order_placed event: accepted means durably stored. An answer other than 200 or 5xx means the
 * requests or the server are wrong, and fails the run. A 5xx or no answer at all (overload) is
 * reported: such a delivery may or may not have been stored, and Shopify would send it again.
 */
async function checkPhase(
  db: AppPrismaClient,
  phase: string,
  result: LoadResult,
  before: RowCounts,
): Promise<{ after: RowCounts; check: string }> {
  const ok = result.statuses.get(200) ?? 0;
  const wrongAnswers = [...result.statuses.keys()].filter(
    (status) => status !== 200 && status < 500,
  );
  if (wrongAnswers.length || ok === 0) {
    throw new BenchmarkError(`${phase}: wrong answers: ${describeAnswers(result)}`);
  }
  const notAccepted = result.sent - ok;
  const after = await countRows(db, SHOP);
  const grown = {
    receipts: after.receipts - before.receipts,
    processedOrderReceipts: after.processedOrderReceipts - before.processedOrderReceipts,
    events: after.events - before.events,
    orderPlacedEvents: after.orderPlacedEvents - before.orderPlacedEvents,
    pendingEvents: (after.eventsByStatus.pending ?? 0) - (before.eventsByStatus.pending ?? 0),
  };
  const stored = grown.receipts;
  const wrong = Object.values(grown).some(
    (count) => count !== stored || count < ok || count > ok + notAccepted,
  );
  if (wrong) {
    const detail = Object.entries(grown)
      .map(([name, count]) => `${name} +${count}`)
      .join(", ");
    throw new BenchmarkError(
      `${phase}: ${describeAnswers(result)}, but the database has ${detail}`,
    );
  }
  const failures = notAccepted
    ? `; not accepted: ${describeAnswers({ ...result, statuses: new Map([...result.statuses].filter(([status]) => status !== 200)) })}, of which ${stored - ok} were stored anyway`
    : "";
  return {
    after,
    check: `${phase}: ${ok} × 200, each stored as exactly one processed receipt and one pending order_placed event${failures}`,
  };
}

async function benchDatabase(
  provider: DatabaseProvider,
  context: RunContext,
): Promise<DatabaseResult> {
  const say = (message: string) => console.log(`[${provider}] ${message}`);
  const database = await createThrowawayDatabase(provider);
  const dropDatabase = onCleanup(() => database.drop());
  const encryptionKey = randomBytes(32).toString("base64");
  const checks: string[] = [];
  const acceptedOrderIds = new Set<string>();
  const notAcceptedOrderIds = new Set<string>();

  await fetch(`${context.emulator.url}__emulator/reset`, { method: "POST" });
  const port = await freePort();
  const env = appEnv(context, port, database.url, encryptionKey);
  const serverLog = path.join(context.workDir, `server-${provider}.log`);
  say(`starting the production server on port ${port} (log: ${serverLog})`);
  const server = spawnAppScript({
    npmScript: "start",
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    pinning: context.pinning,
    logPath: serverLog,
  });
  const stopServer = onCleanup(() => server.stop());
  const db = createPrismaClient(database.url);
  const disconnect = onCleanup(() => db.$disconnect());

  await waitForHealthy(port, server, 120_000, serverLog);
  const serverPid = servingPid(server);
  const serverIdleRss = rssBytes(serverPid);
  await saveConnectionKeys(db, createSecretBox([Buffer.from(encryptionKey, "base64")]), SHOP, {
    environment: "sandbox",
    sandboxSecretKey: EMULATOR_SANDBOX_KEY,
  });

  let counts = await countRows(db, SHOP);
  const phase = async (name: string, result: LoadResult) => {
    const checked = await checkPhase(db, name, result, counts);
    counts = checked.after;
    checks.push(checked.check);
    result.acceptedOrderIds.forEach((id) => acceptedOrderIds.add(id));
    result.notAcceptedOrderIds.forEach((id) => notAcceptedOrderIds.add(id));
  };

  say(`warm-up: ${LOAD.warmUpMs / 1000} s closed loop (not counted)`);
  await phase(
    "Warm-up",
    await runClosedLoop(port, context.factory, {
      connections: LOAD.connections,
      durationMs: LOAD.warmUpMs,
      maxRequests: Infinity,
    }),
  );

  say(`acceptance: closed loop, ${LOAD.connections} connections`);
  const acceptanceCpu = accountAppCpu(serverPid);
  const acceptance = await runClosedLoop(port, context.factory, {
    connections: LOAD.connections,
    durationMs: LOAD.acceptanceMs,
    maxRequests: LOAD.acceptanceMaxRequests,
  });
  const cpu: DatabaseResult["cpu"] = { acceptance: acceptanceCpu() };
  const serverPeakAfterAcceptance = peakRssBytes(serverPid);
  await phase("Acceptance", acceptance);
  const accepted = acceptance.statuses.get(200) ?? 0;
  const acceptedPerSecond = accepted / (acceptance.elapsedMs / 1000);
  const cpuPerRequestMs = (cpu.acceptance.app * cpu.acceptance.wallMs) / acceptance.sent;
  say(
    `  ${accepted} accepted in ${(acceptance.elapsedMs / 1000).toFixed(1)} s: ${acceptedPerSecond.toFixed(0)}/s; server CPU ${cpuPerRequestMs.toFixed(1)} ms per request`,
  );

  await sleep(1_000);
  say(`latency: open loop, ${LOAD.latencyRatePerSecond}/s for ${LOAD.latencyMs / 1000} s`);
  const latencyCpu = accountAppCpu(serverPid);
  const latency = await runOpenLoop(port, context.factory, {
    ratePerSecond: LOAD.latencyRatePerSecond,
    durationMs: LOAD.latencyMs,
  });
  cpu.latency = latencyCpu();
  await phase("Latency", latency);
  const latencyResult = {
    ratePerSecond: LOAD.latencyRatePerSecond,
    durationMs: LOAD.latencyMs,
    sent: latency.sent,
    notAccepted: latency.sent - (latency.statuses.get(200) ?? 0),
    answers: describeAnswers(latency),
    p50: percentile(latency.latenciesMs, 0.5),
    p95: percentile(latency.latenciesMs, 0.95),
    p99: percentile(latency.latenciesMs, 0.99),
    max: Math.max(...latency.latenciesMs),
    maxSendLagMs: latency.maxSendLagMs,
  };
  say(
    `  p50 ${latencyResult.p50.toFixed(1)} ms, p95 ${latencyResult.p95.toFixed(1)} ms, p99 ${latencyResult.p99.toFixed(1)} ms, max ${latencyResult.max.toFixed(1)} ms; answers: ${latencyResult.answers}`,
  );

  const missing = LOAD.minimumDrainEvents - (counts.eventsByStatus.pending ?? 0);
  if (missing > 0) {
    say(
      `top-up: ${missing} more deliveries so that at least ${LOAD.minimumDrainEvents} events wait`,
    );
    await phase(
      "Top-up",
      await runClosedLoop(port, context.factory, {
        connections: LOAD.connections,
        durationMs: 300_000,
        maxRequests: missing,
      }),
    );
  }

  const serverPeakRss = peakRssBytes(serverPid);
  await stopServer();

  const pendingEvents = counts.eventsByStatus.pending ?? 0;
  const workerLog = path.join(context.workDir, `worker-${provider}.log`);
  say(`drain: one worker for ${pendingEvents} pending events (log: ${workerLog})`);
  const spawnedAt = performance.now();
  const worker = spawnAppScript({
    npmScript: "worker",
    cwd: ROOT,
    env,
    pinning: context.pinning,
    logPath: workerLog,
  });
  const stopWorker = onCleanup(() => worker.stop());
  const drainCpu = accountAppCpu(worker.pid);
  const drain = await measureDrain(db, worker, pendingEvents, workerLog);
  cpu.drain = drainCpu();
  const workerPeakRss = peakRssBytes(worker.pid);
  await stopWorker();
  const wallMs = drain.doneAt - spawnedAt;
  say(
    `  ${drain.measuredEvents} events in ${(drain.measuredMs / 1000).toFixed(1)} s after the first ${LOAD.drainWarmUpEvents}: ${drain.perSecond.toFixed(0)}/s`,
  );
  checks.push(`Drain: all ${pendingEvents} events delivered; none failed, dead or unprocessable`);
  checks.push(
    await checkEmulatorPlacements(
      context.emulator,
      acceptedOrderIds,
      notAcceptedOrderIds,
      pendingEvents,
    ),
  );

  await disconnect();
  await dropDatabase();
  return {
    provider,
    acceptance: {
      connections: LOAD.connections,
      accepted,
      notAccepted: acceptance.sent - accepted,
      elapsedMs: acceptance.elapsedMs,
      perSecond: acceptedPerSecond,
      serverCpuPerRequestMs: cpuPerRequestMs,
    },
    latency: latencyResult,
    drain: {
      events: pendingEvents,
      measuredEvents: drain.measuredEvents,
      perSecond: drain.perSecond,
      wallMs,
    },
    peakRss: {
      serverBytes: serverPeakRss,
      serverIdleBytes: serverIdleRss,
      serverAfterAcceptanceBytes: serverPeakAfterAcceptance,
      workerBytes: workerPeakRss,
    },
    cpu,
    checks,
  };
}

const METRICS_SECTION = {
  name: "webhooks-metrics",
  heading: "## Webhooks with metrics on and off (npm run bench:webhooks)",
};
/**
 * How often the metrics run scrapes /metrics: three times as often as the usual 15 s. A scrape
 * renders every series on the event loop (a few ms on this machine), so a 1 s scrape shows in p99.
 */
const SCRAPE_INTERVAL_MS = 5_000;

interface MetricsRun {
  metrics: boolean;
  acceptedPerSecond: number;
  acceptanceNotAccepted: number;
  latency: { sent: number; notAccepted: number; p50: number; p99: number; max: number };
  scrapes: number;
  /** The load average of the machine (1 minute) before and after the run. */
  load: [number, number];
}

/**
 * The webhook path with metrics off, or on and scraped every SCRAPE_INTERVAL_MS: acceptance (closed loop)
 * and latency at 300/s (open loop), on a fresh database and server each (issue 28).
 */
async function benchMetricsOverhead(
  provider: DatabaseProvider,
  context: RunContext,
  metrics: boolean,
): Promise<MetricsRun> {
  const say = (message: string) =>
    console.log(`[${provider}, metrics ${metrics ? "on" : "off"}] ${message}`);
  const loadBefore = os.loadavg()[0]!;
  const database = await createThrowawayDatabase(provider);
  const dropDatabase = onCleanup(() => database.drop());
  const encryptionKey = randomBytes(32).toString("base64");
  const port = await freePort();
  const metricsPort = await freePort();
  const env = appEnv(context, port, database.url, encryptionKey);
  const serverLog = path.join(context.workDir, `server-${provider}-metrics-${metrics}.log`);
  say(`starting the production server on port ${port} (log: ${serverLog})`);
  const server = spawnAppScript({
    npmScript: "start",
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      ...(metrics ? { SVC_METRICS_PORT: String(metricsPort) } : {}),
    },
    pinning: context.pinning,
    logPath: serverLog,
  });
  const stopServer = onCleanup(() => server.stop());
  const db = createPrismaClient(database.url);
  const disconnect = onCleanup(() => db.$disconnect());
  await waitForHealthy(port, server, 120_000, serverLog);
  await saveConnectionKeys(db, createSecretBox([Buffer.from(encryptionKey, "base64")]), SHOP, {
    environment: "sandbox",
    sandboxSecretKey: EMULATOR_SANDBOX_KEY,
  });
  let scrapes = 0;
  const scraper = metrics
    ? setInterval(() => {
        void fetch(`http://127.0.0.1:${metricsPort}/metrics`)
          .then((answer) => answer.text())
          .then(
            (text) => {
              if (text.includes("svc_webhooks_received_total")) scrapes += 1;
            },
            () => undefined,
          );
      }, SCRAPE_INTERVAL_MS)
    : undefined;
  try {
    let counts = await countRows(db, SHOP);
    const phase = async (name: string, result: LoadResult) => {
      counts = (await checkPhase(db, name, result, counts)).after;
      return result;
    };
    say(`warm-up: ${LOAD.warmUpMs / 1000} s closed loop (not counted)`);
    await phase(
      "Warm-up",
      await runClosedLoop(port, context.factory, {
        connections: LOAD.connections,
        durationMs: LOAD.warmUpMs,
        maxRequests: Infinity,
      }),
    );
    const acceptance = await phase(
      "Acceptance",
      await runClosedLoop(port, context.factory, {
        connections: LOAD.connections,
        durationMs: LOAD.acceptanceMs,
        maxRequests: LOAD.acceptanceMaxRequests,
      }),
    );
    const accepted = acceptance.statuses.get(200) ?? 0;
    const acceptedPerSecond = accepted / (acceptance.elapsedMs / 1000);
    say(`  acceptance ${acceptedPerSecond.toFixed(0)}/s`);
    await sleep(1_000);
    const latency = await phase(
      "Latency",
      await runOpenLoop(port, context.factory, {
        ratePerSecond: LOAD.latencyRatePerSecond,
        durationMs: LOAD.latencyMs,
      }),
    );
    const run: MetricsRun = {
      metrics,
      acceptedPerSecond,
      acceptanceNotAccepted: acceptance.sent - accepted,
      latency: {
        sent: latency.sent,
        notAccepted: latency.sent - (latency.statuses.get(200) ?? 0),
        p50: percentile(latency.latenciesMs, 0.5),
        p99: percentile(latency.latenciesMs, 0.99),
        max: Math.max(...latency.latenciesMs),
      },
      scrapes,
      load: [loadBefore, os.loadavg()[0]!],
    };
    say(`  p50 ${run.latency.p50.toFixed(1)} ms, p99 ${run.latency.p99.toFixed(1)} ms`);
    if (metrics && scrapes === 0) throw new BenchmarkError("Metrics on, but no scrape answered");
    return run;
  } finally {
    clearInterval(scraper);
    await stopServer();
    await disconnect();
    await dropDatabase();
  }
}

function renderMetricsSection(
  machine: ReturnType<typeof describeMachine>,
  provider: DatabaseProvider,
  runs: MetricsRun[],
): string {
  const off = runs.filter((run) => !run.metrics);
  const on = runs.filter((run) => run.metrics);
  const mean = (of: MetricsRun[], figure: (run: MetricsRun) => number) =>
    of.reduce((total, run) => total + figure(run), 0) / of.length;
  const change = (before: number, after: number) =>
    `${after >= before ? "+" : ""}${(((after - before) / before) * 100).toFixed(1)} %`;
  const each = (of: MetricsRun[], figure: (run: MetricsRun) => number) =>
    of.map((run) => figure(run).toFixed(1)).join(", ");
  const row = (name: string, figure: (run: MetricsRun) => number, unit: string) => {
    const [before, after] = [mean(off, figure), mean(on, figure)];
    return `| ${name} | ${before.toFixed(1)} ${unit} (${each(off, figure)}) | ${after.toFixed(1)} ${unit} (${each(on, figure)}) | ${change(before, after)} |`;
  };
  const notAccepted = (of: MetricsRun[]) =>
    of
      .map(
        (run) =>
          `${run.acceptanceNotAccepted} and ${run.latency.notAccepted} of ${run.latency.sent}`,
      )
      .join("; ");
  const load = (run: MetricsRun) =>
    `${run.metrics ? "on" : "off"} ${run.load.map((value) => value.toFixed(2)).join(" → ")}`;
  return [
    `Last run: ${machine.date}, \`${benchCommand("bench:webhooks")}\`, on ${provider}. ${machine.cpuCount} × ${machine.cpuModel}, ${machine.os}, Node ${machine.node}; ${machine.pinning}.`,
    "",
    "Four runs in the order off, on, on, off, each on a fresh database and server; the mean of each side, the runs in brackets.",
    "",
    `| Webhooks | Metrics off | Metrics on (scraped every ${SCRAPE_INTERVAL_MS / 1000} s) | Change |`,
    "| --- | ---: | ---: | ---: |",
    row("Acceptance, closed loop, 64 connections", (run) => run.acceptedPerSecond, "/s"),
    row("Latency at 300/s: p50", (run) => run.latency.p50, "ms"),
    row("Latency at 300/s: p99", (run) => run.latency.p99, "ms"),
    row("Latency at 300/s: max", (run) => run.latency.max, "ms"),
    "",
    `- Not accepted (acceptance loop, and at 300/s): off ${notAccepted(off)}; on ${notAccepted(on)}.`,
    `- Metrics on: ${on.map((run) => run.scrapes).join(" and ")} scrapes of /metrics answered during the runs. The database gauges are read by the worker, which this benchmark leaves off (SVC_OUTBOX_WORKER=off), as a deployment with workers does.`,
    `- The machine's load (1-minute average) before → after each run, in order: ${runs.map(load).join("; ")}. With other work on the machine, the same setting varies from run to run by more than the issue's 5 % bound: such runs can neither show nor refute it.`,
  ].join("\n");
}

/**
 * Polls the delivered count until nothing is pending, delivering or failed. The rate leaves
 * out the first deliveries (worker start-up, JIT warm-up).
 */
async function measureDrain(
  db: AppPrismaClient,
  worker: AppProcess,
  expected: number,
  workerLog: string,
) {
  let mark: { at: number; delivered: number } | null = null;
  let progress = { at: performance.now(), delivered: 0 };
  for (;;) {
    await sleep(LOAD.drainPollMs);
    const byStatus = await countOutboxEventsByStatus(db, SHOP);
    const at = performance.now();
    const delivered = byStatus.delivered ?? 0;
    const open = (byStatus.pending ?? 0) + (byStatus.delivering ?? 0) + (byStatus.failed ?? 0);
    const broken = (byStatus.dead ?? 0) + (byStatus.unprocessable ?? 0) + (byStatus.failed ?? 0);
    if (broken) {
      throw new BenchmarkError(
        `Drain: events failed or dead: ${JSON.stringify(byStatus)}; see ${workerLog}`,
      );
    }
    if (worker.exitCode() !== undefined) {
      throw new BenchmarkError(
        `Drain: the worker exited (code ${worker.exitCode()}); see ${workerLog}`,
      );
    }
    if (!mark && delivered >= LOAD.drainWarmUpEvents) mark = { at, delivered };
    if (open === 0) {
      if (delivered !== expected) {
        throw new BenchmarkError(`Drain: ${delivered} delivered, expected ${expected}`);
      }
      if (!mark || delivered === mark.delivered) {
        throw new BenchmarkError("Drain: too few events to measure a rate");
      }
      const measuredMs = at - mark.at;
      const measuredEvents = delivered - mark.delivered;
      return {
        doneAt: at,
        measuredMs,
        measuredEvents,
        perSecond: measuredEvents / (measuredMs / 1000),
      };
    }
    if (delivered > progress.delivered) progress = { at, delivered };
    else if (at - progress.at > LOAD.drainStallMs) {
      throw new BenchmarkError(
        `Drain: no progress for ${LOAD.drainStallMs / 1000} s at ${JSON.stringify(byStatus)}; see ${workerLog}`,
      );
    }
  }
}

/**
 * The emulator must hold every accepted order exactly once, and nothing else but orders whose
 * delivery was not accepted yet was stored: one placement per delivered event.
 */
async function checkEmulatorPlacements(
  emulator: RunningEmulator,
  accepted: Set<string>,
  notAccepted: Set<string>,
  delivered: number,
) {
  const response = await fetch(`${emulator.url}__emulator/state?environment=sandbox`);
  const state = (await response.json()) as {
    orders: { order_id: string; placement_count: number }[];
  };
  const placed = new Set(state.orders.map((order) => order.order_id));
  const missing = [...accepted].filter((id) => !placed.has(id)).length;
  const unknown = [...placed].filter((id) => !accepted.has(id) && !notAccepted.has(id)).length;
  const repeated = state.orders.filter((order) => order.placement_count !== 1).length;
  if (missing || unknown || repeated || state.orders.length !== delivered) {
    throw new BenchmarkError(
      `Emulator: ${state.orders.length} orders for ${delivered} delivered events; ${missing} accepted orders never placed, ${repeated} placed more than once, ${unknown} unknown`,
    );
  }
  return `Emulator: ${state.orders.length} orders, one per delivered event, each placed exactly once (placement_count 1), every accepted order among them`;
}

/** Server and worker logs; kept when the run fails. */
let logsDir: string | null = null;

async function main() {
  const providers = databasesOption(options.db);
  ensureBuild(ROOT);
  const pinning = decidePinning();
  console.log(`Pinning: ${pinning.description}`);
  const workDir = mkdtempSync(path.join(os.tmpdir(), "svc-bench-"));
  logsDir = workDir;
  const profileDir = options.profile
    ? path.join(os.tmpdir(), `svc-bench-profiles-${process.pid}`)
    : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const emulator = await startEmulator({
    sandboxKey: EMULATOR_SANDBOX_KEY,
    liveKey: EMULATOR_LIVE_KEY,
    port: 0,
    host: "127.0.0.1",
  });
  const closeEmulator = onCleanup(() => emulator.close());
  const apiSecret = randomBytes(24).toString("hex");
  const template = readLifecycleFixture("orders-create.json");
  const context: RunContext = {
    emulator,
    factory: new OrderWebhookFactory(template, SHOP, apiSecret, 7_000_000_000_000),
    apiSecret,
    pinning,
    workDir,
    profileDir,
  };

  const results: DatabaseResult[] = [];
  if (!options["metrics-only"]) {
    for (const provider of providers) results.push(await benchDatabase(provider, context));
  }
  const metricsRuns: MetricsRun[] = [];
  // Off, on, on, off: a drift of the machine's load over the runs weighs on both sides alike.
  for (const metrics of [false, true, true, false]) {
    metricsRuns.push(await benchMetricsOverhead(providers[0]!, context, metrics));
  }
  await closeEmulator();

  const machine = describeMachine(pinning.description);
  const docs = path.join(ROOT, "docs/performance.md");
  if (results.length) {
    const command = `npm run bench:webhooks -- --db ${options.db}`;
    const section = renderSection(machine, command, results);
    await writeMarkedSection(docs, SECTION.name, SECTION.heading, section);
    console.log(`\n${SECTION.heading}\n\n${section}\n`);
  }
  const metricsSection = renderMetricsSection(machine, providers[0]!, metricsRuns);
  await writeMarkedSection(docs, METRICS_SECTION.name, METRICS_SECTION.heading, metricsSection);
  console.log(`\n${METRICS_SECTION.heading}\n\n${metricsSection}\n`);
  console.log(`Written to ${path.relative(ROOT, docs)}.`);
  if (profileDir) console.log(`CPU profiles: ${profileDir}`);
  rmSync(workDir, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    void cleanUpAll().then(() => process.exit(130));
  });
}

try {
  await main();
  process.exitCode = 0;
} catch (error) {
  console.error(error instanceof BenchmarkError ? `Benchmark failed: ${error.message}` : error);
  if (logsDir) console.error(`Server and worker logs: ${logsDir}`);
  process.exitCode = 1;
} finally {
  await cleanUpAll();
}
process.exit();
