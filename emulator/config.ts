import { resolve } from "node:path";
import { loadCatalogueFile, loadDefaultCatalogue, type Catalogue } from "./catalogue";

/**
 * The emulator's settings from the environment, shared by `npm run emulator` and
 * `npm run local`: SVC_EMULATOR_PORT (4010), SVC_EMULATOR_SANDBOX_KEY (sk_test_local),
 * SVC_EMULATOR_LIVE_KEY (sk_live_local), SVC_EMULATOR_CATALOGUE (emulator/catalogue.json).
 */
export interface EmulatorSettings {
  port: number;
  sandboxKey: string;
  liveKey: string;
  catalogue: Catalogue;
  cataloguePath: string;
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === "") return 4010;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`SVC_EMULATOR_PORT must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}

export function emulatorSettingsFrom(env: Record<string, string | undefined>): EmulatorSettings {
  const cataloguePath = env.SVC_EMULATOR_CATALOGUE;
  return {
    port: readPort(env.SVC_EMULATOR_PORT),
    sandboxKey: env.SVC_EMULATOR_SANDBOX_KEY || "sk_test_local",
    liveKey: env.SVC_EMULATOR_LIVE_KEY || "sk_live_local",
    catalogue: cataloguePath ? loadCatalogueFile(resolve(cataloguePath)) : loadDefaultCatalogue(),
    cataloguePath: cataloguePath ? resolve(cataloguePath) : "emulator/catalogue.json",
  };
}
