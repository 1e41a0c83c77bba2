import { existsSync } from "node:fs";
import { text } from "node:stream/consumers";
import { EXIT, parseCommandLine, UsageError } from "../app/cli/args";
import { cliDatabaseUrl, runCommand } from "../app/cli/commands.server";
import { createPrismaClient } from "../app/db/client.server";
import { providerOf, sqliteFilePath } from "../app/lib/database-url";

// npm run svc -- <command>: the operator CLI (app/cli). The command line is parsed before
// any configuration is read, so --help and usage errors work anywhere. Each command reads
// only the variables it needs, not the app's whole configuration.

function fail(message: string, exitCode: number): never {
  console.error(`svc: ${message}`);
  process.exit(exitCode);
}

const parsed = parseCommandLine(process.argv.slice(2));
if (parsed instanceof UsageError) fail(parsed.message, parsed.exitCode);
if (parsed.name === "help") {
  console.log(parsed.text);
  process.exit(EXIT.ok);
}

// Variables already set win over .env, as with `node --env-file`.
try {
  process.loadEnvFile();
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
    fail(`cannot read .env: ${error instanceof Error ? error.message : String(error)}`, EXIT.usage);
  }
}

let databaseUrl: string;
try {
  databaseUrl = cliDatabaseUrl(process.env);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error), EXIT.usage);
}
// SQLite would quietly create an empty file in the wrong directory.
const sqliteFile = providerOf(databaseUrl) === "sqlite" ? sqliteFilePath(databaseUrl) : null;
if (sqliteFile && sqliteFile !== ":memory:" && !existsSync(sqliteFile)) {
  fail(
    `the database ${sqliteFile} does not exist (wrong directory or DATABASE_URL? npm run db:migrate creates it)`,
    EXIT.failed,
  );
}

const db = createPrismaClient(databaseUrl);
try {
  process.exitCode = await runCommand(parsed, {
    db,
    env: process.env,
    out: (line) => console.log(line),
    err: (message) => console.error(`svc: ${message}`),
    readStdin: () => text(process.stdin),
    // The app's Shopify client reads the whole configuration: only commands that call Shopify load it.
    adminFor: async (shop) => (await import("../app/workers.server")).offlineAdminFor(shop),
  });
} finally {
  await db.$disconnect();
}
