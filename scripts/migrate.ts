import { DEFAULT_DATABASE_URL } from "../app/lib/database-url";
import { migrateDatabase } from "../app/db/migrate.server";

// npm run db:migrate: applies prisma/migrations/<provider>/ to DATABASE_URL.
const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
try {
  const report = await migrateDatabase(databaseUrl);
  console.log(
    `Migrations (${report.provider}): applied ${report.applied.length} [${report.applied.join(", ")}], ` +
      `${report.alreadyApplied.length} already applied`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
