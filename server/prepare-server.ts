import { migrateDatabase } from "../app/db/migrate.server";
import { ConfigurationError, parseEnv, type AppEnv } from "../app/env.server";

/**
 * What every server start does first: check the configuration, then apply pending migrations.
 * A failure ends the process with one line, naming the variable when the configuration is bad.
 */
export async function prepareServer(source: Record<string, string | undefined>): Promise<AppEnv> {
  try {
    const env = parseEnv(source);
    const report = await migrateDatabase(env.DATABASE_URL);
    // Plain output: the logger reads the configuration on load, and this runs before it is known.
    // eslint-disable-next-line no-console
    console.log(
      `Migrations (${report.provider}): ${report.applied.length} applied, ${report.alreadyApplied.length} already applied`,
    );
    return env;
  } catch (error) {
    console.error(
      error instanceof ConfigurationError ? error.message : `Start-up failed: ${String(error)}`,
    );
    process.exit(1);
  }
}
