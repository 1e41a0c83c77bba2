import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { Prisma } from "../../app/generated/prisma/sqlite/client";
import {
  defaultMigrationsRoot,
  loadMigrations,
  migrateDatabase,
} from "../../app/db/migrate.server";
import { sqliteFilePath } from "../../app/lib/database-url";
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
    await migrateDatabase(url, root);
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

    await expect(migrateDatabase(url, root)).rejects.toThrow(/was edited after it was applied/);
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

    await expect(migrateDatabase(url, root)).rejects.toThrow(/Failed to apply migrations/);
    const tables = await query<{ name: string }>(
      url,
      provider === "sqlite"
        ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Halfway'"
        : "SELECT table_name AS name FROM information_schema.tables WHERE table_name = 'Halfway'",
    );
    expect(tables).toEqual([]);

    writeFileSync(
      path.join(broken, "migration.sql"),
      'CREATE TABLE "Halfway" ("id" TEXT NOT NULL PRIMARY KEY);\n',
    );
    const report = await migrateDatabase(url, root);
    expect(report.applied).toContain("29990101000000_broken");
  });
});
