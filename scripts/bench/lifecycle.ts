import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createThrowawayDatabase } from "../../test/support/databases";
import { BenchmarkError } from "./stats";

// A benchmark's life: cleanups that must run even when the run is interrupted (browsers,
// servers, databases), and the exit code (0 also on a missed target; 1 when the benchmark itself
// failed, 130 when stopped by a signal).

const cleanups = new Set<() => Promise<void>>();

/** Registers a cleanup; the function returned runs it now and forgets it. */
export function onCleanup(cleanup: () => Promise<void>) {
  cleanups.add(cleanup);
  return async () => {
    cleanups.delete(cleanup);
    await cleanup();
  };
}

/** A migrated throwaway SQLite database as the app's DATABASE_URL, dropped at cleanup. */
export async function setUpThrowawaySqlite() {
  const database = await createThrowawayDatabase("sqlite");
  onCleanup(() => database.drop());
  process.env.DATABASE_URL = database.url;
  const { migrateDatabase } = await import("../../app/db/migrate.server");
  await migrateDatabase(database.url);
  return database;
}

let cleaning: Promise<void> | null = null;
/** Runs every cleanup once, newest first; a second caller waits for the same run. */
export function cleanUpAll(): Promise<void> {
  cleaning ??= (async () => {
    for (const cleanup of [...cleanups].reverse()) {
      cleanups.delete(cleanup);
      await cleanup().catch((error: unknown) => console.error("Cleanup failed:", error));
    }
    cleaning = null;
  })();
  return cleaning;
}

/**
 * Runs `main` with a new directory for its logs (Chromium's), then every cleanup, and exits. The
 * directory is removed unless the run failed; then its path is printed.
 */
export async function runBenchmark(name: string, main: (logDir: string) => Promise<void>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `svc-bench-${name}-`));
  const logDir = () => dir;
  /** Set when a signal or an unhandled rejection stops the run: the exit code it ends with. */
  let stopping: number | null = null;
  const stop = (code: number) => {
    if (stopping !== null) return;
    stopping = code;
    void cleanUpAll().then(() => {
      rmSync(logDir(), { recursive: true, force: true });
      process.exit(code);
    });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping`);
      stop(130);
    });
  }
  // Lighthouse leaves protocol calls running; when their Chromium goes away they reject unhandled.
  process.on("unhandledRejection", (reason) => {
    if (stopping !== null) return;
    console.error("Benchmark failed: unhandled rejection:", reason);
    stop(1);
  });

  try {
    await main(dir);
    rmSync(dir, { recursive: true, force: true });
    process.exitCode = 0;
  } catch (error) {
    // Stopping Chromium under a running Lighthouse makes it throw: not a failure to report.
    if (stopping === null) {
      console.error(error instanceof BenchmarkError ? `Benchmark failed: ${error.message}` : error);
      console.error(`Logs: ${logDir()}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanUpAll();
  }
  // When stopping, stop() exits once its cleanup is done.
  if (stopping === null) process.exit();
}
