import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { DatabaseProvider } from "../../app/db/database-url";

export interface BenchDatabase {
  provider: DatabaseProvider;
  url: string;
  drop(): Promise<void>;
}

/** Where throwaway PostgreSQL databases are created (trust auth on the local server). */
export function postgresAdminUrl(): string {
  return (
    process.env.SVC_BENCH_POSTGRES_URL ??
    `postgresql://${os.userInfo().username}@127.0.0.1:5432/test`
  );
}

/** An empty database: a SQLite file in `workDir`, or `svc_bench_<pid>_<random>` on PostgreSQL. */
export async function createBenchDatabase(
  provider: DatabaseProvider,
  workDir: string,
): Promise<BenchDatabase> {
  if (provider === "sqlite") {
    // Removed with workDir.
    return { provider, url: `file:${path.join(workDir, "bench.sqlite")}`, drop: async () => {} };
  }
  const name = `svc_bench_${process.pid}_${randomBytes(3).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return {
    provider,
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function adminQuery(sql: string) {
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export interface RowCounts {
  receipts: number;
  /** orders/create receipts recorded as processed. */
  processedOrderReceipts: number;
  events: number;
  orderPlacedEvents: number;
  eventsByStatus: Record<string, number>;
}

export async function countRows(db: AppPrismaClient): Promise<RowCounts> {
  const [receipts, processedOrderReceipts, orderPlacedEvents, byStatus] = await Promise.all([
    db.webhookReceipt.count(),
    db.webhookReceipt.count({ where: { topic: "orders/create", status: "processed" } }),
    db.outboxEvent.count({ where: { eventType: "order_placed" } }),
    countEventsByStatus(db),
  ]);
  const events = Object.values(byStatus).reduce((sum, count) => sum + count, 0);
  return { receipts, processedOrderReceipts, events, orderPlacedEvents, eventsByStatus: byStatus };
}

export async function countEventsByStatus(db: AppPrismaClient): Promise<Record<string, number>> {
  const rows = await db.$queryRawUnsafe<{ status: string; n: number | bigint }[]>(
    `SELECT "status", COUNT(*) AS n FROM "OutboxEvent" GROUP BY "status"`,
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}
