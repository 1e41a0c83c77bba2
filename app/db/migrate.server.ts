import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { providerOf, sqliteFilePath, type DatabaseProvider } from "../lib/database-url";
import {
  DATABASE_CONNECT_TIMEOUT_SECONDS,
  explainDatabaseError,
  StartupError,
  type StartupStep,
} from "./startup-failure.server";

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

export interface MigrationOptions {
  /** prisma/migrations by default; tests pass a copy. */
  migrationsRoot?: string;
  /** How long to wait for another run's lock (PostgreSQL's advisory lock, SQLite's write lock). */
  lockTimeoutSeconds?: number;
  /** How long one migration's statement may wait for a table lock held by the running app. */
  tableLockTimeoutSeconds?: number;
  /** The variable that named the URL, for messages: DATABASE_URL or DIRECT_DATABASE_URL. */
  variable?: string;
}

const DEFAULT_LOCK_TIMEOUT_SECONDS = 60;
const DEFAULT_TABLE_LOCK_TIMEOUT_SECONDS = 10;

interface RunSettings {
  migrations: Migration[];
  lockTimeoutSeconds: number;
  tableLockTimeoutSeconds: number;
  variable: string;
  url: string;
}

export async function migrateDatabase(
  databaseUrl: string,
  options: MigrationOptions = {},
): Promise<MigrationReport> {
  const provider = providerOf(databaseUrl);
  const run: RunSettings = {
    migrations: loadMigrations(provider, options.migrationsRoot),
    lockTimeoutSeconds: options.lockTimeoutSeconds ?? DEFAULT_LOCK_TIMEOUT_SECONDS,
    tableLockTimeoutSeconds: options.tableLockTimeoutSeconds ?? DEFAULT_TABLE_LOCK_TIMEOUT_SECONDS,
    variable: options.variable ?? "DATABASE_URL",
    url: databaseUrl,
  };
  const applied = provider === "sqlite" ? migrateSqlite(run) : await migratePostgres(run);
  return {
    provider,
    applied,
    alreadyApplied: run.migrations.map((m) => m.name).filter((name) => !applied.includes(name)),
  };
}

export interface MigrationStatus {
  provider: DatabaseProvider;
  pending: string[];
  applied: string[];
}

/**
 * What a start without migrations checks (SVC_MIGRATE_ON_START=false): the database answers, and
 * every migration is applied. Reads only; takes no lock. Throws where a run would refuse.
 */
export async function readMigrationStatus(
  databaseUrl: string,
  options: Pick<MigrationOptions, "migrationsRoot" | "variable"> = {},
): Promise<MigrationStatus> {
  const provider = providerOf(databaseUrl);
  const migrations = loadMigrations(provider, options.migrationsRoot);
  const target = { variable: options.variable ?? "DATABASE_URL", url: databaseUrl };
  const rows =
    provider === "sqlite" ? readSqliteBookkeeping(target) : await readPostgresBookkeeping(target);
  const pending = planMigrations(migrations, rows).map((m) => m.name);
  return {
    provider,
    pending,
    applied: migrations.map((m) => m.name).filter((name) => !pending.includes(name)),
  };
}

function readSqliteBookkeeping(target: { variable: string; url: string }): AppliedRow[] {
  const file = sqliteFilePath(target.url);
  // No file yet is an empty database (opening it would create one): everything is pending.
  if (file !== ":memory:" && !existsSync(file) && existsSync(path.dirname(file))) return [];
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw explainDatabaseError(error, target, "database connection");
  }
  try {
    const table = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'",
      )
      .get();
    return table ? (db.prepare('SELECT * FROM "_prisma_migrations"').all() as AppliedRow[]) : [];
  } finally {
    db.close();
  }
}

async function readPostgresBookkeeping(target: {
  variable: string;
  url: string;
}): Promise<AppliedRow[]> {
  const client = await connectPostgres(target, "database connection");
  try {
    const { rows } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('\"_prisma_migrations\"') IS NOT NULL AS present",
    );
    if (!rows[0]?.present) return [];
    return (await client.query<AppliedRow>('SELECT * FROM "_prisma_migrations"')).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function connectPostgres(
  target: { variable: string; url: string },
  step: StartupStep,
): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: target.url,
    connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_SECONDS * 1_000,
  });
  // A connection lost later surfaces through the query that needed it, not as a crash.
  client.on("error", () => {});
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    throw explainDatabaseError(error, target, step);
  }
}

