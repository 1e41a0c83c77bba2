import os from "node:os";
import path from "node:path";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import prettier from "prettier";
import type { DatabaseProvider } from "../../app/lib/database-url";
import { DISTURBED_CPUS, type CpuShares } from "./cpu";

export const TARGETS = {
  acceptedPerSecond: 1_000,
  p99Ms: 50,
  drainPerSecond: 500,
  peakRssBytes: 300 * 1_000_000,
};

export interface MachineInfo {
  date: string;
  cpuModel: string;
  cpuCount: number;
  totalMemoryBytes: number;
  os: string;
  node: string;
  pinning: string;
}

/** Where the machine's CPU went in a phase: the app's process (server or worker), this one, PostgreSQL. */
export type AppCpuShares = CpuShares<"app" | "loadGenerator" | "postgres">;

export interface DatabaseResult {
  provider: DatabaseProvider;
  acceptance: {
    connections: number;
    accepted: number;
    /** Sent but answered 5xx or not at all. */
    notAccepted: number;
    elapsedMs: number;
    perSecond: number;
    serverCpuPerRequestMs: number;
  };
  latency: {
    ratePerSecond: number;
    durationMs: number;
    sent: number;
    /** Sent but answered 5xx or not at all (connection reset, time-out). */
    notAccepted: number;
    /** "4255 × 200, 245 × 500". */
    answers: string;
    p50: number;
    p95: number;
    p99: number;
    max: number;
    maxSendLagMs: number;
  };
  drain: { events: number; measuredEvents: number; perSecond: number; wallMs: number };
  peakRss: {
    serverBytes: number;
    /** VmRSS once the server first answered /healthz. */
    serverIdleBytes: number;
    /** VmHWM after warm-up and acceptance, before the latency run. */
    serverAfterAcceptanceBytes: number;
    workerBytes: number;
  };
  /** Where the machine's CPU time went in each measured phase. */
  cpu: { acceptance: AppCpuShares; latency?: AppCpuShares; drain?: AppCpuShares };
  /** What was verified, one line each. */
  checks: string[];
}

export const DATABASE_NAMES: Record<DatabaseProvider, string> = {
  sqlite: "SQLite",
  postgresql: "PostgreSQL",
};

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

function verdict(pass: boolean) {
  return pass ? "PASS" : "MISS";
}

function ms(value: number) {
  return `${oneDecimal.format(value)} ms`;
}

function megabytes(bytes: number) {
  return `${integer.format(bytes / 1_000_000)} MB`;
}

interface Row {
  measure: string;
  target: string;
  cell(result: DatabaseResult): string;
}

const ROWS: Row[] = [
  {
    measure: "Acceptance throughput (closed loop, 64 connections)",
    target: `≥ ${integer.format(TARGETS.acceptedPerSecond)}/s`,
    cell: ({ acceptance }) => {
      const lost = acceptance.notAccepted
        ? ` (${integer.format(acceptance.notAccepted)} not accepted)`
        : "";
      return `${integer.format(acceptance.perSecond)}/s${lost} ${verdict(acceptance.perSecond >= TARGETS.acceptedPerSecond)}`;
    },
  },
  {
    measure: "Ack latency p50 at 300/s offered (open loop)",
    target: "",
    cell: ({ latency }) => ms(latency.p50),
  },
  { measure: "Ack latency p95 at 300/s", target: "", cell: ({ latency }) => ms(latency.p95) },
  {
    measure: "Ack latency p99 at 300/s",
    target: `≤ ${TARGETS.p99Ms} ms`,
    cell: ({ latency }) => {
      const pass = latency.p99 <= TARGETS.p99Ms && latency.notAccepted === 0;
      const lost = latency.notAccepted
        ? ` (${integer.format(latency.notAccepted)} of ${integer.format(latency.sent)} not accepted)`
        : "";
      return `${ms(latency.p99)}${lost} ${verdict(pass)}`;
    },
  },
  { measure: "Ack latency max at 300/s", target: "", cell: ({ latency }) => ms(latency.max) },
  {
    measure: "Outbox drain, one worker (order_placed events/s)",
    target: `≥ ${TARGETS.drainPerSecond}/s`,
    cell: ({ drain }) =>
      `${integer.format(drain.perSecond)}/s ${verdict(drain.perSecond >= TARGETS.drainPerSecond)}`,
  },
  {
    measure: "Peak RSS, server (VmHWM of the server/serve.ts process)",
    target: `≤ ${megabytes(TARGETS.peakRssBytes)}`,
    cell: ({ peakRss }) =>
      `${megabytes(peakRss.serverBytes)} ${verdict(peakRss.serverBytes <= TARGETS.peakRssBytes)}`,
  },
  {
    measure: "Peak RSS, worker (VmHWM of npm run worker)",
    target: `≤ ${megabytes(TARGETS.peakRssBytes)}`,
    cell: ({ peakRss }) =>
      `${megabytes(peakRss.workerBytes)} ${verdict(peakRss.workerBytes <= TARGETS.peakRssBytes)}`,
  },
];

