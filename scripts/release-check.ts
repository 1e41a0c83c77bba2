// npm run test:release [-- --keep] [-- --release-dir <dir>]
//
// Boots the release as production runs it (decision 040). scripts/release.sh assembles it in a
// temporary directory (production dependencies only, as the Docker image's runtime stage); the
// release step migrates a fresh PostgreSQL database through DIRECT_DATABASE_URL; the release's
// own CLI connects a shop; then two web processes and two workers run with NODE_ENV=production
// against the protection-service emulator. One signed orders/create delivery goes to web #1 and
// the same delivery again to web #2: the emulator must receive its order_placed exactly once.
// Each process must stop on SIGTERM with exit 0. Exit 0 when every check passes, 1 otherwise;
// nothing is left running either way.
//   --keep               keep the release directory (its logs/ say what each process wrote)
//   --release-dir <dir>  boot a release already assembled there instead of assembling one

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "../emulator/server";
import type { EnvironmentSnapshot, RecordedRequest } from "../emulator/state";
import { LIVE_KEY, SANDBOX_KEY } from "../emulator/test-support";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../test/support/databases";
import { shopifyFixturesDir } from "../test/support/test-env";
import { childPids, freePort, isAlive, settlesWithin } from "./bench/processes";
import { releaseCommand, SVC_SCRIPT } from "./release/commands";

const ROOT = path.resolve(import.meta.dirname, "..");
const SHOP = "release-check.myshopify.com";
const ORDER_FIXTURE = path.join(
  shopifyFixturesDir,
  "orders_create",
  "real-eur-qty2_qrshirt_app.json",
);
const ASSEMBLE_TIMEOUT_MS = 15 * 60_000;
const HEALTHY_TIMEOUT_MS = 60_000;
const DELIVERY_TIMEOUT_MS = 30_000;
// After the first copy arrives, this long for a second one: several polls of every worker.
const SETTLE_MS = 4_000;
const STOP_TIMEOUT_MS = 30_000;

class CheckFailed extends Error {}

const startedAt = performance.now();
function say(message: string) {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).padStart(6);
  console.log(`[${seconds} s] ${message}`);
}
function fail(message: string): never {
  throw new CheckFailed(message);
}

