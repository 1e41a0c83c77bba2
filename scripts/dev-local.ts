import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { emulatorSettingsFrom } from "../emulator/config";
import { startEmulator } from "../emulator/server";
import { storeSettingsFrom } from "../store/config";
import { startStore } from "../store/server/server";
import { describeStorefrontTheme } from "../store/storefront/theme/files";
import { wantsColour } from "../app/lib/terminal";
import { devOutput } from "./dev-output";
import { DEMO_SHOP, demoModeOf, runStoreDemo } from "./local-demo";
import { prepareServer } from "../server/prepare-server";

// npm run local: everything a developer needs on one machine, with no Shopify account and no
// internet. A .env is written on first run with local development credentials.

const out = devOutput(wantsColour(process.env, process.stdout.isTTY === true));
const say = (text: string) => out.line(text, "local");

if (!existsSync(".env")) {
  const template = readFileSync(".env.example", "utf8").replace(
    /^SVC_ENCRYPTION_KEY=$/m,
    `SVC_ENCRYPTION_KEY=${randomBytes(32).toString("base64")}`,
  );
  writeFileSync(".env", template, { mode: 0o600 });
  say("wrote .env with local development credentials and a fresh encryption key");
}
process.loadEnvFile(".env");

let demoMode: ReturnType<typeof demoModeOf>;
try {
  demoMode = demoModeOf(process.env.SVC_LOCAL_DEMO);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const env = await prepareServer(process.env);
const { port, sandboxKey, liveKey, catalogue } = emulatorSettingsFrom(process.env);

const emulator = await startEmulator({ sandboxKey, liveKey, catalogue, port });
say(`protection-service emulator: ${emulator.url} (sandbox ${emulator.url}sandbox/)`);
say(`  sandbox key ${sandboxKey}, live key ${liveKey}`);

// The local Shopify store plays the shop's back office (the app's Admin API calls, OAuth and
// token exchange go to it, SHOPIFY_ADMIN_ORIGIN, and its webhooks come to the app) and, at its
// origin's root, the demo shop's storefront, checkout and embedded admin.
const storeSettings = storeSettingsFrom(process.env);
const store = await startStore({
  port: storeSettings.port,
  host: "127.0.0.1",
  appConfigPath: storeSettings.appConfigPath,
  deliveryTimeoutMs: storeSettings.deliveryTimeoutMs,
  storefrontShop: DEMO_SHOP,
  // Dawn's cart drawer rather than its default notification, so the buyer sees the plan line
  // follow a quantity change without leaving the product page (a theme editor setting).
  storefrontApp: { block: true, embed: true, cartType: "drawer" },
  ...(storeSettings.retryDelaysMs === undefined
    ? {}
    : { retryDelaysMs: storeSettings.retryDelaysMs }),
});
// The store is opened at localhost, the app's own host: its admin frames the app, and a browser
// that blocks third-party storage (incognito, Playwright) denies a frame on another site the
// sessionStorage the app needs (decision 030).
const storeUrl = store.url.replace("//127.0.0.1:", "//localhost:");
say(`local Shopify store: ${storeUrl} (control API: ${storeUrl}/__store, store/README.md)`);
say(`  storefront theme: ${describeStorefrontTheme()}`);

// The app writes to the same terminal: its logger picks pretty lines there, JSON when piped.
// Remix's CLI itself, not through npx: a SIGTERM to npx would leave the dev server running.
const remixCli = fileURLToPath(new URL("../node_modules/.bin/remix", import.meta.url));
const app = spawn(process.execPath, [remixCli, "vite:dev", "--port", String(env.PORT)], {
  stdio: "inherit",
  env: { ...process.env, SVC_BASE_URL: emulator.url, SHOPIFY_ADMIN_ORIGIN: storeUrl },
});
const appUrl = `http://localhost:${env.PORT}`;
say(`app: ${appUrl} (health: /healthz), starting`);

if (demoMode === "off") {
  say(
    `SVC_LOCAL_DEMO=off: no demo shop. Create one with the store's control API (store/README.md).`,
  );
} else {
  process.env.SVC_BASE_URL = emulator.url;
  runStoreDemo({
    env,
    appUrl,
    storeUrl,
    emulatorUrl: emulator.url,
    sandboxKey,
    lifecycle: demoMode === "lifecycle",
    log: (line) => out.line(line),
  }).then(
    (links) =>
      out.links(links, [
        "Pick a plan on the product page, add it to the cart and check out: the order's",
        "events arrive in the admin's Event log, and at the service:",
        `  ${emulator.url}__emulator/state?environment=sandbox`,
        "Check out without a plan: the Thank-you page shows the app's block with the",
        "service's self-service link for the order (?locale=de for German).",
        `The store's webhooks: ${storeUrl}/__store/webhooks. The app: ${appUrl}.`,
        "Ctrl-C stops the app, the store and the emulator.",
      ]),
    (error: unknown) =>
      out.line(`the demo failed: ${error instanceof Error ? error.message : String(error)}`),
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
