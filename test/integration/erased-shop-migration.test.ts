import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { defaultMigrationsRoot, migrateDatabase } from "../../app/db/migrate.server";
import { sqliteFilePath } from "../../app/lib/database-url";
import {
  createThrowawayDatabase,
  testDatabaseProvider,
  type ThrowawayDatabase,
} from "../support/databases";

// The migration that removes the reconciliation shop/redact used to leave behind (decision 045,
// issue 27 defect 7): the state and runs of shops that have no connection any more.

const provider = testDatabaseProvider();
const MIGRATION = "20261128040000_erased_shop_reconciliation";
const created: ThrowawayDatabase[] = [];

afterEach(async () => {
  await Promise.all(created.splice(0).map((database) => database.drop()));
});

async function query<T>(url: string, sql: string): Promise<T[]> {
  if (provider === "sqlite") {
    const db = new Database(sqliteFilePath(url));
    try {
      const statement = db.prepare(sql);
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

describe(`the erased shops' reconciliation migration on ${provider}`, () => {
  it("deletes the reconciliation state and runs of shops without a connection, and keeps the rest", async () => {
    const database = await createThrowawayDatabase(provider);
    created.push(database);
    const root = mkdtempSync(path.join(os.tmpdir(), "svc-migrations-"));
    cpSync(defaultMigrationsRoot(), root, { recursive: true });
    rmSync(path.join(root, provider, MIGRATION), { recursive: true });
    await migrateDatabase(database.url, { migrationsRoot: root });
    rmSync(root, { recursive: true, force: true });

    // Timestamps as each database stores them: epoch milliseconds on SQLite (decision 001).
    const at = provider === "sqlite" ? "1763632800000" : "'2026-11-20 10:00:00'";
    await query(
      database.url,
      `INSERT INTO "ShopConnection" ("id", "shop", "updatedAt") VALUES ('c1', 'kept.myshopify.com', ${at})`,
    );
    for (const shop of ["kept.myshopify.com", "erased.myshopify.com"]) {
      await query(
        database.url,
        `INSERT INTO "ReconcileState" ("shop", "reportFrom", "watermark", "deferredOrders", "updatedAt")
        VALUES ('${shop}', ${at}, ${at}, '[{"orderId":"1001","dueAt":"2026-11-20T10:00:00Z"}]', ${at})`,
      );
      await query(
        database.url,
        `INSERT INTO "ReconcileRun" ("id", "shop", "trigger", "since")
        VALUES ('run-${shop}', '${shop}', 'schedule', ${at})`,
      );
    }

    expect((await migrateDatabase(database.url)).applied).toEqual([MIGRATION]);
    for (const table of ["ReconcileState", "ReconcileRun"]) {
      expect(
        await query<{ shop: string }>(database.url, `SELECT "shop" FROM "${table}"`),
        table,
      ).toEqual([{ shop: "kept.myshopify.com" }]);
    }
  });
});
