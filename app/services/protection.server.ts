import type { ShopConnection } from "../generated/prisma/sqlite/client";
import { getSecretBox } from "../crypto/secrets.server";
import { getEnv } from "../env.server";
import { keyNameOf, openSecretKey } from "../models/ShopConnection.server";
import { createProtectionClient, type ProtectionClient } from "../protection/client.server";
import { parseEndpointPaths } from "../protection/config";
import type { ApiVersion, Environment } from "../protection/types";

export type ClientForShop =
  | { status: "ready"; client: ProtectionClient; environment: Environment }
  | { status: "no_key"; environment: Environment; message: string };

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
  const secretKey = openSecretKey(getSecretBox(), connection, environment);
  if (!secretKey) {
    return {
      status: "no_key",
      environment,
      message: `No ${keyNameOf(environment)} secret key is saved for ${connection.shop}`,
    };
  }
  const client = protectionClientForKey({
    environment,
    secretKey,
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
