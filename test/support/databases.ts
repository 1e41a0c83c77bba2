import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseProvider } from "../../app/lib/database-url";
import { postgresAdminUrl } from "./test-env";

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of the given kind, for one test file. */
export async function createThrowawayDatabase(
  provider: DatabaseProvider,
): Promise<ThrowawayDatabase> {
  if (provider === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "svc-test-"));
    return {
      url: `file:${path.join(dir, "test.sqlite")}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `svc_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export function testDatabaseProvider(): DatabaseProvider {
  const provider = process.env.TEST_DATABASE_PROVIDER;
  if (provider !== "sqlite" && provider !== "postgresql") {
    throw new Error(`TEST_DATABASE_PROVIDER must be sqlite or postgresql, got ${provider}`);
  }
  return provider;
}
