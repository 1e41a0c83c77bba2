import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Three projects: pure and HTTP-only tests run once ("unit"); every test that touches
// the database runs twice, once per supported database.
//
// The Admin GraphQL recorder comes first among the set-up files: the Shopify library keeps the
// `fetch` it finds when it loads, so the recorder must be in place before anything imports it.
// Then each file's local Shopify store, which sets SHOPIFY_ADMIN_ORIGIN before any app module
// reads it, and then the file's database.
const setupFiles = [
  "test/support/admin-graphql.ts",
  "test/support/local-store.ts",
  "test/support/database-setup.ts",
];

const databaseProject = (provider: "sqlite" | "postgresql") => ({
  extends: true as const,
  test: {
    name: provider,
    include: ["test/integration/**/*.test.ts"],
    setupFiles,
    env: { TEST_DATABASE_PROVIDER: provider },
  },
});

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "app/**/*.test.ts",
            "emulator/**/*.test.ts",
            "store/**/*.test.ts",
            "scripts/**/*.test.ts",
            "extensions/**/*.test.ts",
          ],
        },
      },
      databaseProject("sqlite"),
      databaseProject("postgresql"),
      {
        // Chromium on SQLite: the theme app extension against the app's proxy routes
        // (test/storefront), and the embedded admin pages served by the built app (test/admin).
        // One file at a time: each starts a browser.
        extends: true,
        test: {
          name: "browser",
          include: ["test/storefront/**/*.test.ts", "test/admin/**/*.test.ts"],
          setupFiles,
          env: { TEST_DATABASE_PROVIDER: "sqlite" },
          testTimeout: 30_000,
          fileParallelism: false,
        },
      },
      {
        // Chromium without the app: the UI extensions' bundles against a test double of the
        // app's routes (test/extensions). No database, no local store; run by test:browser.
        extends: true,
        test: {
          name: "extensions",
          include: ["test/extensions/**/*.test.ts"],
          testTimeout: 30_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
