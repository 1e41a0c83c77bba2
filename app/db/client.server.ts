import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PostgresPrismaClient } from "../generated/prisma/postgresql/client";
import { PrismaClient as SqlitePrismaClient } from "../generated/prisma/sqlite/client";
import { providerOf, sqliteFilePath, type DatabaseProvider } from "./database-url";

/**
 * The app's code is typed against the SQLite client: its API is the subset both databases
 * share, so code that compiles runs on PostgreSQL too (decision 001).
 */
export type AppPrismaClient = SqlitePrismaClient;

const providers = new WeakMap<object, DatabaseProvider>();

export function createPrismaClient(databaseUrl: string): AppPrismaClient {
  const provider = providerOf(databaseUrl);
  const client =
    provider === "postgresql"
      ? (new PostgresPrismaClient({
          adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize() }),
        }) as unknown as AppPrismaClient)
      : new SqlitePrismaClient({
          adapter: new PrismaBetterSqlite3(
            { url: sqliteFilePath(databaseUrl), timeout: 10_000 },
            { timestampFormat: "unixepoch-ms" },
          ),
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

function poolSize(): number {
  const configured = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(configured) && configured > 0 ? configured : 10;
}

/** The client inside `db.$transaction(async (tx) => ...)`. */
export type AppTransaction = Parameters<Parameters<AppPrismaClient["$transaction"]>[0]>[0];
