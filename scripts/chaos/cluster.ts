import { once } from "node:events";
import path from "node:path";
import { BenchmarkError } from "../bench/stats";
import { spawnAppScript, type AppProcess, type Pinning } from "../bench/processes";

/*
 * What both chaos runs share: the app's web and worker processes they kill and restart, their
 * progress lines, the clean-up that runs however they end, and how they exit.
 */

export const ROOT = path.resolve(import.meta.dirname, "../..");
const NOT_PINNED: Pinning = { cpus: null, description: "not pinned" };

export interface Cluster {
  env: NodeJS.ProcessEnv;
  port: number;
  logDir: string;
  web: AppProcess;
  workers: AppProcess[];
  restarts: number;
}

export type ClusterBase = Pick<Cluster, "env" | "port" | "logDir">;

/** `npm start`, logging to web-<generation>.log. */
export function spawnWeb(cluster: ClusterBase, generation: number) {
  return spawnAppScript({
    npmScript: "start",
    cwd: ROOT,
    env: { ...cluster.env, PORT: String(cluster.port), HOST: "127.0.0.1" },
    pinning: NOT_PINNED,
    logPath: path.join(cluster.logDir, `web-${generation}.log`),
  });
}

/** `npm run worker`, logging to <name>.log. */
export function spawnWorker(cluster: ClusterBase, name: string) {
  return spawnAppScript({
    npmScript: "worker",
    cwd: ROOT,
    env: cluster.env,
    pinning: NOT_PINNED,
    logPath: path.join(cluster.logDir, `${name}.log`),
  });
}

/**
 * Waits for a process to end. Not AppProcess.stop(): after a kill -9, stop() would read the
 * /proc entries of a process that is going away.
 */
export async function exitOf(app: AppProcess): Promise<void> {
  if (app.exitCode() !== undefined) return;
  await once(app.child, "exit");
}

const startedAt = performance.now();

/** A progress line, with the seconds since the run started. */
export function say(message: string) {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).padStart(6);
  console.log(`[${seconds} s] ${message}`);
}

const cleanups: (() => Promise<void>)[] = [];

/** Runs at the end, last registered first, whether the run passed, failed or was stopped. */
export function onCleanUp(cleanup: () => Promise<void>) {
  cleanups.push(cleanup);
}

async function cleanUpAll() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: unknown) => console.error("Cleanup failed:", error));
  }
}

/** Runs `main` to its exit code, cleaning up after it and on SIGINT or SIGTERM. */
export async function runChaos(name: string, main: () => Promise<number>): Promise<never> {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping`);
      void cleanUpAll().then(() => process.exit(130));
    });
  }
  try {
    process.exitCode = await main();
  } catch (error) {
    console.error(error instanceof BenchmarkError ? `${name} failed: ${error.message}` : error);
    process.exitCode = 1;
  } finally {
    await cleanUpAll();
  }
  process.exit();
}
