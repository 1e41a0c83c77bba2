import type { ShopConnection } from "../generated/prisma/sqlite/client";
import { getSecretBox } from "../crypto/secrets.server";
import { getEnv } from "../env.server";
import type { AppPrismaClient } from "../db/client.server";
import type { Logger } from "../logger.server";
import {
  keyNameOf,
  markSecretUnreadable,
  readSecretKey,
  type UnreadableSecretDetail,
} from "../models/ShopConnection.server";
import { createProtectionClient, type ProtectionClient } from "../protection/client.server";
import { parseEndpointPaths } from "../protection/config";
import type { ApiVersion, Environment } from "../protection/types";

export type ClientForShop =
  | { status: "ready"; client: ProtectionClient; environment: Environment }
  | { status: "no_key"; environment: Environment; message: string }
  | {
      // The saved key cannot be opened (its encryption key is not configured, or the value is
      // damaged): pause the shop with markSecretUnreadable(db, shop, environment, detail).
      status: "unreadable";
      environment: Environment;
      message: string;
      detail: UnreadableSecretDetail;
    };

/**
 * The service client for a shop, in the shop's current environment (or the one asked for),
 * with that environment's key opened from its sealed form. The key lives only inside the client.
 * `timeoutMs` overrides SVC_REQUEST_TIMEOUT_MS (the storefront waits less than the outbox).
 */
export function protectionClientForShop(
  connection: ShopConnection,
  environment: Environment = connection.environment as Environment,
  options: { timeoutMs?: number } = {},
): ClientForShop {
  const read = readSecretKey(getSecretBox(), connection, environment);
  if (read.status === "missing") {
    return {
      status: "no_key",
      environment,
      message: `No ${keyNameOf(environment)} secret key is saved for ${connection.shop}`,
    };
  }
  if (read.status === "unreadable") {
    return {
      status: "unreadable",
      environment,
      message: `Failed to open the ${keyNameOf(environment)} secret key of ${connection.shop}: ${read.detail.reason}`,
      detail: read.detail,
    };
  }
  const client = protectionClientForKey({
    environment,
    secretKey: read.secretKey,
    apiVersion: connection.apiVersion as ApiVersion,
    timeoutMs: options.timeoutMs,
  });
  return { status: "ready", client, environment };
}

/**
 * A client for a key that is not saved (yet): the admin checks a key with it before saving.
 * Throws, like createProtectionClient, for a key that could not be sent in a header.
 */
export function protectionClientForKey(options: {
  environment: Environment;
  secretKey: string;
  apiVersion: ApiVersion;
  timeoutMs?: number;
}): ProtectionClient {
  const env = getEnv();
  return createProtectionClient({
    baseUrl: env.SVC_BASE_URL,
    environment: options.environment,
    secretKey: options.secretKey,
    apiVersion: options.apiVersion,
    timeoutMs: options.timeoutMs ?? env.SVC_REQUEST_TIMEOUT_MS,
    paths: parseEndpointPaths({
      eventsPath: env.SVC_EVENTS_PATH,
      cartCheckoutPath: env.SVC_CHECKOUT_PATH,
    }),
  });
}

/**
 * A shop's saved key could not be opened: pause the shop (its status detail says what to do)
 * and log it. Never throws, so that a storefront request can answer without the service.
 */
export async function pauseShopWithUnreadableSecret(
  db: AppPrismaClient,
  shop: string,
  unreadable: Extract<ClientForShop, { status: "unreadable" }>,
  log: Logger,
): Promise<void> {
  const { environment } = unreadable;
  try {
    const { count } = await markSecretUnreadable(db, shop, environment, unreadable.detail);
    log.error(
      { shop, environment, paused: count > 0 },
      `${unreadable.message}; ${count > 0 ? "the shop is paused until the key opens or is saved again" : "the shop was already paused or its key changed"}`,
    );
  } catch (error) {
    log.error({ err: error, shop, environment }, `Failed to pause ${shop}: ${unreadable.message}`);
  }
}
