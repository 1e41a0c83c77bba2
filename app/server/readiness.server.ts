import { existsSync } from "node:fs";
import prisma from "../db.server";
import type { AppPrismaClient } from "../db/client.server";
import { loadMigrations, planMigrations, type Migration } from "../db/migrate.server";
import { providerOf, sqliteFilePath } from "../lib/database-url";
import { getEnv } from "../env.server";
import { logger, type Logger } from "../logger.server";

/** Why a server should not be sent traffic (decision 048); draining is the server's own. */
export type Readiness =
  | { ready: true }
  | { ready: false; reason: "database" | "migrations" | "draining"; detail: string };

export interface ReadinessOptions {
  db: AppPrismaClient;
  databaseUrl: string;
  log: Logger;
  /** A database that has not answered by then counts as down. */
  timeoutMs?: number;
  /** prisma/migrations by default; tests pass a copy. */
  migrationsRoot?: string;
}

interface BookkeepingRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/**
 * Readiness for /readyz: the database answers through the app's own client, and every migration
 * this build knows is applied (as `readMigrationStatus` decides, from one read of Prisma's
 * bookkeeping table). Probes that arrive together share one check; a change of state is logged
 * once, never each probe.
 */
export function createReadinessCheck(options: ReadinessOptions): () => Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const provider = providerOf(options.databaseUrl);
  const sqliteFile = provider === "sqlite" ? sqliteFilePath(options.databaseUrl) : null;
  let migrations: Migration[] | Error | undefined;
  let running: Promise<Readiness> | undefined;
  let lastState: string | undefined;

  async function check(): Promise<Readiness> {
    // The open connection keeps working on a file that was moved or deleted; a new start would
    // not find it (an unmounted volume, a restore gone wrong).
    if (sqliteFile && sqliteFile !== ":memory:" && !existsSync(sqliteFile)) {
      return {
        ready: false,
        reason: "database",
        detail: `the SQLite file ${sqliteFile} is missing`,
      };
    }
    let rows: BookkeepingRow[];
    try {
      rows = await withTimeout(
        options.db.$queryRawUnsafe<BookkeepingRow[]>(
          'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
        ),
        timeoutMs,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        ready: false,
        reason: "database",
        detail: `the database did not answer: ${message}`,
      };
    }
    try {
      migrations ??= loadMigrations(provider, options.migrationsRoot);
    } catch (error) {
      migrations = error instanceof Error ? error : new Error(String(error));
    }
    if (migrations instanceof Error) {
      return { ready: false, reason: "migrations", detail: migrations.message };
    }
    try {
      const pending = planMigrations(migrations, rows).map((migration) => migration.name);
      if (pending.length) {
        const detail = `${pending.length} migration(s) not applied (${pending.join(", ")})`;
        return { ready: false, reason: "migrations", detail };
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ready: false, reason: "migrations", detail };
    }
    return { ready: true };
  }

  function logChange(readiness: Readiness) {
    const state = readiness.ready ? "ready" : `${readiness.reason}: ${readiness.detail}`;
    if (state === lastState) return;
    const first = lastState === undefined;
    lastState = state;
    if (!readiness.ready) {
      options.log.warn({ reason: readiness.reason }, `Not ready: ${readiness.detail}`);
    } else if (!first) {
      options.log.info("Ready again: the database answers and every migration is applied");
    }
  }

  return () => {
    running ??= check()
      .then((readiness) => {
        logChange(readiness);
        return readiness;
      })
      .finally(() => (running = undefined));
    return running;
  };
}

let appReadiness: (() => Promise<Readiness>) | undefined;

/** The app's readiness: its Prisma client and DATABASE_URL, one check shared by all callers. */
export function checkAppReadiness(): Promise<Readiness> {
  appReadiness ??= createReadinessCheck({
    db: prisma,
    databaseUrl: getEnv().DATABASE_URL,
    log: logger,
  });
  return appReadiness();
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
