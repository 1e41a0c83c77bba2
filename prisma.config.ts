import { defineConfig } from "prisma/config";

// Prisma's CLI (prisma migrate deploy, prisma studio) reads this file. DATABASE_URL picks
// the schema and the migrations folder of the matching database.
const url = process.env.DATABASE_URL ?? "file:./prisma/dev.sqlite";
const provider = /^postgres(ql)?:\/\//.test(url) ? "postgresql" : "sqlite";

export default defineConfig({
  schema: provider === "postgresql" ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: `prisma/migrations/${provider}` },
  datasource: { url },
});
