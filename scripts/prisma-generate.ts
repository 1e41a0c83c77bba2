import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { postgresSchemaFrom } from "../prisma/schema-variants";

// Generates the Prisma client for both databases. The PostgreSQL schema is derived from
// prisma/schema.prisma, so there is one source of truth for the models.
// Prisma 7's CLI downloads a schema engine at start; generate does not need it, so
// PRISMA_SCHEMA_ENGINE_BINARY points at /bin/false and nothing is fetched.

const sqliteSchema = "prisma/schema.prisma";
const postgresSchema = "prisma/postgresql/schema.prisma";

mkdirSync("prisma/postgresql", { recursive: true });
writeFileSync(postgresSchema, postgresSchemaFrom(readFileSync(sqliteSchema, "utf8")));

for (const schema of [sqliteSchema, postgresSchema]) {
  execFileSync("npx", ["prisma", "generate", "--schema", schema], {
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/false",
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      CHECKPOINT_DISABLE: "1",
    },
  });
}
