import { spawn } from "node:child_process";
import { migrateDatabase } from "../app/db/migrate.server";
import { ConfigurationError, parseEnv } from "../app/env.server";

// npm start (production): check the configuration, apply pending migrations, then serve
// the built app. Any instance may start first; migrations take a lock.
try {
  const env = parseEnv(process.env);
  const report = await migrateDatabase(env.DATABASE_URL);
  console.log(
    `Migrations: ${report.applied.length} applied, ${report.alreadyApplied.length} already applied`,
  );
} catch (error) {
  console.error(
    error instanceof ConfigurationError ? error.message : `Start-up failed: ${String(error)}`,
  );
  process.exit(1);
}

// The server runs as a direct child (no npx in between), so stop signals reach it.
const server = spawn(
  process.execPath,
  ["node_modules/@remix-run/serve/dist/cli.js", "./build/server/index.js"],
  { stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => process.exit(code ?? 0));
