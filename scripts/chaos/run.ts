// npm run chaos -- [--orders 2000] [--seed 13] [--workers 2] [--rate 15] [--drain-timeout-s 600]
// npm run test:chaos (the CI size: --orders 150)
//
// Replays order lifecycles as Shopify would (duplicates, follow-ups before their orders/create,
// re-sends until a 2xx) against the built web server and worker processes on a throwaway
// PostgreSQL database, while the emulator and this script inject faults. Then it compares what
// the emulator stored with what Shopify reported, prints the counts, and exits 1 on any lost
// event, unallowed duplicate, order whose first event was not order_placed, or time-out.
// What each fault is and why: docs/reliability.md.

import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { createSecretBox } from "../../app/crypto/secret-box.server";
import { createPrismaClient, type AppPrismaClient } from "../../app/db/client.server";
import { migrateDatabase } from "../../app/db/migrate.server";
import {
  saveConnectionKeys,
  switchConnectionEnvironment,
} from "../../app/models/ShopConnection.server";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import type { RecordedRequest } from "../../emulator/state";
import { createThrowawayDatabase } from "../../test/support/databases";
import { ensureBuild, freePort, servingPid, waitForHealthy } from "../bench/processes";
import { BenchmarkError, positiveInteger } from "../bench/stats";
import {
  ROOT,
  exitOf,
  onCleanUp,
  runChaos,
  say,
  spawnWeb,
  spawnWorker,
  type Cluster,
} from "./cluster";
import { buildScenario, type Delivery, type Scenario } from "./scenario";
import { allowedDuplicates, judge, type Environment, type Verdict } from "./verdict";

const SHOP = "svc-chaos.myshopify.com";
const SANDBOX_KEY = "sk_test_svc_chaos";
const LIVE_KEY = "sk_live_svc_chaos";

// The service time-out is short so that a late answer is a time-out quickly. A claim used to
// hold a whole batch for twice the time-out plus 30 s (36 s here): with 50 events a batch and
// 2 sends at a time, a 40-second slow phase makes a batch outlive that lease, so a worker that
// does not renew its claim per send shares rows with the other worker.
const REQUEST_TIMEOUT_MS = 3_000;
const SLOW_SEND_MS = 2_500;
const SLOW_PHASE_MS = 40_000;
const LATE_ANSWER_MS = REQUEST_TIMEOUT_MS + 1_500;
const SIMULATED_PAUSE_HOURS = 73;

const options = parseArgs({
  options: {
    orders: { type: "string", default: "2000" },
    seed: { type: "string", default: "13" },
    workers: { type: "string", default: "2" },
    concurrency: { type: "string", default: "6" },
    rate: { type: "string", default: "15" },
    "drain-timeout-s": { type: "string", default: "600" },
  },
}).values;

function integerOption(name: keyof typeof options, minimum: number): number {
  return positiveInteger(name, options[name], minimum);
}

class ChaosError extends BenchmarkError {
  override name = "ChaosError";
}

// ---------------------------------------------------------------------------------------------
// Build and processes

// ---------------------------------------------------------------------------------------------
// Shopify: signed deliveries, re-sent until a 2xx

interface ShopifyStats {
  attempts: number;
  notAccepted: number;
  /** Deliveries that never got a 2xx within the give-up time. */
  abandoned: number;
}

const GIVE_UP_MS = 180_000;

async function deliverUntilAccepted(
  port: number,
  apiSecret: string,
  delivery: Delivery,
  stats: ShopifyStats,
): Promise<boolean> {
  const started = performance.now();
  for (let attempt = 1; performance.now() - started < GIVE_UP_MS; attempt += 1) {
    stats.attempts += 1;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/webhooks/${delivery.topic}`, {
        method: "POST",
        headers: shopifyWebhookHeaders({
          topic: delivery.topic,
          shop: SHOP,
          body: delivery.body,
          secret: apiSecret,
          webhookId: delivery.webhookId,
          eventId: delivery.eventId,
        }),
        body: delivery.body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      if (response.ok) return true;
    } catch {
      // Connection refused or reset (the web process was killed): Shopify tries again later.
    }
    stats.notAccepted += 1;
    await sleep(Math.min(2_000, 200 * attempt));
  }
  stats.abandoned += 1;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Faults

/** One after the other: each fires once its share of deliveries is out and the last one ended. */
interface FaultStep {
  /** Fires once this share of the deliveries was handed out. */
  at: number;
  name: string;
  /** Runs the sender waits for (the environment switch needs every earlier delivery in). */
  barrier?: boolean;
  run: (context: FaultContext) => Promise<string | void>;
}

interface FaultContext {
  emulator: RunningEmulator;
  db: AppPrismaClient;
  cluster: Cluster;
  saveKeys: () => Promise<void>;
  orders: number;
}

async function injectFault(emulator: RunningEmulator, fault: object) {
  const response = await fetch(`${emulator.url}__emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fault),
  });
  if (!response.ok) {
    throw new ChaosError(`Failed to inject fault ${JSON.stringify(fault)}: ${response.status}`);
  }
}

