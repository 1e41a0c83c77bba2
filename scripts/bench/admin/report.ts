import type { DatabaseProvider } from "../../../app/lib/database-url";
import { DISTURBED_CPUS } from "../cpu";
import { DATABASE_NAMES, machineLine, type MachineInfo } from "../report";
import { percentile } from "../stats";
import type { CpuUse, PageOutcome, PageResult } from "./measure";
import { SUGGESTED_INDEXES, type QueryPlan } from "./plans";
import { SIZES } from "./seed";

// What a run reports (a child process per database writes it as JSON), on the console and as
// the section of docs/performance.md.

const TARGET_P95_MS = 200;

export const SECTION = {
  name: "admin",
  heading: "## Admin loaders (npm run bench:admin)",
};

export interface DatabaseRun {
  provider: DatabaseProvider;
  rows: Record<string, number>;
  seedMs: number;
  pages: PageResult[];
  plans: QueryPlan[];
  cpu: CpuUse;
  notes: string[];
  /** The event log's pages and queries again after `SUGGESTED_INDEXES` were created. */
  withIndexes: { pages: PageResult[]; plans: QueryPlan[]; cpu: CpuUse } | null;
}

export function logPages(pages: PageResult[]) {
  for (const page of pages) {
    const outcome = page.outcome;
    console.log(
      `  ${page.label}: ${
        outcome.status === "measured"
          ? `p50 ${percentile(outcome.samplesMs, 0.5).toFixed(1)} ms, p95 ${percentile(outcome.samplesMs, 0.95).toFixed(1)} ms, max ${Math.max(...outcome.samplesMs).toFixed(1)} ms`
          : outcome.status === "not built"
            ? "not built"
            : `error: ${outcome.message}`
      }`,
    );
  }
}

