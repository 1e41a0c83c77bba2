import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { Prisma } from "../../app/generated/prisma/sqlite/client";
import {
  defaultMigrationsRoot,
  loadMigrations,
  migrateDatabase,
  readMigrationStatus,
} from "../../app/db/migrate.server";
import { StartupError } from "../../app/db/startup-failure.server";
import { sqliteFilePath } from "../../app/lib/database-url";
import { nodeArgsOfNpmScript } from "../../scripts/bench/processes";
import { repoRoot } from "../support/test-env";
import {
  createThrowawayDatabase,
  testDatabaseProvider,
  type ThrowawayDatabase,
} from "../support/databases";

const provider = testDatabaseProvider();
const created: ThrowawayDatabase[] = [];

async function freshDatabase() {
  const database = await createThrowawayDatabase(provider);
  created.push(database);
  return database.url;
}

afterEach(async () => {
  await Promise.all(created.splice(0).map((database) => database.drop()));
});

async function query<T>(url: string, sql: string): Promise<T[]> {
  if (provider === "sqlite") {
    const db = new Database(sqliteFilePath(url));
    try {
      const statement = db.prepare(sql);
      // better-sqlite3 runs a statement that returns no rows (an INSERT) rather than reading it.
      return statement.reader ? (statement.all() as T[]) : (statement.run(), []);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

function columnsQuery(table: string) {
  return provider === "sqlite"
    ? `SELECT name FROM pragma_table_info('${table}')`
    : `SELECT column_name AS name FROM information_schema.columns WHERE table_name = '${table}'`;
}

describe(`migrations on ${provider}`, () => {
  it("applies every migration to an empty database and records it as Prisma does", async () => {
    const url = await freshDatabase();
    const migrations = loadMigrations(provider);
    const report = await migrateDatabase(url);

    expect(report.applied).toEqual(migrations.map((m) => m.name));
    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished_at: unknown;
      applied_steps_count: number;
    }>(
      url,
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((row) => row.migration_name)).toEqual(migrations.map((m) => m.name));
    for (const [index, row] of rows.entries()) {
      const file = path.join(
        defaultMigrationsRoot(),
        provider,
        row.migration_name,
        "migration.sql",
      );
      expect(row.checksum).toBe(createHash("sha256").update(readFileSync(file)).digest("hex"));
      expect(row.finished_at).not.toBeNull();
      expect(Number(row.applied_steps_count)).toBe(1);
      expect(migrations[index]?.checksum).toBe(row.checksum);
    }
  });

  it("does nothing when run again on a migrated database", async () => {
    const url = await freshDatabase();
    await migrateDatabase(url);
    const again = await migrateDatabase(url);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(loadMigrations(provider).map((m) => m.name));
    const rows = await query<{ n: number | string }>(
      url,
      'SELECT COUNT(*) AS n FROM "_prisma_migrations"',
    );
    expect(Number(rows[0]?.n)).toBe(loadMigrations(provider).length);
  });

  it("lets two starting instances migrate at once, applying each migration once", async () => {
    const url = await freshDatabase();
    const reports = await Promise.all([migrateDatabase(url), migrateDatabase(url)]);
    const appliedTotal = reports.flatMap((report) => report.applied);
    expect(appliedTotal).toEqual(loadMigrations(provider).map((m) => m.name));
  });

  it("creates every column the Prisma schema declares", async () => {
    const url = await freshDatabase();
    await migrateDatabase(url);
    const models = {
      Session: Prisma.SessionScalarFieldEnum,
      ShopConnection: Prisma.ShopConnectionScalarFieldEnum,
      WebhookReceipt: Prisma.WebhookReceiptScalarFieldEnum,
      OutboxEvent: Prisma.OutboxEventScalarFieldEnum,
      ProductOfferHint: Prisma.ProductOfferHintScalarFieldEnum,
      ProductOfferHintPublish: Prisma.ProductOfferHintPublishScalarFieldEnum,
    };
    for (const [table, fields] of Object.entries(models)) {
      const columns = (await query<{ name: string }>(url, columnsQuery(table))).map((c) => c.name);
      expect(columns.sort(), table).toEqual(Object.values(fields).sort());
    }
  });

  it("turns each stored offer hint into a row per variant, keeping what Shopify holds", async () => {
    const url = await freshDatabase();
    const root = mkdtempSync(path.join(os.tmpdir(), "svc-migrations-"));
    cpSync(defaultMigrationsRoot(), root, { recursive: true });
    rmSync(path.join(root, provider, "20261124020000_offer_hint_rows"), { recursive: true });
    await migrateDatabase(url, { migrationsRoot: root });
    // Decision 014 before its amendment: one row per product, its variants as a JSON array.
    await query(
      url,
      `INSERT INTO "ProductOfferHint"
        ("shop", "productId", "withoutPlans", "published", "publishedAt", "lastError", "updatedAt")
      VALUES
        ('a.myshopify.com', '1', '["11","12"]', '["11"]', '2026-11-20 10:00:00', NULL, '2026-11-20 10:00:00'),
        ('a.myshopify.com', '2', '[]', '["21"]', '2026-11-20 10:00:00', NULL, '2026-11-20 10:00:00'),
        ('a.myshopify.com', '3', '["31"]', NULL, NULL, 'Owner does not exist.', '2026-11-20 10:00:00'),
        ('b.myshopify.com', '1', '["11"]', NULL, NULL, NULL, '2026-11-20 10:00:00')`,
    );

    expect((await migrateDatabase(url)).applied).toEqual(["20261124020000_offer_hint_rows"]);
    const variants = await query<{ shop: string; productId: string; variantId: string }>(
      url,
      `SELECT "shop", "productId", "variantId" FROM "ProductOfferHint"
      WHERE "withoutPlans" ORDER BY "shop", "productId", "variantId"`,
    );
    expect(variants).toEqual([
      { shop: "a.myshopify.com", productId: "1", variantId: "11" },
      { shop: "a.myshopify.com", productId: "1", variantId: "12" },
      { shop: "a.myshopify.com", productId: "3", variantId: "31" },
      { shop: "b.myshopify.com", productId: "1", variantId: "11" },
    ]);
    expect(
      await query(url, 'SELECT COUNT(*) AS n FROM "ProductOfferHint" WHERE NOT "withoutPlans"'),
    ).toEqual([{ n: provider === "sqlite" ? 0 : "0" }]);
    const publishes = await query(
      url,
      `SELECT "shop", "productId", "published", "publishedAt" IS NOT NULL AS "dated", "lastError"
      FROM "ProductOfferHintPublish" ORDER BY "shop", "productId"`,
    );
    const dated = provider === "sqlite" ? 1 : true;
    const undated = provider === "sqlite" ? 0 : false;
    expect(publishes).toEqual([
      { shop: "a.myshopify.com", productId: "1", published: '["11"]', dated, lastError: null },
      { shop: "a.myshopify.com", productId: "2", published: '["21"]', dated, lastError: null },
      {
        shop: "a.myshopify.com",
        productId: "3",
        published: null,
        dated: undated,
        lastError: "Owner does not exist.",
      },
    ]);
  });

  it("refuses to run when an applied migration was edited", async () => {
    const url = await freshDatabase();
    await migrateDatabase(url);
    const root = mkdtempSync(path.join(os.tmpdir(), "svc-migrations-"));
    cpSync(defaultMigrationsRoot(), root, { recursive: true });
    const [first] = loadMigrations(provider);
    const file = path.join(root, provider, first!.name, "migration.sql");
    writeFileSync(file, `${readFileSync(file, "utf8")}\n-- edited\n`);

    await expect(migrateDatabase(url, { migrationsRoot: root })).rejects.toThrow(
      /was edited after it was applied/,
    );
  });

  it("rolls a failing migration back completely and applies it once it is fixed", async () => {
    const url = await freshDatabase();
    const root = mkdtempSync(path.join(os.tmpdir(), "svc-migrations-"));
    cpSync(defaultMigrationsRoot(), root, { recursive: true });
    const broken = path.join(root, provider, "29990101000000_broken");
    mkdirSync(broken);
    writeFileSync(
      path.join(broken, "migration.sql"),
      'CREATE TABLE "Halfway" ("id" TEXT NOT NULL PRIMARY KEY);\nTHIS IS NOT SQL;\n',
    );

    await expect(migrateDatabase(url, { migrationsRoot: root })).rejects.toThrow(
      /Failed to apply migrations/,
    );
    const tables = await query<{ name: string }>(
      url,
      provider === "sqlite"
        ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Halfway'"
        : "SELECT table_name AS name FROM information_schema.tables WHERE table_name = 'Halfway'",
    );
    expect(tables).toEqual([]);
    if (provider === "postgresql") {
      // The migrations before the failing one stay applied; the failing one is recorded as
      // rolled back, with its error, as Prisma records it.
      const rows = await query<{ migration_name: string; finished: boolean; logs: string | null }>(
        url,
        `SELECT migration_name, finished_at IS NOT NULL AS finished, logs FROM "_prisma_migrations"
        WHERE migration_name = '29990101000000_broken' OR finished_at IS NOT NULL`,
      );
      expect(rows.filter((row) => row.finished)).toHaveLength(loadMigrations(provider).length);
      expect(rows.filter((row) => !row.finished)).toEqual([
        {
          migration_name: "29990101000000_broken",
          finished: false,
          logs: expect.stringMatching(/syntax error/) as unknown,
        },
      ]);
    }

    writeFileSync(
      path.join(broken, "migration.sql"),
      'CREATE TABLE "Halfway" ("id" TEXT NOT NULL PRIMARY KEY);\n',
    );
    const report = await migrateDatabase(url, { migrationsRoot: root });
    expect(report.applied).toContain("29990101000000_broken");
    if (provider === "postgresql") expect(report.applied).toEqual(["29990101000000_broken"]);
  });

  it("tells a start without migrations what is pending", async () => {
    const url = await freshDatabase();
    const names = loadMigrations(provider).map((m) => m.name);
    expect(await readMigrationStatus(url)).toEqual({ provider, pending: names, applied: [] });
    await migrateDatabase(url);
    expect(await readMigrationStatus(url)).toEqual({ provider, pending: [], applied: names });
  });

  it("is the release step: npm run db:migrate, production unless NODE_ENV says otherwise", async () => {
    const url = await freshDatabase();
    const { NODE_ENV: _test, DATABASE_URL: _testDatabase, ...rest } = process.env;
    const refused = await runMigrate(rest);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      "Invalid configuration: DATABASE_URL is required when NODE_ENV=production: file:/path/on/a/volume.sqlite (one instance) or postgresql://user:password@host:5432/db",
    );

    const done = await runMigrate({ ...rest, DATABASE_URL: url });
    expect(done.code).toBe(0);
    const names = loadMigrations(provider).map((m) => m.name);
    expect(done.stdout).toContain(
      `Migrations (${provider}): applied ${names.length} [${names.join(", ")}], 0 already applied`,
    );
    expect((await runMigrate({ ...rest, DATABASE_URL: url })).stdout).toContain(
      `Migrations (${provider}): applied 0 [], ${names.length} already applied`,
    );
  });
});

function runMigrate(env: Record<string, string | undefined>) {
  return promisify(execFile)(process.execPath, nodeArgsOfNpmScript(repoRoot, "db:migrate"), {
    cwd: repoRoot,
    env: env as NodeJS.ProcessEnv,
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

// Prisma's advisory lock key: its CLI and our runner exclude each other with it.
const PRISMA_MIGRATION_LOCK = 72707369;

describe.runIf(provider === "postgresql")("migrations on PostgreSQL behind a pooler", () => {
  async function session(url: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return client;
  }

  it("lets one of two runners apply everything while the other waits, then finds nothing", async () => {
    const url = await freshDatabase();
    const reports = await Promise.all([migrateDatabase(url), migrateDatabase(url)]);
    const names = loadMigrations(provider).map((m) => m.name);
    expect(reports.map((report) => report.applied.length).sort()).toEqual([0, names.length]);
    expect(reports.find((report) => report.applied.length === 0)?.alreadyApplied).toEqual(names);
  });

  it("gives up on a lock another session holds, within the time it was given", async () => {
    const url = await freshDatabase();
    // Prisma's CLI takes the key at session level; ours waits for it all the same.
    const other = await session(url);
    await other.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATION_LOCK]);
    try {
      const started = performance.now();
      await expect(migrateDatabase(url, { lockTimeoutSeconds: 1 })).rejects.toThrow(
        new StartupError(
          "SVC_MIGRATION_LOCK_TIMEOUT_SECONDS",
          "another instance has held the migration lock for 1 s: is a migration running elsewhere?",
          "migrations",
        ),
      );
      expect(performance.now() - started).toBeLessThan(4_000);
    } finally {
      await other.end();
    }
    expect((await migrateDatabase(url)).applied).toHaveLength(loadMigrations(provider).length);
  });

  it("holds the lock only for its transaction, and a table lock it waits for fails clearly", async () => {
    const url = await freshDatabase();
    await migrateDatabase(url);
    const root = mkdtempSync(path.join(os.tmpdir(), "svc-migrations-"));
    cpSync(defaultMigrationsRoot(), root, { recursive: true });
    const probe = path.join(root, provider, "29990101000000_probe");
    mkdirSync(probe);
    writeFileSync(
      path.join(probe, "migration.sql"),
      'ALTER TABLE "OutboxEvent" ADD COLUMN "probe" TEXT;\n',
    );
    // The running app reads the table in a transaction that does not end.
    const app = await session(url);
    await app.query("BEGIN");
    await app.query('SELECT COUNT(*) FROM "OutboxEvent"');
    const prisma = await session(url);
    try {
      const started = performance.now();
      const run = migrateDatabase(url, { migrationsRoot: root, tableLockTimeoutSeconds: 2 });
      const outcome = run.then(
        () => "applied",
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      // While the run waits, Prisma's CLI cannot take the lock.
      const during = await prisma.query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock($1) AS locked",
        [PRISMA_MIGRATION_LOCK],
      );
      expect(during.rows[0]?.locked).toBe(false);
      expect(await outcome).toEqual(
        new StartupError(
          "SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS",
          "migration 29990101000000_probe waited 2 s for a table that another connection holds (a long transaction of the running app?); run it again",
          "migrations",
        ),
      );
      expect(performance.now() - started).toBeLessThan(6_000);
      // The run's transaction ended, and its lock with it.
      const after = await prisma.query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock($1) AS locked",
        [PRISMA_MIGRATION_LOCK],
      );
      expect(after.rows[0]?.locked).toBe(true);
      await prisma.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATION_LOCK]);
    } finally {
      await app.query("COMMIT");
      await app.end();
      await prisma.end();
    }
    expect((await migrateDatabase(url, { migrationsRoot: root })).applied).toEqual([
      "29990101000000_probe",
    ]);
  });

  it("migrates through DIRECT_DATABASE_URL while DATABASE_URL is a pooler it cannot reach", async () => {
    const url = await freshDatabase();
    const { NODE_ENV: _test, ...rest } = process.env;
    const done = await runMigrate({
      ...rest,
      DATABASE_URL: "postgresql://app:pooled-secret@127.0.0.1:1/app",
      DIRECT_DATABASE_URL: url,
    });
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("(DIRECT_DATABASE_URL)");
    expect((await readMigrationStatus(url)).pending).toEqual([]);
    // Without it, the same pooler URL is the one that fails, and says so.
    const refused = await runMigrate({
      ...rest,
      DATABASE_URL: "postgresql://app:pooled-secret@127.0.0.1:1/app",
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      "DATABASE_URL: PostgreSQL at 127.0.0.1:1 refused the connection (migrations)",
    );
  });
});