async function emulatorRequests(emulator: RunningEmulator): Promise<RecordedRequest[]> {
  const response = await fetch(`${emulator.url}__emulator/requests`);
  return ((await response.json()) as { requests: RecordedRequest[] }).requests;
}

const few = (context: FaultContext) => Math.max(4, Math.round(context.orders / 30));

/** Every send fails with `status` for 3 s, then five more with `then`. */
function storm(at: number, name: string, status: number, then: number): FaultStep {
  return {
    at,
    name,
    run: async ({ emulator }) => {
      await injectFault(emulator, { duration_ms: 3_000, status });
      await injectFault(emulator, { count: 5, status: then });
      await sleep(3_000);
      return `every send fails with ${status} for 3 s, then 5 × ${then}`;
    },
  };
}

/** A few sends are stored by the service, then answered after the client's time-out. */
function lateAnswers(at: number, name: string): FaultStep {
  return {
    at,
    name,
    run: async (context) => {
      const count = few(context);
      await injectFault(context.emulator, { count, after: "commit", delay_ms: LATE_ANSWER_MS });
      return `${count} events stored, then answered after ${LATE_ANSWER_MS} ms (client time-out ${REQUEST_TIMEOUT_MS} ms)`;
    },
  };
}

function faultPlan(): FaultStep[] {
  return [
    storm(0.1, "5xx storm", 503, 500),
    lateAnswers(0.18, "time-outs after the commit"),
    {
      at: 0.26,
      name: "2xx without event_id",
      run: async (context) => {
        const count = few(context);
        await injectFault(context.emulator, { count, after: "commit", body: {} });
        await injectFault(context.emulator, { count, after: "commit", raw_body: "" });
        await injectFault(context.emulator, { count, after: "commit", status: 202, raw_body: "" });
        return `${count} × 200 {}, ${count} × 200 with an empty body, ${count} × 202 empty (all stored)`;
      },
    },
    {
      at: 0.34,
      name: "slow service",
      run: async ({ emulator }) => {
        await injectFault(emulator, { duration_ms: SLOW_PHASE_MS, delay_ms: SLOW_SEND_MS });
        await sleep(SLOW_PHASE_MS);
        return `every send took ${SLOW_SEND_MS} ms for ${SLOW_PHASE_MS / 1000} s`;
      },
    },
    {
      at: 0.4,
      name: "401 pause over 72 hours, then a reconnect",
      run: async ({ emulator, db, saveKeys }) => {
        const before = (await emulatorRequests(emulator)).length;
        await injectFault(emulator, {
          duration_ms: 4_000,
          status: 401,
          match: { path: "/sandbox/events" },
        });
        await sleep(4_500);
        const refused = (await emulatorRequests(emulator))
          .slice(before)
          .filter((request) => request.status === 401).length;
        // The simulated clock: everything the outbox holds is 73 hours older, as if the pause
        // had lasted that long; then the merchant saves the key again.
        const aged = await db.$executeRawUnsafe(
          `UPDATE "OutboxEvent"
           SET "createdAt" = "createdAt" - interval '${SIMULATED_PAUSE_HOURS} hours',
               "nextAttemptAt" = "nextAttemptAt" - interval '${SIMULATED_PAUSE_HOURS} hours',
               "firstFailedAt" = "firstFailedAt" - interval '${SIMULATED_PAUSE_HOURS} hours'
           WHERE "shop" = $1`,
          SHOP,
        );
        await sleep(1_000);
        await saveKeys();
        return `${refused} sends refused with 401 for 4 s; ${aged} outbox rows aged ${SIMULATED_PAUSE_HOURS} h; keys saved again`;
      },
    },
    {
      at: 0.5,
      name: "switch to production",
      barrier: true,
      run: async ({ db }) => {
        await switchConnectionEnvironment(db, SHOP, "production");
        return "orders placed from now on go to production";
      },
    },
    {
      at: 0.56,
      name: "kill -9 of a worker mid-drain",
      run: async ({ emulator, cluster }) => {
        // Answers held for 2 s: the worker surely has sends in flight when it dies.
        await injectFault(emulator, { duration_ms: 3_000, after: "commit", delay_ms: 2_000 });
        await sleep(1_000);
        const victim = cluster.workers[0]!;
        process.kill(victim.pid, "SIGKILL");
        await exitOf(victim);
        await sleep(500);
        cluster.workers[0] = spawnWorker(cluster, `worker-0-restart-${(cluster.restarts += 1)}`);
        return `worker pid ${victim.pid} killed with sends held in flight; restarted`;
      },
    },
    {
      at: 0.66,
      name: "kill -9 of the web process mid-request",
      run: async ({ cluster }) => {
        const launcher = cluster.web;
        const serving = servingPid(launcher);
        process.kill(serving, "SIGKILL");
        // npm start's launcher exits with its server.
        await exitOf(launcher);
        cluster.restarts += 1;
        cluster.web = spawnWeb(cluster, cluster.restarts);
        await waitForHealthy(cluster.port, cluster.web, 120_000, cluster.logDir);
        return `web server pid ${serving} killed while deliveries were in flight; restarted`;
      },
    },
    storm(0.8, "second 5xx storm", 502, 429),
    lateAnswers(0.9, "time-outs after the commit, again"),
  ];
}

