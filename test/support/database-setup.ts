import { afterAll } from "vitest";
import { migrateDatabase } from "../../app/db/migrate.server";
import { createThrowawayDatabase, testDatabaseProvider } from "./databases";
import { applyTestEnv } from "./test-env";

// Runs before each integration test file: a migrated database of its own, on the
// provider of the vitest project (sqlite or postgresql), before any app module is imported.
applyTestEnv();
const database = await createThrowawayDatabase(testDatabaseProvider());
process.env.DATABASE_URL = database.url;
await migrateDatabase(database.url);

afterAll(async () => {
  await globalThis.svcPrismaGlobal?.$disconnect();
  globalThis.svcPrismaGlobal = undefined;
  await database.drop();
});
