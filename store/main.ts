import { storeSettingsFrom } from "./config";
import { startStore } from "./server/server";
import { describeStorefrontTheme } from "./storefront/theme/files";

/*
 * `npm run store`: the local Shopify store on 127.0.0.1 for development. Environment:
 * SVC_STORE_PORT (4020), SVC_STORE_APP_CONFIG (shopify.app.toml),
 * SVC_STORE_WEBHOOK_RETRY_DELAYS_MS (Shopify's ~4 h schedule), SVC_STORE_WEBHOOK_TIMEOUT_MS (5000).
 * Point the app at it with SHOPIFY_ADMIN_ORIGIN=<the address printed>.
 */

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const settings = storeSettingsFrom(process.env);
  const store = await startStore({
    port: settings.port,
    host: "127.0.0.1",
    appConfigPath: settings.appConfigPath,
    deliveryTimeoutMs: settings.deliveryTimeoutMs,
    ...(settings.retryDelaysMs === undefined ? {} : { retryDelaysMs: settings.retryDelaysMs }),
  });
  print("svc local Shopify store");
  print(`  origin:       ${store.url}  (the app's SHOPIFY_ADMIN_ORIGIN)`);
  print(`  shop routes:  ${store.url}/shops/{shop}/admin/...`);
  print(`  app config:   ${settings.appConfigPath}`);
  print(`  storefront:   ${describeStorefrontTheme()}`);
  print(
    `  control API:  ${store.url}/__store/{shops,graphql,webhooks,reset} (see store/README.md)`,
  );

  let closing = false;
  const shutDown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    print(`Received ${signal}, closing the store`);
    store.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("Failed to close the store:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutDown);
  process.on("SIGTERM", shutDown);
}

main().catch((error: unknown) => {
  console.error("Failed to start the store:", error instanceof Error ? error.message : error);
  process.exit(1);
});
