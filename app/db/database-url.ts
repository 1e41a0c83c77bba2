import path from "node:path";

export type DatabaseProvider = "sqlite" | "postgresql";

export function providerOf(databaseUrl: string): DatabaseProvider {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgresql";
  if (databaseUrl.startsWith("file:")) return "sqlite";
  throw new Error(
    "DATABASE_URL must start with file: (SQLite) or postgres:// / postgresql:// (PostgreSQL)",
  );
}

/** `file:./prisma/dev.sqlite` → absolute path, relative to the working directory. */
export function sqliteFilePath(databaseUrl: string): string {
  const location = databaseUrl.slice("file:".length).split("?")[0] ?? "";
  if (!location)
    throw new Error("DATABASE_URL file: needs a path, for example file:./prisma/dev.sqlite");
  return location === ":memory:" ? location : path.resolve(location);
}
