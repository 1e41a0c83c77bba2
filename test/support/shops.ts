import type { SecretBox } from "../../app/crypto/secret-box.server";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { ConnectionKeysInput } from "../../app/models/ShopConnection.server";
import { SANDBOX_KEY } from "../../emulator/test-support";
import { createOfflineSession } from "./offline-session";

// Shops as the app's own code leaves them. The app modules are imported on first call, not
// with this module: they read the configuration (SVC_BASE_URL, the encryption keys) on load.

/** The emulator's sandbox key, with sandbox as the environment: delivery may start. */
export const SANDBOX_CONNECTION: ConnectionKeysInput = {
  environment: "sandbox",
  sandboxSecretKey: SANDBOX_KEY,
};

/**
 * Saves the shop's keys as the Connection page does, sealed by the app's secret box, or by `box`
 * to seal them as the app did under other encryption keys.
 */
export async function connectShop(
  db: AppPrismaClient,
  shop: string,
  keys: ConnectionKeysInput = SANDBOX_CONNECTION,
  box?: SecretBox,
) {
  const { saveConnectionKeys } = await import("../../app/models/ShopConnection.server");
  const { getSecretBox } = await import("../../app/crypto/secrets.server");
  return saveConnectionKeys(db, box ?? getSecretBox(), shop, keys);
}

export interface ShopSeed {
  /** The keys to save; null saves none (a shop installed but not connected). */
  keys?: ConnectionKeysInput | null;
  /** The offline session's access token. */
  accessToken?: string;
  /** The offline session's scopes; the current install's unless given. */
  scope?: string;
  /** Recorded as the install's scopes first, as the OAuth callback does. */
  installedScopes?: string | null;
}

/** An installed shop: its install, its saved keys and the offline session Admin API calls use. */
export async function seedShop(db: AppPrismaClient, shop: string, seed: ShopSeed = {}) {
  if (seed.installedScopes !== undefined) {
    const { recordInstallation } = await import("../../app/models/ShopConnection.server");
    await recordInstallation(db, shop, seed.installedScopes);
  }
  if (seed.keys !== null) await connectShop(db, shop, seed.keys);
  await createOfflineSession(db, shop, seed.accessToken ?? `shpat_offline_${shop}`, seed.scope);
}
