import { resolve } from "node:path";
import { DEFAULT_APP_CONFIG_PATH } from "./server/app-config";
import { DEFAULT_DELIVERY_TIMEOUT_MS, MAX_RETRIES } from "./server/webhook-delivery";

/**
 * The local store's settings from the environment, for `npm run store` and the dev script:
 * SVC_STORE_PORT (4020), SVC_STORE_APP_CONFIG (shopify.app.toml), SVC_STORE_WEBHOOK_RETRY_DELAYS_MS
 * (comma-separated delays before each retry, at most 8; Shopify's ~4 h schedule when unset) and
 * SVC_STORE_WEBHOOK_TIMEOUT_MS (5000).
 */
export interface StoreSettings {
  port: number;
  appConfigPath: string;
  retryDelaysMs: number[] | undefined;
  deliveryTimeoutMs: number;
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === "") return 4020;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`SVC_STORE_PORT must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}

function readRetryDelays(value: string | undefined): number[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const delays = value.split(",").map((part) => part.trim());
  if (delays.length > MAX_RETRIES || delays.some((delay) => !/^\d+$/.test(delay))) {
    throw new Error(
      `SVC_STORE_WEBHOOK_RETRY_DELAYS_MS must be up to ${MAX_RETRIES} comma-separated whole numbers of milliseconds, got "${value}"`,
    );
  }
  return delays.map(Number);
}

function readTimeout(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_DELIVERY_TIMEOUT_MS;
  const timeout = Number(value);
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 600_000) {
    throw new Error(
      `SVC_STORE_WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000, got "${value}"`,
    );
  }
  return timeout;
}

export function storeSettingsFrom(env: Record<string, string | undefined>): StoreSettings {
  const appConfigPath = env.SVC_STORE_APP_CONFIG;
  return {
    port: readPort(env.SVC_STORE_PORT),
    appConfigPath: appConfigPath ? resolve(appConfigPath) : DEFAULT_APP_CONFIG_PATH,
    retryDelaysMs: readRetryDelays(env.SVC_STORE_WEBHOOK_RETRY_DELAYS_MS),
    deliveryTimeoutMs: readTimeout(env.SVC_STORE_WEBHOOK_TIMEOUT_MS),
  };
}
