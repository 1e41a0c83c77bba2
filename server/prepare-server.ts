import { migrateDatabase, readMigrationStatus } from "../app/db/migrate.server";
import { StartupError } from "../app/db/startup-failure.server";
import {
  ConfigurationError,
  parseEnv,
  unknownSettingWarning,
  unknownSvcVariables,
  type AppEnv,
} from "../app/env.server";

/**
 * What every server start does first: check the configuration, then apply pending migrations
 * (or, with SVC_MIGRATE_ON_START=false, check that none is pending). A failure ends the process
 * with one line that names the variable and the step (decisions 038 and 039).
 */
export async function prepareServer(source: Record<string, string | undefined>): Promise<AppEnv> {
  try {
    const env = parseEnv(source);
    for (const unknown of unknownSvcVariables(source))
      console.error(unknownSettingWarning(unknown));
    await prepareDatabase(env);
    await sealClearSessionTokensAtStart(env);
    return env;
  } catch (error) {
    console.error(startupFailureLine(error));
    process.exit(1);
  }
}

export function startupFailureLine(error: unknown): string {
  if (error instanceof ConfigurationError || error instanceof StartupError) return error.message;
  return `Start-up failed: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Seals the Shopify tokens a row still holds in clear (decision 044): rows from before the
 * tokens were sealed. Not fatal: the session storage seals such a row when it first reads it.
 */
async function sealClearSessionTokensAtStart(env: AppEnv) {
  // Imported here: these modules read the configuration on load, which is now known to be good.
  const { createPrismaClient } = await import("../app/db/client.server");
  const { createSecretBox } = await import("../app/crypto/secret-box.server");
  const { encryptionKeysOf } = await import("../app/crypto/secrets.server");
  const { sealClearSessionTokens } = await import("../app/models/Session.server");
  const db = createPrismaClient(env.DATABASE_URL, env.DATABASE_POOL_SIZE);
  try {
    const sealed = await sealClearSessionTokens(db, createSecretBox(encryptionKeysOf(env)));
    if (sealed > 0) {
      // eslint-disable-next-line no-console
      console.log(`Session tokens: sealed those of ${sealed} session(s) stored in clear`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(
      `Session tokens stored in clear were not sealed at start (${message}): each is sealed when first read, or by npm run svc -- keys:reseal`,
    );
  } finally {
    await db.$disconnect();
  }
}

async function prepareDatabase(env: AppEnv) {
  try {
    if (env.SVC_MIGRATE_ON_START) {
      const variable = env.DIRECT_DATABASE_URL ? "DIRECT_DATABASE_URL" : "DATABASE_URL";
      const report = await migrateDatabase(env.DIRECT_DATABASE_URL ?? env.DATABASE_URL, {
        variable,
        lockTimeoutSeconds: env.SVC_MIGRATION_LOCK_TIMEOUT_SECONDS,
        tableLockTimeoutSeconds: env.SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS,
      });
      // Plain output: the logger reads the configuration on load, and this runs before it is known.
      // eslint-disable-next-line no-console
      console.log(
        `Migrations (${report.provider}): ${report.applied.length} applied, ${report.alreadyApplied.length} already applied`,
      );
      // The app's own URL (through the pooler) must answer too, not only the direct one.
      if (env.DIRECT_DATABASE_URL) await readMigrationStatus(env.DATABASE_URL);
      return;
    }
    const status = await readMigrationStatus(env.DATABASE_URL);
    if (status.pending.length > 0) {
      throw new StartupError(
        "DATABASE_URL",
        `${status.pending.length} migration(s) not applied (${status.pending.join(", ")}) and SVC_MIGRATE_ON_START=false: run \`npm run db:migrate\` first`,
        "migrations",
      );
    }
    // eslint-disable-next-line no-console
    console.log(
      `Migrations (${status.provider}): not run at start (SVC_MIGRATE_ON_START=false); all ${status.applied.length} applied`,
    );
  } catch (error) {
    if (error instanceof StartupError) throw error;
    // An edited or failed migration: the runner's own message says which and what to do.
    const message = error instanceof Error ? error.message : String(error);
    throw new StartupError(undefined, message, "migrations", { cause: error });
  }
}
