import { rmSync } from "node:fs";
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
 * Runs `main`, then every cleanup, and exits. `logDir()` names the directory of logs to point at
 * on a failure and to remove when stopped.
 */
export async function runBenchmark(main: () => Promise<void>, logDir: () => string | null) {
  /** Set when a signal or an unhandled rejection stops the run: the exit code it ends with. */
  let stopping: number | null = null;
  const stop = (code: number) => {
    if (stopping !== null) return;
    stopping = code;
    void cleanUpAll().then(() => {
      const dir = logDir();
      if (dir) rmSync(dir, { recursive: true, force: true });
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
    await main();
    process.exitCode = 0;
  } catch (error) {
    // Stopping Chromium under a running Lighthouse makes it throw: not a failure to report.
    if (stopping === null) {
      console.error(error instanceof BenchmarkError ? `Benchmark failed: ${error.message}` : error);
      const dir = logDir();
      if (dir) console.error(`Logs: ${dir}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanUpAll();
  }
  // When stopping, stop() exits once its cleanup is done.
  if (stopping === null) process.exit();
}