// ---------------------------------------------------------------------------------------------
// The run

interface Replay {
  environmentOf: Map<string, Environment>;
  stats: ShopifyStats;
  faultLog: string[];
  faultErrors: string[];
}

async function replay(scenario: Scenario, context: FaultContext, apiSecret: string) {
  const concurrency = integerOption("concurrency", 1);
  // Paced, so that the faults meet a drain in progress rather than a backlog after the fact.
  const intervalMs = 1000 / integerOption("rate", 1);
  const total = scenario.deliveries.length;
  const steps = faultPlan();
  const stats: ShopifyStats = { attempts: 0, notAccepted: 0, abandoned: 0 };
  const environmentOf = new Map<string, Environment>();
  const faultLog: string[] = [];
  let faultChain: Promise<void> = Promise.resolve();
  let environment: Environment = "sandbox";
  let inFlight = new Set<Promise<void>>();

  const faultErrors: string[] = [];
  // A fault that could not be injected fails the run at the end, after the verdict is printed.
  const runStep = async (step: FaultStep) => {
    say(`fault: ${step.name}`);
    try {
      const outcome = await step.run(context);
      const line = `${step.name}: ${outcome ?? "done"}`;
      faultLog.push(line);
      say(`fault done: ${line}`);
    } catch (error) {
      const line = `${step.name}: FAILED (${error instanceof Error ? error.message : String(error)})`;
      faultLog.push(line);
      faultErrors.push(line);
      say(`fault ${line}`);
    }
  };

  for (const delivery of scenario.deliveries) {
    while (steps.length && delivery.index >= steps[0]!.at * total) {
      const step = steps.shift()!;
      if (step.barrier) {
        await faultChain;
        await Promise.all(inFlight);
        await runStep(step);
        if (step.name === "switch to production") environment = "production";
      } else {
        faultChain = faultChain.then(() => runStep(step));
      }
    }
    await sleep(intervalMs);
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (delivery.topic === "orders/create" && !environmentOf.has(delivery.orderId)) {
      environmentOf.set(delivery.orderId, environment);
    }
    const sending: Promise<void> = deliverUntilAccepted(
      context.cluster.port,
      apiSecret,
      delivery,
      stats,
    ).then(() => {
      inFlight.delete(sending);
    });
    inFlight.add(sending);
  }
  await Promise.all(inFlight);
  inFlight = new Set();
  // Steps the sending never reached (a short run) still happen, on the drain.
  for (const step of steps) faultChain = faultChain.then(() => runStep(step));
  await faultChain;
  return { environmentOf, stats, faultLog, faultErrors } satisfies Replay;
}

