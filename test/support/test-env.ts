import os from "node:os";
import path from "node:path";

/** The configuration every test process runs with. Test values only; none is a real secret. */
export const TEST_API_SECRET = "test-shopify-api-secret";
export const TEST_API_KEY = "test-shopify-api-key";
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");

export function applyTestEnv() {
  process.env.NODE_ENV = "test";
  process.env.SHOPIFY_API_KEY = TEST_API_KEY;
  process.env.SHOPIFY_API_SECRET = TEST_API_SECRET;
  process.env.SHOPIFY_APP_URL = "https://svc-protection.test";
  process.env.SVC_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
  process.env.SVC_BASE_URL ??= "http://127.0.0.1:4010/";
}

/**
 * The server PostgreSQL tests create their throwaway databases on: TEST_POSTGRES_URL, which
 * scripts/services.sh sets when it starts one, else the local server on 5432.
 */
export function postgresAdminUrl(): string {
  return (
    process.env.TEST_POSTGRES_URL ?? `postgresql://${os.userInfo().username}@127.0.0.1:5432/test`
  );
}

export const repoRoot = path.resolve(import.meta.dirname, "../..");

/**
 * Shopify's webhook payload examples and /cart.js answers, copied into the repository with their
 * sources (test/fixtures/shopify/SOURCES.md); never edited by tests. SHOPIFY_FIXTURES_DIR points
 * the tests at another copy of the same layout.
 */
export const shopifyFixturesDir =
  process.env.SHOPIFY_FIXTURES_DIR ?? path.join(repoRoot, "test/fixtures/shopify");
