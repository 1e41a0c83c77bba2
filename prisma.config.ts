import { defineConfig } from "prisma/config";
import { DEFAULT_DATABASE_URL, providerOf } from "./app/lib/database-url";

// Prisma's CLI (prisma migrate deploy, prisma studio) reads this file. DATABASE_URL picks
// the schema and the migrations folder of the matching database.
const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const provider = providerOf(url);

export default defineConfig({
  schema: provider === "postgresql" ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: `prisma/migrations/${provider}` },
  datasource: { url },
});
