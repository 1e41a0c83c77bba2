import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { emulatorSettingsFrom } from "../emulator/config";
import { startEmulator } from "../emulator/server";
import { storeSettingsFrom } from "../store/config";
import { startStore } from "../store/server/server";
import { runStoreDemo } from "./local-demo";
import { prepareServer } from "../server/prepare-server";

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

const env = await prepareServer(process.env);
const { port, sandboxKey, liveKey, catalogue } = emulatorSettingsFrom(process.env);

const emulator = await startEmulator({ sandboxKey, liveKey, catalogue, port });
console.log(`Protection-service emulator: ${emulator.url} (sandbox ${emulator.url}sandbox/)`);
console.log(`  sandbox key ${sandboxKey}, live key ${liveKey}`);

// The local Shopify store plays the shop's back office: the app's Admin API calls, OAuth and
// token exchange go to it (SHOPIFY_ADMIN_ORIGIN), and its webhooks come to the app.
const storeSettings = storeSettingsFrom(process.env);
const store = await startStore({
  port: storeSettings.port,
  host: "127.0.0.1",
  appConfigPath: storeSettings.appConfigPath,
  deliveryTimeoutMs: storeSettings.deliveryTimeoutMs,
  ...(storeSettings.retryDelaysMs === undefined
    ? {}
    : { retryDelaysMs: storeSettings.retryDelaysMs }),
});
console.log(
  `Local Shopify store: ${store.url} (control API: ${store.url}/__store, store/README.md)`,
);

const app = spawn("npx", ["remix", "vite:dev", "--port", String(env.PORT)], {
  stdio: "inherit",
  env: { ...process.env, SVC_BASE_URL: emulator.url, SHOPIFY_ADMIN_ORIGIN: store.url },
});
const appUrl = `http://localhost:${env.PORT}`;
console.log(`App: ${appUrl} (health: /healthz)`);

// SVC_LOCAL_DEMO=off skips the demo (the demo shop, its products and one order's lifecycle).
if (process.env.SVC_LOCAL_DEMO !== "off") {
  process.env.SVC_BASE_URL = emulator.url;
  runStoreDemo({ env, appUrl, storeUrl: store.url, emulatorUrl: emulator.url, sandboxKey }).catch(
    (error: unknown) => console.error(`The demo failed: ${String(error)}`),
  );
}

const stop = async () => {
  app.kill("SIGTERM");
  await Promise.all([emulator.close(), store.close()]);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
app.on("exit", async (code) => {
  await Promise.all([emulator.close(), store.close()]);
  process.exit(code ?? 0);
});
