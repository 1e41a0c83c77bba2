import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { providerOf, sqliteFilePath, type DatabaseProvider } from "../lib/database-url";

/**
 * Applies the SQL migrations in prisma/migrations/<provider>/ and keeps Prisma's
 * `_prisma_migrations` bookkeeping exactly as `prisma migrate deploy` does (same table,
 * same sha256 checksums), so either tool can take over from the other. We need our own
 * runner because Prisma 7's CLI downloads its schema engine at start, which fails offline.
 */

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationReport {
  provider: DatabaseProvider;
  applied: string[];
  alreadyApplied: string[];
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/** The statement is Prisma's own, so a later `prisma migrate deploy` finds a familiar table. */
const BOOKKEEPING_DDL: Record<DatabaseProvider, string> = {
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
  )`,
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
  )`,
};

// Prisma's own advisory lock key for migrations, so our runner and Prisma's exclude each other.
const POSTGRES_MIGRATION_LOCK = 72707369;

export function defaultMigrationsRoot(): string {
  return path.resolve("prisma/migrations");
}

export function loadMigrations(
  provider: DatabaseProvider,
  root = defaultMigrationsRoot(),
): Migration[] {
  const folder = path.join(root, provider);
  return readdirSync(folder, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(folder, entry.name, "migration.sql")),
    )
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(folder, name, "migration.sql"));
      return {
        name,
        sql: bytes.toString("utf8"),
        checksum: createHash("sha256").update(bytes).digest("hex"),
      };
    });
}

/** Decides what to run; throws where Prisma would refuse (edited or failed migrations). */
export function planMigrations(migrations: Migration[], rows: AppliedRow[]): Migration[] {
  const pending: Migration[] = [];
  for (const migration of migrations) {
    const live = rows.filter((row) => row.migration_name === migration.name && !row.rolled_back_at);
    const finished = live.find((row) => row.finished_at);
    if (finished) {
      if (finished.checksum !== migration.checksum) {
        throw new Error(
          `Migration ${migration.name} was edited after it was applied (checksum differs). ` +
            "Add a new migration instead of changing an applied one.",
        );
      }
      continue;
    }
    if (live.length > 0) {
      throw new Error(
        `Migration ${migration.name} started earlier and did not finish. Inspect the database, ` +
          "then mark it rolled back in _prisma_migrations before running migrations again.",
      );
    }
    pending.push(migration);
  }
  return pending;
}

export async function migrateDatabase(
  databaseUrl: string,
  migrationsRoot = defaultMigrationsRoot(),
): Promise<MigrationReport> {
  const provider = providerOf(databaseUrl);
  const migrations = loadMigrations(provider, migrationsRoot);
  const applied =
    provider === "sqlite"
      ? migrateSqlite(sqliteFilePath(databaseUrl), migrations)
      : await migratePostgres(databaseUrl, migrations);
  return {
    provider,
    applied,
    alreadyApplied: migrations.map((m) => m.name).filter((name) => !applied.includes(name)),
  };
}

function migrateSqlite(file: string, migrations: Migration[]): string[] {
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(BOOKKEEPING_DDL.sqlite);
    // IMMEDIATE takes the write lock up front: two app instances starting at once queue here.
    db.exec("BEGIN IMMEDIATE");
    try {
      const rows = db.prepare('SELECT * FROM "_prisma_migrations"').all() as AppliedRow[];
      const pending = planMigrations(migrations, rows);
      for (const migration of pending) {
        const id = randomUUID();
        db.prepare(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, 0)',
        ).run(id, migration.checksum, migration.name, Date.now());
        db.exec(migration.sql);
        db.prepare(
          'UPDATE "_prisma_migrations" SET finished_at = ?, applied_steps_count = 1 WHERE id = ?',
        ).run(Date.now(), id);
      }
      db.exec("COMMIT");
      return pending.map((m) => m.name);
    } catch (error) {
      db.exec("ROLLBACK");
      throw withContext(error, file);
    }
  } finally {
    db.close();
  }
}

async function migratePostgres(databaseUrl: string, migrations: Migration[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [POSTGRES_MIGRATION_LOCK]);
    await client.query(BOOKKEEPING_DDL.postgresql);
    const { rows } = await client.query<AppliedRow>('SELECT * FROM "_prisma_migrations"');
    const pending = planMigrations(migrations, rows);
    for (const migration of pending) {
      const id = randomUUID();
      await client.query(
        'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
        [id, migration.checksum, migration.name],
      );
      try {
        // PostgreSQL DDL is transactional: a failing migration leaves no half-made schema.
        await client.query("BEGIN");
        await client.query(migration.sql);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        await client.query(
          'UPDATE "_prisma_migrations" SET rolled_back_at = now(), logs = $2 WHERE id = $1',
          [id, error instanceof Error ? error.message : String(error)],
        );
        throw withContext(error, migration.name);
      }
      await client.query(
        'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
        [id],
      );
    }
    return pending.map((m) => m.name);
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [POSTGRES_MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

function withContext(error: unknown, subject: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`Failed to apply migrations to ${subject}: ${message}`, { cause: error });
}