function resultsTable(results: DatabaseResult[]): string {
  const header = ["Measure", "Target", ...results.map((r) => DATABASE_NAMES[r.provider])];
  const lines = [
    `| ${header.join(" | ")} |`,
    `| ${header.map((_, i) => (i < 2 ? "---" : "--:")).join(" | ")} |`,
    ...ROWS.map((row) => {
      const target = row.target || "(reported)";
      return `| ${[row.measure, target, ...results.map((r) => row.cell(r))].join(" | ")} |`;
    }),
  ];
  return lines.join("\n");
}

function describeCpu(cpu: DatabaseResult["cpu"]): string {
  const phases = Object.entries(cpu).filter((entry): entry is [string, AppCpuShares] => !!entry[1]);
  return phases
    .map(([phase, shares]) => {
      const app = phase === "drain" ? "worker" : "server";
      const pg = shares.postgres >= 0.005 ? `, PostgreSQL ${shares.postgres.toFixed(2)}` : "";
      return `${phase}: ${app} ${shares.app.toFixed(2)}, load generator and emulator ${shares.loadGenerator.toFixed(2)}${pg}, other processes ${shares.other.toFixed(2)}`;
    })
    .join("; ");
}

/** Phases during which other processes used the machine noticeably, e.g. "PostgreSQL acceptance (0.9 CPUs)". */
export function disturbances(results: DatabaseResult[]): string[] {
  return results.flatMap((r) =>
    Object.entries(r.cpu)
      .filter(
        (entry): entry is [string, AppCpuShares] => !!entry[1] && entry[1].other > DISTURBED_CPUS,
      )
      .map(
        ([phase, shares]) =>
          `${DATABASE_NAMES[r.provider]} ${phase} (${shares.other.toFixed(2)} CPUs)`,
      ),
  );
}

export function machineLine(machine: MachineInfo): string {
  const memory = `${oneDecimal.format(machine.totalMemoryBytes / 2 ** 30)} GiB RAM`;
  return `${machine.cpuModel} × ${machine.cpuCount} CPUs, ${memory}, ${machine.os}, Node ${machine.node}`;
}

