import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Browser } from "playwright-core";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, launchChromium } from "../../test/storefront/browser";
import { onCleanup } from "./lifecycle";
import { freePort, settlesWithin } from "./processes";
import type { LighthouseMetrics, LighthousePreset } from "./storefront-report";
import { BenchmarkError } from "./stats";

// Lighthouse's Node API on one page in a fresh Debian Chromium per run (its own profile and
// process group), as bench:storefront and bench:dawn measure the theme app extension.

/**
 * Chromium for playwright-core, as the browser tests launch it. The benchmark handles SIGINT and
 * SIGTERM itself (lifecycle.ts): Playwright's own handlers would exit before the database and
 * servers are cleaned up.
 */
export function launchBenchChromium(): Promise<Browser> {
  return launchChromium({ handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}

interface DebugChromium {
  port: number;
  close(): Promise<void>;
}

async function launchDebugChromium(logDir: string): Promise<DebugChromium> {
  const chromiumPath = CHROMIUM_PATH;
  const profile = mkdtempSync(path.join(os.tmpdir(), "svc-bench-chromium-"));
  const port = await freePort();
  const log = createWriteStream(path.join(logDir, "chromium.log"), { flags: "a" });
  const child: ChildProcess = spawn(
    chromiumPath,
    [
      ...CHROMIUM_FLAGS,
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const pid = child.pid;
  if (pid === undefined) throw new BenchmarkError(`Failed to start ${chromiumPath}`);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // Its own process group (detached): the browser and the renderers it started.
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-pid, name);
      } catch {
        // Already gone.
      }
    };
    signal("SIGTERM");
    if (!(await settlesWithin(exited, 5_000))) signal("SIGKILL");
    await settlesWithin(exited, 5_000);
    signal("SIGKILL");
    rmSync(profile, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new BenchmarkError(
        `Chromium exited (code ${child.exitCode}); see ${logDir}/chromium.log`,
      );
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/version`);
      await response.arrayBuffer();
      if (response.ok) return { port, close };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await close();
      throw new BenchmarkError("Chromium's DevTools port did not open within 30 s");
    }
    await sleep(100);
  }
}

export interface LighthouseRunOptions {
  url: string;
  preset: LighthousePreset;
  /** Chromium's log goes to `chromium.log` here. */
  logDir: string;
  /** Part of the URL of every script of the extension, for its `bootup-time` share. */
  extensionAssets: string;
  /** Sent with every request of the page, e.g. a `Cookie` with the buyer's cart. */
  extraHeaders?: Record<string, string>;
  /**
   * The `bootup-time` audit lists a script only from this much CPU time (Lighthouse: 50 ms). The
   * audit is a diagnostic outside the performance score, so a lower threshold changes no score.
   */
  bootupThresholdMs?: number;
  /** Where to keep the run's whole report (Lighthouse's JSON), to look into a figure. */
  reportFile?: string;
}

export interface LighthouseRunResult {
  metrics: LighthouseMetrics;
  version: string;
  /** The preset's form factor, screen and throttling, as a line for the report. */
  settings: string;
}

export async function runLighthouse(options: LighthouseRunOptions): Promise<LighthouseRunResult> {
  const { default: lighthouse, desktopConfig } = await import("lighthouse");
  const { preset, extensionAssets } = options;
  const base = preset === "desktop" ? desktopConfig : undefined;
  const config =
    options.bootupThresholdMs === undefined
      ? base
      : {
          ...(base ?? { extends: "lighthouse:default" as const }),
          audits: [{ path: "bootup-time", options: { thresholdInMs: options.bootupThresholdMs } }],
        };
  const debugChromium = await launchDebugChromium(options.logDir);
  const closeChromium = onCleanup(() => debugChromium.close());
  try {
    const result = await lighthouse(
      options.url,
      {
        port: debugChromium.port,
        hostname: "127.0.0.1",
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
        ...(options.extraHeaders ? { extraHeaders: options.extraHeaders } : {}),
      },
      config,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new BenchmarkError("Lighthouse gave no result");
    if (lhr.runtimeError) {
      throw new BenchmarkError(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    }
    if (options.reportFile) writeFileSync(options.reportFile, JSON.stringify(lhr));
    const score = lhr.categories.performance?.score;
    if (typeof score !== "number") throw new BenchmarkError("Lighthouse gave no performance score");
    const value = (id: string) => {
      const numeric = lhr.audits[id]?.numericValue;
      if (typeof numeric !== "number")
        throw new BenchmarkError(`Lighthouse audit ${id} has no value`);
      return numeric;
    };
    const items = (id: string) =>
      (lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
    const renderBlocking = items("render-blocking-insight")
      .map((item) => item.url)
      .filter((url): url is string => typeof url === "string");
    const extensionScriptMs = items("bootup-time")
      .filter((item) => String(item.url).includes(extensionAssets))
      .reduce((sum, item) => sum + (typeof item.total === "number" ? item.total : 0), 0);
    const lcpNode = (
      lhr.audits["lcp-breakdown-insight"]?.details as
        { items?: { type?: string; selector?: string; nodeLabel?: string }[] } | undefined
    )?.items?.find((item) => item.type === "node");
    const lcpElement = lcpNode
      ? `${(lcpNode.selector ?? "").split(" > ").pop() ?? ""} "${lcpNode.nodeLabel ?? ""}"`
      : "not reported";
    const observed = (
      lhr.audits.metrics?.details as { items?: Record<string, unknown>[] } | undefined
    )?.items?.[0];
    const observedMs = (key: string) =>
      typeof observed?.[key] === "number" ? observed[key] : Number.NaN;
    const throttling = lhr.configSettings.throttling;
    return {
      metrics: {
        score: Math.round(score * 100),
        fcpMs: value("first-contentful-paint"),
        lcpMs: value("largest-contentful-paint"),
        tbtMs: value("total-blocking-time"),
        cls: value("cumulative-layout-shift"),
        speedIndexMs: value("speed-index"),
        renderBlocking,
        extensionScriptMs,
        lcpElement,
        observedFcpMs: observedMs("observedFirstContentfulPaint"),
        observedLcpMs: observedMs("observedLargestContentfulPaint"),
        serverResponseMs: value("server-response-time"),
        benchmarkIndex: lhr.environment.benchmarkIndex,
      },
      version: lhr.lighthouseVersion,
      settings:
        `${preset}: ${lhr.configSettings.formFactor} ${lhr.configSettings.screenEmulation.width}×${lhr.configSettings.screenEmulation.height}, ${lhr.configSettings.throttlingMethod} throttling ` +
        `(${throttling.rttMs} ms RTT, ${oneDecimal(throttling.throughputKbps)} kbps, CPU ×${throttling.cpuSlowdownMultiplier})`,
    };
  } finally {
    await closeChromium();
  }
}

const oneDecimal = (value: number | undefined) =>
  (value ?? Number.NaN).toFixed(1).replace(/\.0$/, "");
