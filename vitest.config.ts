import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Three projects: pure and HTTP-only tests run once ("unit"); every test that touches
// the database runs twice, once per supported database.
const databaseProject = (provider: "sqlite" | "postgresql") => ({
  extends: true as const,
  test: {
    name: provider,
    include: ["test/integration/**/*.test.ts"],
    setupFiles: ["test/support/database-setup.ts"],
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
          include: ["app/**/*.test.ts", "emulator/**/*.test.ts", "test/unit/**/*.test.ts"],
        },
      },
      databaseProject("sqlite"),
      databaseProject("postgresql"),
      {
        // The theme app extension in Chromium (test/storefront), against the app's proxy routes
        // on SQLite. One file at a time: each starts a browser.
        extends: true,
        test: {
          name: "browser",
          include: ["test/storefront/**/*.test.ts"],
          setupFiles: ["test/support/database-setup.ts"],
          env: { TEST_DATABASE_PROVIDER: "sqlite" },
          testTimeout: 30_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
