import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PostgresPrismaClient } from "../generated/prisma/postgresql/client";
import { PrismaClient as SqlitePrismaClient } from "../generated/prisma/sqlite/client";
import { parseDatabasePoolSize } from "../env.server";
import { providerOf, sqliteFilePath, type DatabaseProvider } from "../lib/database-url";

/**
 * The app's code is typed against the SQLite client: its API is the subset both databases
 * share, so code that compiles runs on PostgreSQL too (decision 001).
 */
export type AppPrismaClient = SqlitePrismaClient;

const providers = new WeakMap<object, DatabaseProvider>();

/**
 * Prisma keeps up to 1,000 compiled query plans by default, and a multi-row insert compiles one
 * plan per row count: the group commit of new orders and the backfill fill the cache with plans
 * of up to 200 rows, about 100 KB each, which the worker's 128 MB heap cannot hold (found by
 * `npm run bench:backfill`). The hot queries stay cached in 100.
 */
const QUERY_PLAN_CACHE_SIZE = 100;

/**
 * `poolSize` is the app's DATABASE_POOL_SIZE (from getEnv()). Scripts that create a client
 * before, or without, the app's configuration leave it out: it is then read from the
 * environment alone, and a malformed value stops them with a ConfigurationError naming it.
 */
export function createPrismaClient(databaseUrl: string, poolSize?: number): AppPrismaClient {
  const provider = providerOf(databaseUrl);
  const client =
    provider === "postgresql"
      ? (new PostgresPrismaClient({
          adapter: new PrismaPg({
            connectionString: databaseUrl,
            max: poolSize ?? parseDatabasePoolSize(process.env),
          }),
          queryPlanCacheMaxSize: QUERY_PLAN_CACHE_SIZE,
        }) as unknown as AppPrismaClient)
      : new SqlitePrismaClient({
          adapter: new PrismaBetterSqlite3(
            { url: sqliteFilePath(databaseUrl), timeout: 10_000 },
            { timestampFormat: "unixepoch-ms" },
          ),
          queryPlanCacheMaxSize: QUERY_PLAN_CACHE_SIZE,
        });
  providers.set(client, provider);
  return client;
}

/** Which database a client talks to, for the few raw queries that differ (app/outbox/claim). */
export function providerOfClient(db: AppPrismaClient): DatabaseProvider {
  const provider = providers.get(db);
  if (!provider) throw new Error("Unknown Prisma client: create it with createPrismaClient()");
  return provider;
}

/** The client inside `db.$transaction(async (tx) => ...)`. */
export type AppTransaction = Parameters<Parameters<AppPrismaClient["$transaction"]>[0]>[0];