/** The whole section body: what was run, on what, the table, how, and what was checked. */
export function renderSection(machine: MachineInfo, command: string, results: DatabaseResult[]) {
  const details = results.flatMap((r) => {
    const name = DATABASE_NAMES[r.provider];
    return [
      `- **${name}**: ${integer.format(r.acceptance.accepted)} accepted in ${oneDecimal.format(r.acceptance.elapsedMs / 1000)} s ` +
        `(server CPU ${oneDecimal.format(r.acceptance.serverCpuPerRequestMs)} ms per request); ` +
        `${integer.format(r.latency.sent)} sent at ${r.latency.ratePerSecond}/s over ${oneDecimal.format(r.latency.durationMs / 1000)} s ` +
        `(generator at most ${ms(r.latency.maxSendLagMs)} late); ` +
        `${integer.format(r.drain.events)} events drained in ${oneDecimal.format(r.drain.wallMs / 1000)} s from worker spawn, ` +
        `rate over the last ${integer.format(r.drain.measuredEvents)}. ` +
        `Server RSS ${megabytes(r.peakRss.serverIdleBytes)} when ready, peak ${megabytes(r.peakRss.serverAfterAcceptanceBytes)} after acceptance.`,
      `  - CPU use, in CPUs: ${describeCpu(r.cpu)}`,
      ...r.checks.map((check) => `  - ${check}`),
    ];
  });
  return [
    `Last run: ${machine.date}, \`${command}\`.`,
    "",
    `Machine: ${machineLine(machine)}.`,
    `Pinning: ${machine.pinning}.`,
    ...(disturbances(results).length
      ? [
          "",
          `**Disturbed:** other processes on the machine used CPU during ${disturbances(results).join(", ")}; those figures are lower than on a quiet machine.`,
        ]
      : []),
    "",
    resultsTable(results),
    "",
    "How it is measured, against the built production server (`npm run build`, then `server/start.ts` as `npm start` runs it, `NODE_ENV=production`, `LOG_LEVEL=warn`), one fresh database each, shop connected to the emulator's sandbox:",
    "",
    "- Every request is a real signed `orders/create` (the HMAC is checked) of `test/fixtures/lifecycle/orders-create.json` with its own order id, webhook id and event id.",
    "- Acceptance: `SVC_OUTBOX_WORKER=off`, so only receiving is measured. A 3 s warm-up at the same load is sent first and not counted. After each phase the database must have grown by exactly one `processed` receipt and one pending `order_placed` event per 200. Any answer other than 200 or 5xx fails the run; a 5xx or no answer (overload) is reported as not accepted.",
    "- Latency: open loop, sends on a fixed schedule whatever the answers; each response time runs from the request's scheduled time, so a late generator or a queue in front of the server counts against it. Percentiles are over the answered requests; p99 passes only if every request was accepted.",
    "- Drain: the server is stopped and one `npm run worker` (`server/worker.ts`, default batch 100, concurrency 16) delivers every pending event to the emulator; the rate excludes the first 500 deliveries (worker start-up and warm-up) and is taken from the database's delivered count, polled every 100 ms. The emulator must then hold each order exactly once (`placement_count` 1).",
    "- Peak RSS: `VmHWM` from `/proc/<pid>/status` of the node process that serves (the child of `server/start.ts`), read just before it is stopped, and of the worker.",
    "",
    ...details,
  ].join("\n");
}

export const SECTION = { name: "webhooks", heading: "## Webhooks (npm run bench:webhooks)" };

const NEW_FILE = `# Performance

Benchmarks of the app on one machine. Each section is rewritten by its script; write anything
else outside the \`<!-- bench:…:start -->\`/\`<!-- bench:…:end -->\` markers.
`;

/**
 * Rewrites the part of `file` between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`,
 * appending `heading` and the markers at the end of the file when they are missing, formatted as
 * `npm run lint` expects.
 */
export async function writeMarkedSection(
  file: string,
  name: string,
  heading: string,
  body: string,
) {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  let text = existsSync(file) ? readFileSync(file, "utf8") : NEW_FILE;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1 || to < from) {
    text = `${text.trimEnd()}\n\n${heading}\n\n${start}\n${end}\n`;
  }
  const bodyFrom = text.indexOf(start) + start.length;
  const bodyTo = text.indexOf(end);
  const updated = `${text.slice(0, bodyFrom)}\n\n${body}\n\n${text.slice(bodyTo)}`;
  const config = await prettier.resolveConfig(file);
  writeFileSync(file, await prettier.format(updated, { ...config, filepath: file }));
}

/** `npm run <script>` with this run's arguments, as a report quotes it. */
export function benchCommand(script: string): string {
  const args = process.argv.slice(2);
  return `npm run ${script}${args.length ? ` -- ${args.join(" ")}` : ""}`;
}

/** Writes a benchmark's section into docs/performance.md (between its markers) and prints it. */
export async function publishSection(section: { name: string; heading: string }, body: string) {
  const docs = path.resolve(import.meta.dirname, "../../docs/performance.md");
  await writeMarkedSection(docs, section.name, section.heading, body);
  console.log(`\n${section.heading}\n\n${body}\n`);
  console.log("Written to docs/performance.md.");
}

/** The machine a benchmark ran on, now; `pinning` says where its processes ran. */
export function describeMachine(pinning: string): MachineInfo {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    cpuModel: cpus[0]?.model.trim() ?? "unknown CPU",
    cpuCount: cpus.length,
    totalMemoryBytes: os.totalmem(),
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    pinning,
  };
}