interface ReleaseProcess {
  name: string;
  child: ChildProcess;
  logPath: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ReleaseProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

/** Starts `node <args>` in the release directory, its output to logs/<name>.log. */
function startProcess(
  releaseDir: string,
  name: string,
  command: string[],
  env: NodeJS.ProcessEnv,
): ReleaseProcess {
  const logPath = path.join(releaseDir, "logs", `${name}.log`);
  const log = openSync(logPath, "a");
  // The release carries no node: the image's, here the one running this check (Node 22).
  const child = spawn(process.execPath, command.slice(1), {
    cwd: releaseDir,
    env,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const exited = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const started = { name, child, logPath, exited };
  running.push(started);
  return started;
}

function logOf(process: ReleaseProcess): string {
  return existsSync(process.logPath) ? readFileSync(process.logPath, "utf8") : "";
}

function tail(text: string, lines = 30): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** Runs a one-shot command of the release (the release step, the CLI) to its end. */
async function runToEnd(
  releaseDir: string,
  name: string,
  command: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<string> {
  const job = startProcess(releaseDir, name, command, env);
  if (!(await settlesWithin(job.exited, timeoutMs))) {
    fail(`${name} did not finish within ${timeoutMs / 1000} s:\n${tail(logOf(job))}`);
  }
  const { code, signal } = await job.exited;
  running.splice(running.indexOf(job), 1);
  if (code !== 0) fail(`${name} exited with ${code ?? signal}:\n${tail(logOf(job))}`);
  return logOf(job);
}

function assembleRelease(releaseDir: string) {
  say(`assembling the release: bash scripts/release.sh ${releaseDir}`);
  const assembled = spawnSync("bash", [path.join(ROOT, "scripts/release.sh"), releaseDir], {
    cwd: ROOT,
    stdio: "inherit",
    timeout: ASSEMBLE_TIMEOUT_MS,
  });
  if (assembled.status !== 0) {
    fail(`scripts/release.sh exited with ${assembled.status ?? assembled.signal}`);
  }
}

/** The release holds production dependencies only, and nothing above it could stand in. */
function checkProductionDependencies(releaseDir: string) {
  for (let dir = path.dirname(releaseDir); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "node_modules"))) {
      fail(`${dir}/node_modules would resolve what the release lacks: use another directory`);
    }
    if (dir === path.dirname(dir)) break;
  }
  const lockfile = JSON.parse(readFileSync(path.join(releaseDir, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const devOnly = Object.entries(lockfile.packages).filter(([, entry]) => entry.dev === true);
  const installed = devOnly.filter(([key]) => existsSync(path.join(releaseDir, key)));
  if (installed.length) {
    fail(
      `the release holds development packages: ${installed
        .slice(0, 5)
        .map(([key]) => key)
        .join(", ")}`,
    );
  }
  for (const required of ["build/server/index.js", "app/generated", "prisma/migrations"]) {
    if (!existsSync(path.join(releaseDir, required))) fail(`the release lacks ${required}`);
  }
  say(
    `production dependencies only: none of the lockfile's ${devOnly.length} development packages is installed`,
  );
}

async function waitForHealthy(web: ReleaseProcess, port: number) {
  for (const started = Date.now(); ;) {
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) return;
    if (hasExited(web)) {
      fail(`${web.name} exited before it was healthy:\n${tail(logOf(web))}`);
    }
    if (Date.now() - started > HEALTHY_TIMEOUT_MS) {
      fail(
        `${web.name} did not answer /healthz 200 within ${HEALTHY_TIMEOUT_MS / 1000} s:\n${tail(logOf(web))}`,
      );
    }
    await sleep(250);
  }
}

/** The web process's own account of how it runs: its "listening" log line (JSON). */
function checkProductionMode(web: ReleaseProcess) {
  const lines = logOf(web)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const listening = lines.find((line) => line.msg === "svc-protection is listening");
  if (!listening) fail(`${web.name} logged no JSON "listening" line:\n${tail(logOf(web))}`);
  if (listening.nodeEnv !== "production" || listening.react !== "production") {
    fail(
      `${web.name} runs with NODE_ENV=${String(listening.nodeEnv)} and React's ${String(listening.react)} build, not production`,
    );
  }
}

/** A server-rendered page: React and Remix from the production dependencies, no dev client. */
async function checkRenderedPage(port: number) {
  const answer = await fetch(`http://127.0.0.1:${port}/auth/login`);
  const html = await answer.text();
  if (answer.status !== 200 || !html.includes("<html")) {
    fail(`GET /auth/login answered ${answer.status}: ${html.slice(0, 200)}`);
  }
  if (/@vite\/client|react-refresh/.test(html))
    fail("GET /auth/login loads Vite's development client");
}

async function emulatorState(emulator: RunningEmulator): Promise<EnvironmentSnapshot> {
  const answer = await fetch(`${emulator.url}__emulator/state?environment=sandbox`);
  return (await answer.json()) as EnvironmentSnapshot;
}

async function orderPlacedRequests(emulator: RunningEmulator, orderId: string) {
  const answer = await fetch(`${emulator.url}__emulator/requests`);
  const { requests } = (await answer.json()) as { requests: RecordedRequest[] };
  return requests.filter((request) => {
    const body = request.body as { type?: string; payload?: { order_id?: string } } | null;
    return body?.type === "order_placed" && body.payload?.order_id === orderId;
  });
}

async function stopAll() {
  const stopping = running.splice(0);
  const problems: string[] = [];
  const live = stopping.filter((job) => {
    if (!hasExited(job)) return true;
    const early = `${job.name} had already exited with ${job.child.exitCode ?? job.child.signalCode}`;
    problems.push(`${early}:\n${tail(logOf(job), 15)}`);
    return false;
  });
  const descendants = new Map(live.map((job) => [job, descendantPids(job.child.pid)]));
  for (const job of live) job.child.kill("SIGTERM");
  for (const job of live) {
    if (!(await settlesWithin(job.exited, STOP_TIMEOUT_MS))) {
      job.child.kill("SIGKILL");
      problems.push(`${job.name} did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
    }
    const { code, signal } = await job.exited;
    if (code !== 0) {
      problems.push(
        `${job.name} exited with ${code ?? signal} on SIGTERM:\n${tail(logOf(job), 15)}`,
      );
    }
    // tsx's esbuild service ends when its parent has gone: a moment, not a stop of its own.
    const left = await stillAlive(descendants.get(job) ?? [], 3_000);
    for (const pid of left) {
      process.kill(pid, "SIGKILL");
      problems.push(`${job.name} left process ${pid} running`);
    }
  }
  return { stopped: live.map((job) => job.name), problems };
}

function hasExited(job: ReleaseProcess): boolean {
  return job.child.exitCode !== null || job.child.signalCode !== null;
}

/** The pids still alive after waiting up to `ms` for them to end. */
async function stillAlive(pids: number[], ms: number): Promise<number[]> {
  for (const started = Date.now(); ; await sleep(100)) {
    const alive = pids.filter(isAlive);
    if (!alive.length || Date.now() - started > ms) return alive;
  }
}

function descendantPids(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  return childPids(pid).flatMap((child) => [child, ...descendantPids(child)]);
}

async function main(): Promise<void> {
  const { values: options } = parseArgs({
    options: { keep: { type: "boolean", default: false }, "release-dir": { type: "string" } },
  });
  const given = options["release-dir"] ? path.resolve(options["release-dir"]) : undefined;
  const releaseDir = given ?? path.join(mkdtempSync(path.join(os.tmpdir(), "svc-release-")), "app");
  if (!given) {
    if (!options.keep)
      cleanups.push(async () => rmSync(path.dirname(releaseDir), { recursive: true, force: true }));
    assembleRelease(releaseDir);
  }
  mkdirSync(path.join(releaseDir, "logs"), { recursive: true });
  checkProductionDependencies(releaseDir);

  const database: ThrowawayDatabase = await createThrowawayDatabase("postgresql");
  cleanups.push(() => database.drop());
  const emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY });
  cleanups.push(() => emulator.close());
  const webPorts = [await freePort(), await freePort()];
  say(`database ${new URL(database.url).pathname.slice(1)}; emulator ${emulator.url}`);

  // What the platform gives every process: nothing from this shell but PATH and HOME.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    DATABASE_URL: database.url,
    SVC_MIGRATE_ON_START: "false",
    SHOPIFY_API_KEY: "release-check-client-id",
    SHOPIFY_API_SECRET: randomBytes(24).toString("hex"),
    SHOPIFY_APP_URL: `http://127.0.0.1:${webPorts[0]}`,
    SVC_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    SVC_BASE_URL: emulator.url,
  };

  // The release step reaches the database through DIRECT_DATABASE_URL alone: DATABASE_URL names
  // a database that does not exist, so a run that used it would fail, and the servers below,
  // which refuse to start with a migration pending, prove it migrated the right one.
  const pooled = new URL(database.url);
  pooled.pathname = `${pooled.pathname}_not_created`;
  const release = await runToEnd(releaseDir, "release", releaseCommand(releaseDir, "release"), {
    ...env,
    DATABASE_URL: pooled.toString(),
    DIRECT_DATABASE_URL: database.url,
  });
  say(`release step: ${lastLine(release)}`);

  const connected = await runToEnd(
    releaseDir,
    "svc-shop-connect",
    [
      ...releaseCommand(releaseDir, SVC_SCRIPT),
      "shop:connect",
      "--shop",
      SHOP,
      "--environment",
      "sandbox",
      // From the environment, as an operator should give it: an argument shows in ps.
      "--secret-key-env",
      "RELEASE_CHECK_SANDBOX_KEY",
    ],
    { ...env, RELEASE_CHECK_SANDBOX_KEY: SANDBOX_KEY },
  );
  say(`the release's CLI connected ${SHOP}: ${connected.split("\n")[0]}`);

  const webs = webPorts.map((port, index) =>
    startProcess(releaseDir, `web-${index + 1}`, releaseCommand(releaseDir, "web"), {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_OUTBOX_WORKER: "off",
    }),
  );
  const workers = [1, 2].map((index) =>
    startProcess(releaseDir, `worker-${index}`, releaseCommand(releaseDir, "worker"), env),
  );
  await Promise.all(webs.map((web, index) => waitForHealthy(web, webPorts[index]!)));
  for (const worker of workers.filter(hasExited)) {
    fail(
      `${worker.name} exited with ${worker.child.exitCode ?? worker.child.signalCode}:\n${tail(logOf(worker))}`,
    );
  }
  for (const web of webs) checkProductionMode(web);
  await checkRenderedPage(webPorts[0]!);
  say(
    `2 web processes (ports ${webPorts.join(", ")}) answer /healthz 200 and render with NODE_ENV=production and React's production build; 2 workers running`,
  );

  const orderId = String((JSON.parse(readFileSync(ORDER_FIXTURE, "utf8")) as { id: number }).id);
  const delivery = { webhookId: randomUUID(), eventId: randomUUID() };
  for (const [index, port] of webPorts.entries()) {
    const sent = await runToEnd(
      releaseDir,
      `svc-webhook-send-${index + 1}`,
      [
        ...releaseCommand(releaseDir, SVC_SCRIPT),
        "webhook:send",
        "--shop",
        SHOP,
        "--topic",
        "orders/create",
        "--file",
        ORDER_FIXTURE,
        "--url",
        `http://127.0.0.1:${port}`,
        "--webhook-id",
        delivery.webhookId,
        "--event-id",
        delivery.eventId,
      ],
      env,
    );
    say(`web-${index + 1}: ${lastLine(sent)}`);
  }

  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  while (!(await emulatorState(emulator)).orders.some((order) => order.order_id === orderId)) {
    if (Date.now() > deadline) {
      fail(`order ${orderId} did not reach the emulator within ${DELIVERY_TIMEOUT_MS / 1000} s`);
    }
    await sleep(250);
  }
  await sleep(SETTLE_MS);
  const order = (await emulatorState(emulator)).orders.find((entry) => entry.order_id === orderId)!;
  const placed = order.events.filter((event) => event.type === "order_placed").length;
  const sends = (await orderPlacedRequests(emulator, orderId)).length;
  if (placed !== 1 || order.placement_count !== 1 || sends !== 1) {
    fail(
      `order ${orderId}: the emulator stored ${placed} order_placed (placement count ${order.placement_count}) from ${sends} requests; expected exactly 1`,
    );
  }
  say(
    `order ${orderId}: the emulator received order_placed exactly once from 2 copies of one delivery`,
  );

  const { stopped, problems } = await stopAll();
  if (problems.length) fail(problems.join("\n"));
  say(`SIGTERM: ${stopped.join(", ")} exited 0, and left no process behind`);
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}

async function cleanUp() {
  const { problems } = await stopAll();
  for (const problem of problems) console.error(problem);
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: unknown) => console.error("Clean-up failed:", error));
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    void cleanUp().then(() => process.exit(130));
  });
}
try {
  await main();
  say("release check passed");
} catch (error) {
  console.error(error instanceof CheckFailed ? `Release check failed: ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
process.exit();
