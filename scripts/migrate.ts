import "../server/production-default";
import { migrateDatabase } from "../app/db/migrate.server";
import { redactDatabaseUrl, StartupError } from "../app/db/startup-failure.server";
import { ConfigurationError, parseMigrationEnv } from "../app/env.server";

// npm run db:migrate, the release step (decision 039): applies prisma/migrations/<provider>/ to
// DIRECT_DATABASE_URL when set (PostgreSQL without the pooler), else DATABASE_URL. Production
// unless NODE_ENV says otherwise, so DATABASE_URL is required as the server requires it.
// Exit 0: the database is up to date. Exit 1: one line says why; on PostgreSQL the migrations
// before a failing one stay applied, and the failing one is recorded as rolled back.
try {
  const env = parseMigrationEnv(process.env);
  const variable = env.DIRECT_DATABASE_URL ? "DIRECT_DATABASE_URL" : "DATABASE_URL";
  const url = env.DIRECT_DATABASE_URL ?? env.DATABASE_URL;
  console.log(`Migrating ${redactDatabaseUrl(url)} (${variable})`);
  const report = await migrateDatabase(url, {
    variable,
    lockTimeoutSeconds: env.SVC_MIGRATION_LOCK_TIMEOUT_SECONDS,
    tableLockTimeoutSeconds: env.SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS,
  });
  console.log(
    `Migrations (${report.provider}): applied ${report.applied.length} [${report.applied.join(", ")}], ` +
      `${report.alreadyApplied.length} already applied`,
  );
} catch (error) {
  const known = error instanceof ConfigurationError || error instanceof StartupError;
  const message = error instanceof Error ? error.message : String(error);
  console.error(known ? message : `${message} (migrations)`);
  process.exit(1);
}
