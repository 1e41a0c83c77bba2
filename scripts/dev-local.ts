import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { migrateDatabase } from "../app/db/migrate.server";
import { ConfigurationError, parseEnv } from "../app/env.server";
import { startEmulator } from "../emulator/server";

// npm run local: everything a developer needs on one machine, with no Shopify account and no
// internet. A .env is written on first run with local development credentials.

if (!existsSync(".env")) {
  const template = readFileSync(".env.example", "utf8").replace(
    /^SVC_ENCRYPTION_KEY=$/m,
    `SVC_ENCRYPTION_KEY=${randomBytes(32).toString("base64")}`,
  );
  writeFileSync(".env", template, { mode: 0o600 });
  console.log("Wrote .env with local development credentials and a fresh encryption key");
}
process.loadEnvFile(".env");

let env;
try {
  env = parseEnv(process.env);
} catch (error) {
  if (error instanceof ConfigurationError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const sandboxKey = process.env.SVC_EMULATOR_SANDBOX_KEY ?? "sk_test_local";
const liveKey = process.env.SVC_EMULATOR_LIVE_KEY ?? "sk_live_local";
const emulatorPort = Number(process.env.SVC_EMULATOR_PORT ?? 4010);

const report = await migrateDatabase(env.DATABASE_URL);
console.log(`Database ${env.DATABASE_URL}: ${report.applied.length} migration(s) applied`);

const emulator = await startEmulator({ sandboxKey, liveKey, port: emulatorPort });
console.log(`Protection-service emulator: ${emulator.url} (sandbox ${emulator.url}sandbox/)`);
console.log(`  sandbox key ${sandboxKey}, live key ${liveKey}`);

const app = spawn("npx", ["remix", "vite:dev", "--port", String(env.PORT)], {
  stdio: "inherit",
  env: { ...process.env, SVC_BASE_URL: emulator.url },
});
console.log(`App: http://localhost:${env.PORT} (health: /healthz)`);

const stop = async () => {
  app.kill("SIGTERM");
  await emulator.close();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
app.on("exit", async (code) => {
  await emulator.close();
  process.exit(code ?? 0);
});
