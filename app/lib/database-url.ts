import path from "node:path";

export type DatabaseProvider = "sqlite" | "postgresql";

/** The embedded default: a SQLite file in the project. */
export const DEFAULT_DATABASE_URL = "file:./prisma/dev.sqlite";

export const DATABASE_URL_RULE =
  "must start with file: (SQLite) or postgres:// / postgresql:// (PostgreSQL)";

export function isSupportedDatabaseUrl(databaseUrl: string): boolean {
  return /^(file:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl);
}

export function providerOf(databaseUrl: string): DatabaseProvider {
  if (!isSupportedDatabaseUrl(databaseUrl)) throw new Error(`DATABASE_URL ${DATABASE_URL_RULE}`);
  return databaseUrl.startsWith("file:") ? "sqlite" : "postgresql";
}

/** `file:./prisma/dev.sqlite` → absolute path, relative to the working directory. */
export function sqliteFilePath(databaseUrl: string): string {
  const location = databaseUrl.slice("file:".length).split("?")[0] ?? "";
  if (!location)
    throw new Error(`DATABASE_URL file: needs a path, for example ${DEFAULT_DATABASE_URL}`);
  return location === ":memory:" ? location : path.resolve(location);
}