export function logPlans(plans: QueryPlan[]) {
  for (const plan of plans) {
    console.log(`  ${plan.label}: ${plan.summary} (${plan.queryMs.toFixed(2)} ms)`);
    for (const line of plan.plan) console.log(`      ${line}`);
  }
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

function pageCell(outcome: PageOutcome | undefined, withVerdict: boolean): string {
  if (!outcome) return "(not run)";
  if (outcome.status === "not built") return "not built";
  if (outcome.status === "error") return `error: ${outcome.message.replaceAll("|", "\\|")}`;
  const p50 = percentile(outcome.samplesMs, 0.5);
  const p95 = percentile(outcome.samplesMs, 0.95);
  const max = Math.max(...outcome.samplesMs);
  const verdict = withVerdict ? ` ${p95 <= TARGET_P95_MS ? "PASS" : "MISS"}` : "";
  return `${oneDecimal.format(p50)} / ${oneDecimal.format(p95)} / ${oneDecimal.format(max)} ms${verdict}`;
}

function p95Of(outcome: PageOutcome | undefined): number | null {
  return outcome?.status === "measured" ? percentile(outcome.samplesMs, 0.95) : null;
}

function escapeCell(text: string) {
  return text.replaceAll("|", "\\|");
}

export function renderAdminSection(
  machine: MachineInfo,
  command: string,
  runs: DatabaseRun[],
  settings: { runs: number; warmUp: number },
): string {
  const first = runs[0]!;
  const name = (run: DatabaseRun) => DATABASE_NAMES[run.provider];
  const outcomeOf = (pages: PageResult[], key: string) =>
    pages.find((page) => page.key === key)?.outcome;

  const pagesTable = [
    `| Page (loaders run in parallel, as Remix runs them) | Target | ${runs.map((run) => `${name(run)} p50 / p95 / max`).join(" | ")} |`,
    `| --- | --- | ${runs.map(() => "--:").join(" | ")} |`,
    ...first.pages.map((page) => {
      const target = page.key === "layout" ? "(reported)" : `p95 ≤ ${TARGET_P95_MS} ms`;
      const cells = runs.map((run) =>
        pageCell(outcomeOf(run.pages, page.key), page.key !== "layout"),
      );
      return `| ${[page.label, target, ...cells].join(" | ")} |`;
    }),
  ].join("\n");

  const indexedTable = [
    `| Event log page | ${runs.map((run) => `${name(run)} p95 as is → with the indexes`).join(" | ")} |`,
    `| --- | ${runs.map(() => "--:").join(" | ")} |`,
    ...(first.withIndexes?.pages ?? []).map((page) => {
      const cells = runs.map((run) => {
        const before = p95Of(outcomeOf(run.pages, page.key));
        const after = run.withIndexes ? p95Of(outcomeOf(run.withIndexes.pages, page.key)) : null;
        return before === null || after === null
          ? "-"
          : `${oneDecimal.format(before)} → ${oneDecimal.format(after)} ms`;
      });
      return `| ${[page.label, ...cells].join(" | ")} |`;
    }),
  ].join("\n");

  const planTable = [
    `| Query | ${runs.map((run) => `${name(run)}: plan (query alone, median of 10)`).join(" | ")} |`,
    `| --- | ${runs.map(() => "---").join(" | ")} |`,
    ...first.plans.map(({ label }) => {
      const cells = runs.map((run) => {
        const plan = run.plans.find((candidate) => candidate.label === label);
        const indexed = run.withIndexes?.plans.find((candidate) => candidate.label === label);
        if (!plan) return "-";
        const now = `${plan.summary} (${oneDecimal.format(plan.queryMs)} ms)`;
        return escapeCell(
          indexed && indexed.summary !== plan.summary
            ? `${now}; **with the indexes:** ${indexed.summary} (${oneDecimal.format(indexed.queryMs)} ms)`
            : now,
        );
      });
      return `| ${[label, ...cells].join(" | ")} |`;
    }),
  ].join("\n");

  const disturbed = runs.filter((run) => run.cpu.other > DISTURBED_CPUS);
  const misses = runs.flatMap((run) =>
    run.pages
      .filter((page) => page.key !== "layout" && (p95Of(page.outcome) ?? 0) > TARGET_P95_MS)
      .map((page) => `${page.label} on ${name(run)}`),
  );
  const rows = first.rows;
  const sizes = first.pages
    .filter((page) => page.outcome.status === "measured")
    .map(
      (page) =>
        `${page.label.split(" (")[0]} ${integer.format(page.outcome.status === "measured" ? page.outcome.bytes : 0)} B`,
    );
  const cpuLine = (cpu: CpuUse) =>
    `bench process ${cpu.bench.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}, other processes ${cpu.other.toFixed(2)} CPUs over ${oneDecimal.format(cpu.wallMs / 1000)} s`;

  return [
    `Last run: ${machine.date}, \`${command}\`.`,
    "",
    `Machine: ${machineLine(machine)}. Not pinned: the bench process (which runs the loaders) and PostgreSQL share the CPUs.`,
    ...(disturbed.length
      ? [
          "",
          `**Disturbed:** other processes on the machine used ${disturbed
            .map((run) => `${run.cpu.other.toFixed(2)} CPUs while ${name(run)} was timed`)
            .join(" and ")}; those figures are slower than on a quiet machine.`,
        ]
      : []),
    "",
    `Target: loader p95 ≤ ${TARGET_P95_MS} ms for every page. Built for Shopify asks for LCP ≤ 2.5 s at p75 in the admin; the loaders are the server's share of each navigation inside the app, and ${TARGET_P95_MS} ms leaves the rest to the network, App Bridge and rendering.${misses.length ? ` **Missed:** ${misses.join("; ")}.` : ""}`,
    "",
    pagesTable,
    "",
    ...(first.withIndexes
      ? [
          `With the indexes we suggest adding (${SUGGESTED_INDEXES.map((index) => `\`${index.prisma}\``).join(", ")}; not in \`prisma/schema.prisma\` yet), created on the same databases after the run above, then the event log timed again:`,
          "",
          indexedTable,
          "",
        ]
      : []),
    "Query plans of the event log: `EXPLAIN QUERY PLAN` on SQLite and `EXPLAIN (ANALYZE, BUFFERS)` on PostgreSQL of the SQL Prisma sent for the model functions the loaders call, then each query alone. Every page query ends in `LIMIT 51 OFFSET 0` (Prisma's constant offset); none counts all rows.",
    "",
    planTable,
    "",
    "How it is measured:",
    "",
    `- Data, one throwaway database each (\`test/support/databases.ts\`, migrated by \`app/db/migrate.server.ts\`): the bench shop has ${integer.format(rows.events ?? 0)} outbox events, ${integer.format(rows.receipts ?? 0)} webhook receipts and ${integer.format(rows.orderSummaries ?? 0)} order summaries; ${SIZES.noiseShops} other shops have every ${SIZES.noiseEveryNth}th row of each table, interleaved (${integer.format(rows.eventsAllShops ?? 0)} events, ${integer.format(rows.receiptsAllShops ?? 0)} receipts, ${integer.format(rows.orderSummariesAllShops ?? 0)} summaries in all), inserted with \`createMany\` in chunks of ${integer.format(SIZES.chunk)}. Events spread over ${SIZES.days} days: 92 % delivered, 2 % pending, 2 % failed, 2 % dead (with the service's validation errors), 1.5 % unprocessable, 0.5 % being sent; 40 % order_placed, 30 % fulfillments, 15 % refunds, 10 % cancellations, 5 % line item cancellations; 70 % live. Payloads are the sample lifecycle's events as the app maps them (\`test/fixtures/lifecycle/\`, 0.1–0.9 KB); unprocessable receipts keep the 12 KB \`orders/create\` body. Plus the shop's connection (both keys sealed), ${SIZES.protectionItems} protection items and ${SIZES.protectableVariants} variants offered plans.`,
    `- ${runs.map((run) => `${name(run)}: ${run.notes.join("; ")}; seeded in ${oneDecimal.format(run.seedMs / 1000)} s`).join(". ")}.`,
    "- Each page: the real `loader` of `app/routes/app.tsx` and of the page's route file (and of `app.events/route.tsx` around an event's page), imported in-process with `NODE_ENV=production` and called together, each with its own request and a fresh App Bridge session token (HS256, the app's secret), as Remix calls a layout and its page in parallel; `authenticate.admin` verifies the token and loads the offline session from the database. The time runs from the calls to the last loader's answer: rendering, Remix's serialisation and the network are not in it. A thrown or non-2xx `Response` fails the run, and each page's answer is checked before timing (50 rows matching the filter, the event's validation errors).",
    `- ${settings.warmUp} warm-up rounds, then ${settings.runs} timed rounds; a round calls every page once, one page at a time, so a burst of other work on the machine hits all pages alike. Nearest-rank percentiles over the ${settings.runs} timed calls of each page. "not built": the page's route file did not exist when the benchmark ran.`,
    `- CPU while timing: ${runs.map((run) => `${name(run)}: ${cpuLine(run.cpu)}`).join("; ")}.`,
    `- Loader data per page (JSON of all its loaders, ${name(first)}): ${sizes.join(", ")}.`,
  ].join("\n");
}
