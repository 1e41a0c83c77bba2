import { emulatorSettingsFrom } from "./config";
import { startEmulator } from "./server";

/*
 * `npm run emulator`: the protection service emulator on 127.0.0.1 for local development.
 * Environment: SVC_EMULATOR_PORT (4010), SVC_EMULATOR_SANDBOX_KEY (sk_test_local),
 * SVC_EMULATOR_LIVE_KEY (sk_live_local), SVC_EMULATOR_CATALOGUE (emulator/catalogue.json).
 */

async function main(): Promise<void> {
  const { port, sandboxKey, liveKey, catalogue, cataloguePath } = emulatorSettingsFrom(process.env);
  const emulator = await startEmulator({ port, host: "127.0.0.1", sandboxKey, liveKey, catalogue });
  console.log("svc protection service emulator");
  console.log(`  production: ${emulator.url}  (key ${liveKey})`);
  console.log(`  sandbox:    ${emulator.url}sandbox/  (key ${sandboxKey})`);
  console.log(`  catalogue:  ${cataloguePath}`);
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
