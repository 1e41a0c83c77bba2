import { resolve } from "node:path";
import { loadCatalogueFile, loadDefaultCatalogue } from "./catalogue";
import { startEmulator } from "./server";

/*
 * `npm run emulator`: the protection service emulator on 127.0.0.1 for local development.
 * Environment: SVC_EMULATOR_PORT (4010), SVC_EMULATOR_SANDBOX_KEY (sk_test_local),
 * SVC_EMULATOR_LIVE_KEY (sk_live_local), SVC_EMULATOR_CATALOGUE (emulator/catalogue.json).
 */

function readPort(value: string | undefined): number {
  if (value === undefined || value === "") return 4010;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`SVC_EMULATOR_PORT must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}

async function main(): Promise<void> {
  const port = readPort(process.env.SVC_EMULATOR_PORT);
  const sandboxKey = process.env.SVC_EMULATOR_SANDBOX_KEY || "sk_test_local";
  const liveKey = process.env.SVC_EMULATOR_LIVE_KEY || "sk_live_local";
  const cataloguePath = process.env.SVC_EMULATOR_CATALOGUE;
  const catalogue = cataloguePath
    ? loadCatalogueFile(resolve(cataloguePath))
    : loadDefaultCatalogue();

  const emulator = await startEmulator({ port, host: "127.0.0.1", sandboxKey, liveKey, catalogue });
  console.log("svc protection service emulator");
  console.log(`  production: ${emulator.url}  (key ${liveKey})`);
  console.log(`  sandbox:    ${emulator.url}sandbox/  (key ${sandboxKey})`);
  console.log(
    `  catalogue:  ${cataloguePath ? resolve(cataloguePath) : "emulator/catalogue.json"}`,
  );
  console.log(
    `  test endpoints: ${emulator.url}__emulator/{requests,reset,faults,state,catalogue}`,
  );

  let closing = false;
  const shutDown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    console.log(`Received ${signal}, closing the emulator`);
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("Failed to close the emulator:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutDown);
  process.on("SIGTERM", shutDown);
}

main().catch((error: unknown) => {
  console.error("Failed to start the emulator:", error instanceof Error ? error.message : error);
  process.exit(1);
});
