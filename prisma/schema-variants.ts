/** Derives the PostgreSQL schema from the SQLite one: only the provider and output differ. */
export function postgresSchemaFrom(sqliteSchema: string): string {
  const derived = sqliteSchema
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace(
      'output       = "../app/generated/prisma/sqlite"',
      'output       = "../../app/generated/prisma/postgresql"',
    );
  if (derived.includes('"sqlite"') || !derived.includes("generated/prisma/postgresql")) {
    throw new Error(
      "Failed to derive prisma/postgresql/schema.prisma: provider or output line changed",
    );
  }
  return `// GENERATED from prisma/schema.prisma by scripts/prisma-generate.ts. Do not edit.\n${derived}`;
}
