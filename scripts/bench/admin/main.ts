// npm run bench:admin [-- --db sqlite|postgresql|both] [--runs 30] [--warm-up 5] [--dry-run]
// Server time of the embedded admin's loaders on a large shop: 100,000 outbox events, 50,000
// webhook receipts and 30,000 order summaries, plus other shops' rows, on SQLite and PostgreSQL.
// The real route loaders are called in-process with App Bridge session tokens, as Remix calls
// them (the app layout's loader beside the page's). Figures go to docs/performance.md. Exits 0
// on a missed target (it is a benchmark); 1 only when the benchmark itself failed.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { AppPrismaClient } from "../../../app/db/client.server";
import type { DatabaseProvider } from "../../../app/lib/database-url";
import { DATABASE_NAMES, describeMachine, writeMarkedSection } from "../report";
import { BenchmarkError, databasesOption, positiveInteger } from "../stats";
import { measurePages, pageSpecs, stubViteUrlImports } from "./measure";
import { explainEventLogQueries, SUGGESTED_INDEXES } from "./plans";
import { logPages, logPlans, renderAdminSection, SECTION, type DatabaseRun } from "./report";
import { seed } from "./seed";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** The pages timed again with the suggested indexes. */
const EVENT_LOG_PAGE = /^(events|webhooks|event)-/;

const options = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    runs: { type: "string", default: "30" },
    "warm-up": { type: "string", default: "5" },
    child: { type: "string" },
    result: { type: "string" },
    "dry-run": { type: "boolean", default: false },
  },
}).values;

// ---------------------------------------------------------------------------------------------
// The child: one database, seeded, then every page's loaders timed.

async function runChild(provider: DatabaseProvider, resultFile: string) {
  const runs = positiveInteger("runs", options.runs);
  const warmUp = positiveInteger("warm-up", options["warm-up"]);
  const { applyTestEnv } = await import("../../../test/support/test-env");
  applyTestEnv();
  process.env.NODE_ENV = "production";
  process.env.LOG_LEVEL = "warn";
  process.env.SVC_OUTBOX_WORKER = "off";
  stubViteUrlImports();

  const { createThrowawayDatabase } = await import("../../../test/support/databases");
  const { migrateDatabase } = await import("../../../app/db/migrate.server");
  const database = await createThrowawayDatabase(provider);
  let prisma: AppPrismaClient | undefined;
  try {
    process.env.DATABASE_URL = database.url;
    await migrateDatabase(database.url);
    prisma = (await import("../../../app/db.server")).default;

    console.log(`[${provider}] seeding`);
    const seedStarted = performance.now();
    const rows = await seed(prisma);
    const notes: string[] = [];
    if (provider === "postgresql") {
      // A live database has been vacuumed and analysed by autovacuum; a fresh bulk load has not.
      await prisma.$executeRawUnsafe("VACUUM ANALYZE");
      notes.push(
        "`VACUUM ANALYZE` after seeding, as autovacuum would have done on a live database",
      );
    } else {
      notes.push("no `ANALYZE` (the app never runs it, so these are the plans of a real install)");
    }
    const seedMs = performance.now() - seedStarted;
    console.log(`[${provider}] seeded in ${(seedMs / 1000).toFixed(1)} s: ${JSON.stringify(rows)}`);

    const specs = await pageSpecs(prisma);
    console.log(`[${provider}] timing loaders: ${warmUp} warm-up + ${runs} runs per page`);
    const { pages, cpu } = await measurePages(specs, runs, warmUp);
    logPages(pages);
    console.log(`[${provider}] query plans`);
    const plans = await explainEventLogQueries(database.url, provider, prisma);
    logPlans(plans);

    // The same event log pages and queries again, with the indexes we suggest adding.
    let withIndexes: DatabaseRun["withIndexes"] = null;
    if (SUGGESTED_INDEXES.length) {
      for (const index of SUGGESTED_INDEXES) await prisma.$executeRawUnsafe(index.sql);
      if (provider === "postgresql") {
        await prisma.$executeRawUnsafe('ANALYZE "OutboxEvent", "WebhookReceipt"');
      }
      console.log(`[${provider}] with the suggested indexes`);
      const indexed = await measurePages(
        specs.filter((spec) => EVENT_LOG_PAGE.test(spec.key)),
        runs,
        warmUp,
      );
      logPages(indexed.pages);
      const indexedPlans = await explainEventLogQueries(database.url, provider, prisma);
      logPlans(indexedPlans);
      withIndexes = { pages: indexed.pages, plans: indexedPlans, cpu: indexed.cpu };
    }

    const run: DatabaseRun = {
      provider,
      rows,
      seedMs,
      pages,
      plans,
      cpu,
      notes,
      withIndexes,
    };
    writeFileSync(resultFile, JSON.stringify(run));
  } finally {
    await prisma?.$disconnect();
    globalThis.svcPrismaGlobal = undefined;
    await database.drop();
  }
}

// ---------------------------------------------------------------------------------------------
// The parent: one child per database, then the section of docs/performance.md.

function runChildProcess(provider: DatabaseProvider, resultFile: string): Promise<void> {
  const args = [
    "--import",
    "tsx",
    import.meta.filename,
    "--child",
    provider,
    "--result",
    resultFile,
    "--runs",
    String(options.runs),
    "--warm-up",
    String(options["warm-up"]),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: "inherit" });
    const stop = () => child.kill("SIGTERM");
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      if (code === 0) resolve();
      else reject(new BenchmarkError(`The ${provider} run failed (${signal ?? `exit ${code}`})`));
    });
  });
}

async function runParent() {
  const databases = databasesOption(options.db);
  const settings = {
    runs: positiveInteger("runs", options.runs),
    warmUp: positiveInteger("warm-up", options["warm-up"]),
  };
  const workDir = mkdtempSync(path.join(os.tmpdir(), "svc-bench-admin-"));
  const runs: DatabaseRun[] = [];
  try {
    for (const provider of databases) {
      const resultFile = path.join(workDir, `${provider}.json`);
      await runChildProcess(provider, resultFile);
      runs.push(JSON.parse(readFileSync(resultFile, "utf8")) as DatabaseRun);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const args = process.argv.slice(2);
  const command = `npm run bench:admin${args.length ? ` -- ${args.join(" ")}` : ""}`;
  const section = renderAdminSection(describeMachine("not pinned"), command, runs, settings);
  const docs = path.join(ROOT, "docs/performance.md");
  console.log(`\n${SECTION.heading}\n\n${section}\n`);
  if (options["dry-run"]) {
    console.log("--dry-run: docs/performance.md left as it is.");
  } else {
    await writeMarkedSection(docs, SECTION.name, SECTION.heading, section);
    console.log(`Written to ${path.relative(ROOT, docs)}.`);
  }
  const failed = runs.flatMap((run) =>
    run.pages
      .filter((page) => page.outcome.status === "error")
      .map((page) => `${page.label} on ${DATABASE_NAMES[run.provider]}`),
  );
  if (failed.length) {
    throw new BenchmarkError(`Not measured (the loader failed): ${failed.join("; ")}`);
  }
}

try {
  if (options.child) {
    if (options.child !== "sqlite" && options.child !== "postgresql") {
      throw new BenchmarkError(`--child must be sqlite or postgresql, not ${options.child}`);
    }
    if (!options.result) throw new BenchmarkError("--child needs --result");
    await runChild(options.child, options.result);
  } else {
    await runParent();
  }
  process.exitCode = 0;
} catch (error) {
  console.error(error instanceof BenchmarkError ? `Benchmark failed: ${error.message}` : error);
  process.exitCode = 1;
}
process.exit();