async function outboxCounts(db: AppPrismaClient): Promise<Record<string, number>> {
  const rows = await db.$queryRawUnsafe<{ status: string; count: bigint | number }[]>(
    `SELECT "status", COUNT(*) AS "count" FROM "OutboxEvent" WHERE "shop" = $1 GROUP BY "status"`,
    SHOP,
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

/** Waits until nothing is pending, failed or delivering; false at the time limit. */
async function waitForDrain(db: AppPrismaClient, limitMs: number): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  let lastReport = 0;
  while (performance.now() < deadline) {
    const counts = await outboxCounts(db);
    const open = (counts.pending ?? 0) + (counts.failed ?? 0) + (counts.delivering ?? 0);
    if (open === 0) return true;
    if (performance.now() - lastReport > 10_000) {
      say(`draining: ${JSON.stringify(counts)}`);
      lastReport = performance.now();
    }
    await sleep(1_000);
  }
  return false;
}

function printReport(input: {
  scenario: Scenario;
  replay: Replay;
  verdict: Verdict;
  outbox: Record<string, number>;
  drained: boolean;
  workers: number;
}) {
  const { scenario, replay: played, verdict, outbox, drained } = input;
  const placedFirst = verdict.orders - verdict.ordersNotPlacedFirst;
  const percent = verdict.orders ? ((100 * placedFirst) / verdict.orders).toFixed(1) : "100.0";
  const lines = [
    "",
    `Chaos run: seed ${scenario.seed}, ${verdict.orders} order lifecycles, ${input.workers} worker processes + 1 web process, PostgreSQL`,
    `Shopify: ${scenario.deliveries.length} deliveries (${scenario.duplicates} duplicates, ${scenario.early} follow-ups before their orders/create), ${played.stats.attempts} attempts, ${played.stats.notAccepted} not accepted and re-sent, ${played.stats.abandoned} abandoned`,
    "Faults:",
    ...played.faultLog.map((line) => `  - ${line}`),
    `Outbox at the end: ${JSON.stringify(outbox)}${drained ? "" : " (NOT drained within the time limit)"}`,
    "",
    `Events expected:                                   ${verdict.expectedEvents}`,
    `Events stored by the service (copies):             ${verdict.storedEvents}`,
    `Events lost:                                       ${verdict.lost}`,
    `Events stored in the wrong environment:            ${verdict.wrongEnvironment}`,
    `Events of no Shopify action:                       ${verdict.unexpected}`,
    `Duplicates, re-sent after a time-out, same key:    ${verdict.resentAfterTimeout} (allowed)`,
    `Duplicates, re-sent after the sender died, same key: ${verdict.resentAfterCrash} (allowed)`,
    `Duplicates, other:                                 ${verdict.otherDuplicates} (of which ${verdict.duplicatesWithoutSameKey} without the first copy's key)`,
    `Orders with order_placed first:                    ${placedFirst} of ${verdict.orders} (${percent}%)`,
  ];
  if (verdict.examples.length) lines.push("Examples:", ...verdict.examples.map((e) => `  - ${e}`));
  console.log(lines.join("\n"));

  const checks: [string, boolean][] = [
    ["every fault injected", played.faultErrors.length === 0],
    ["every Shopify delivery accepted", played.stats.abandoned === 0],
    ["outbox drained within the time limit", drained],
    ["0 events lost", verdict.lost === 0],
    ["0 events in the wrong environment", verdict.wrongEnvironment === 0],
    ["0 events of no Shopify action", verdict.unexpected === 0],
    [
      "0 duplicates but re-sends of an unknown outcome with the same key",
      verdict.otherDuplicates === 0,
    ],
    ["order_placed first in 100% of orders", verdict.ordersNotPlacedFirst === 0],
  ];
  console.log("");
  for (const [name, ok] of checks) console.log(`${ok ? "PASS" : "FAIL"}  ${name}`);
  const failed = checks.filter(([, ok]) => !ok).length;
  console.log(
    `\n${checks.length - failed} passed, ${failed} failed (allowed re-sends: ${allowedDuplicates(verdict)})`,
  );
  return failed;
}

async function main(): Promise<number> {
  const orders = integerOption("orders", 1);
  const seed = integerOption("seed", 0);
  const workerCount = integerOption("workers", 2);
  const drainLimitMs = integerOption("drain-timeout-s", 1) * 1000;
  const scenario = buildScenario({ orders, seed });
  say(
    `seed ${seed}: ${orders} orders, ${scenario.deliveries.length} deliveries (${scenario.duplicates} duplicates, ${scenario.early} early follow-ups)`,
  );
  ensureBuild(ROOT, say);

  const database = await createThrowawayDatabase("postgresql");
  onCleanUp(() => database.drop());
  const report = await migrateDatabase(database.url);
  say(`database ready (${report.applied.length} migrations)`);
  const db = createPrismaClient(database.url);
  onCleanUp(() => db.$disconnect());

  const emulator = await startEmulator({
    sandboxKey: SANDBOX_KEY,
    liveKey: LIVE_KEY,
    port: 0,
    host: "127.0.0.1",
  });
  onCleanUp(() => emulator.close());

  const encryptionKey = randomBytes(32).toString("base64");
  const apiSecret = randomBytes(24).toString("hex");
  const box = createSecretBox([Buffer.from(encryptionKey, "base64")]);
  const saveKeys = async () => {
    await saveConnectionKeys(db, box, SHOP, {
      sandboxSecretKey: SANDBOX_KEY,
      liveSecretKey: LIVE_KEY,
    });
  };
  await saveConnectionKeys(db, box, SHOP, {
    environment: "sandbox",
    sandboxSecretKey: SANDBOX_KEY,
    liveSecretKey: LIVE_KEY,
  });

  const port = await freePort();
  const logDir = mkdtempSync(path.join(os.tmpdir(), "svc-chaos-"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    SHOPIFY_API_KEY: "svc-chaos-client-id",
    SHOPIFY_API_SECRET: apiSecret,
    // No load balancer in front to see /readyz turn 503: a stop need not wait for one.
    SVC_SHUTDOWN_DELAY_MS: "0",
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database.url,
    SVC_ENCRYPTION_KEY: encryptionKey,
    SVC_BASE_URL: emulator.url,
    SVC_OUTBOX_WORKER: "off",
    SVC_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    SVC_OUTBOX_POLL_MS: "200",
    SVC_OUTBOX_CONCURRENCY: "2",
    SVC_OUTBOX_BATCH_SIZE: "50",
  };
  const base = { env, port, logDir };
  say(`logs: ${logDir}`);
  const cluster: Cluster = {
    ...base,
    web: spawnWeb(base, 0),
    workers: [],
    restarts: 0,
  };
  onCleanUp(async () => {
    await Promise.all([cluster.web, ...cluster.workers].map((app) => app.stop()));
  });
  await waitForHealthy(port, cluster.web, 120_000, logDir);
  for (let n = 0; n < workerCount; n += 1) cluster.workers.push(spawnWorker(base, `worker-${n}`));
  say(`web server on port ${port}, ${workerCount} workers, emulator at ${emulator.url}`);

  const context: FaultContext = { emulator, db, cluster, saveKeys, orders };
  const played = await replay(scenario, context, apiSecret);
  say(
    `all deliveries handed to the app (${played.stats.abandoned} abandoned); waiting for the drain`,
  );
  const drained = await waitForDrain(db, drainLimitMs);
  // Answers still held by the emulator finish before the verdict reads who heard them.
  await sleep(LATE_ANSWER_MS);
  const outbox = await outboxCounts(db);
  const expected = scenario.orderIds.map((orderId) => ({
    orderId,
    environment: played.environmentOf.get(orderId) ?? "sandbox",
  }));
  const verdict = judge(expected, await emulatorRequests(emulator));
  const failed = printReport({
    scenario,
    replay: played,
    verdict,
    outbox,
    drained,
    workers: workerCount,
  });
  if (failed) console.log(`Logs of the web server and the workers: ${logDir}`);
  return failed ? 1 : 0;
}

await runChaos("Chaos run", main);
