import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PostgresPrismaClient } from "../generated/prisma/postgresql/client";
import { PrismaClient as SqlitePrismaClient } from "../generated/prisma/sqlite/client";
import { providerOf, sqliteFilePath } from "./database-url";

/**
 * The app's code is typed against the SQLite client: its API is the subset both databases
 * share, so code that compiles runs on PostgreSQL too (decision 001).
 */
export type AppPrismaClient = SqlitePrismaClient;

export function createPrismaClient(databaseUrl: string): AppPrismaClient {
  if (providerOf(databaseUrl) === "postgresql") {
    const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize() });
    return new PostgresPrismaClient({ adapter }) as unknown as AppPrismaClient;
  }
  const adapter = new PrismaBetterSqlite3(
    { url: sqliteFilePath(databaseUrl), timeout: 10_000 },
    { timestampFormat: "unixepoch-ms" },
  );
  return new SqlitePrismaClient({ adapter });
}

function poolSize(): number {
  const configured = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(configured) && configured > 0 ? configured : 10;
}