function lockTimeoutError(run: RunSettings, holder: string, cause: unknown): StartupError {
  return new StartupError(
    "SVC_MIGRATION_LOCK_TIMEOUT_SECONDS",
    `${holder} has held the migration lock for ${run.lockTimeoutSeconds} s: is a migration running elsewhere?`,
    "migrations",
    { cause },
  );
}

function migrateSqlite(run: RunSettings): string[] {
  const file = sqliteFilePath(run.url);
  let db: Database.Database;
  try {
    db = new Database(file, { timeout: run.lockTimeoutSeconds * 1_000 });
    db.pragma("journal_mode = WAL");
    db.exec(BOOKKEEPING_DDL.sqlite);
  } catch (error) {
    throw explainDatabaseError(error, { variable: run.variable, url: run.url }, "migrations");
  }
  try {
    // IMMEDIATE takes the write lock up front: two app instances starting at once queue here.
    try {
      db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_BUSY") {
        throw lockTimeoutError(run, `another process writing to ${file}`, error);
      }
      throw explainDatabaseError(error, { variable: run.variable, url: run.url }, "migrations");
    }
    try {
      const rows = db.prepare('SELECT * FROM "_prisma_migrations"').all() as AppliedRow[];
      const pending = planMigrations(run.migrations, rows);
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

/**
 * One transaction per run, so it holds one server connection from start to end, as PgBouncer's
 * transaction pooling hands them out: the advisory lock is the transaction's own
 * (pg_advisory_xact_lock, Prisma's key, so Prisma's session-level lock and ours still exclude each
 * other) and ends with it, and lock_timeout bounds every wait. Each migration runs in a
 * savepoint: a failing one is rolled back alone and recorded as rolled back, those before it stay.
 */
async function migratePostgres(run: RunSettings): Promise<string[]> {
  const client = await connectPostgres({ variable: run.variable, url: run.url }, "migrations");
  try {
    await client.query("BEGIN");
    await client.query("SELECT set_config('lock_timeout', $1, true)", [
      `${run.lockTimeoutSeconds}s`,
    ]);
    try {
      await client.query("SELECT pg_advisory_xact_lock($1)", [POSTGRES_MIGRATION_LOCK]);
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      if ((error as { code?: string }).code === "55P03") {
        throw lockTimeoutError(run, "another instance", error);
      }
      throw error;
    }
    await client.query("SELECT set_config('lock_timeout', $1, true)", [
      `${run.tableLockTimeoutSeconds}s`,
    ]);
    await client.query(BOOKKEEPING_DDL.postgresql);
    const { rows } = await client.query<AppliedRow>('SELECT * FROM "_prisma_migrations"');
    const pending = planMigrations(run.migrations, rows);
    for (const migration of pending) {
      const id = randomUUID();
      await client.query("SAVEPOINT migration");
      try {
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, clock_timestamp(), 0)',
          [id, migration.checksum, migration.name],
        );
        await client.query(migration.sql);
        await client.query(
          'UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1',
          [id],
        );
        await client.query("RELEASE SAVEPOINT migration");
      } catch (error) {
        // PostgreSQL DDL is transactional: the failing migration leaves no half-made schema.
        await client.query("ROLLBACK TO SAVEPOINT migration");
        const message = error instanceof Error ? error.message : String(error);
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, rolled_back_at, logs, applied_steps_count) VALUES ($1, $2, $3, clock_timestamp(), clock_timestamp(), $4, 0)',
          [id, migration.checksum, migration.name, message],
        );
        await client.query("COMMIT");
        if ((error as { code?: string }).code === "55P03") {
          throw new StartupError(
            "SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS",
            `migration ${migration.name} waited ${run.tableLockTimeoutSeconds} s for a table that another connection holds (a long transaction of the running app?); run it again`,
            "migrations",
            { cause: error },
          );
        }
        throw withContext(error, migration.name);
      }
    }
    await client.query("COMMIT");
    return pending.map((m) => m.name);
  } catch (error) {
    // After a failed statement outside a savepoint the transaction is void: end it, keep the error.
    await client.query("ROLLBACK").catch(() => {});
    throw error instanceof StartupError
      ? error
      : isConnectionError(error)
        ? explainDatabaseError(error, { variable: run.variable, url: run.url }, "migrations")
        : error;
  } finally {
    await client.end().catch(() => {});
  }
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^(E[A-Z]+|08...|57P0.)$/.test(code);
}

function withContext(error: unknown, subject: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`Failed to apply migrations to ${subject}: ${message}`, { cause: error });
}
