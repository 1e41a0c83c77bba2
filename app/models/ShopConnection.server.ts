import type { ShopConnection } from "../generated/prisma/sqlite/client";
import type { ApiVersion, Environment } from "../protection/types";
import { lastFour, type SecretBox } from "../crypto/secret-box.server";
import type { AppPrismaClient } from "../db/client.server";

export type ConnectionStatus = "not_connected" | "connected" | "key_rejected" | "uninstalled";

/** What a browser may see of a connection: never a secret key, only its last four characters. */
export interface PublicConnection {
  shop: string;
  environment: Environment;
  apiVersion: ApiVersion;
  status: ConnectionStatus;
  statusDetail: string | null;
  sandboxSecretKeyLast4: string | null;
  liveSecretKeyLast4: string | null;
  sandboxPublishableKey: string | null;
  livePublishableKey: string | null;
  reportOrdersWithoutPlan: boolean;
}

export interface ConnectionKeysInput {
  environment?: Environment;
  apiVersion?: ApiVersion;
  sandboxSecretKey?: string;
  liveSecretKey?: string;
  sandboxPublishableKey?: string;
  livePublishableKey?: string;
}

function secretContext(shop: string, environment: Environment): string {
  return `${shop}:${environment}`;
}

export function toPublicConnection(record: ShopConnection): PublicConnection {
  return {
    shop: record.shop,
    environment: record.environment as Environment,
    apiVersion: record.apiVersion as ApiVersion,
    status: record.status as ConnectionStatus,
    statusDetail: record.statusDetail,
    sandboxSecretKeyLast4: record.sandboxSecretKeyLast4,
    liveSecretKeyLast4: record.liveSecretKeyLast4,
    sandboxPublishableKey: record.sandboxPublishableKey,
    livePublishableKey: record.livePublishableKey,
    reportOrdersWithoutPlan: record.reportOrdersWithoutPlan,
  };
}

export function getShopConnection(db: AppPrismaClient, shop: string) {
  return db.shopConnection.findUnique({ where: { shop } });
}

/** Called after OAuth or token exchange: creates the record, or revives it on reinstall. */
export async function recordInstallation(db: AppPrismaClient, shop: string, scopes: string | null) {
  const existing = await getShopConnection(db, shop);
  if (!existing) {
    return db.shopConnection.create({ data: { shop, grantedScopes: scopes } });
  }
  const hasKey = Boolean(existing.sandboxSecretKeySealed || existing.liveSecretKeySealed);
  return db.shopConnection.update({
    where: { shop },
    data: {
      grantedScopes: scopes,
      ...(existing.status === "uninstalled"
        ? {
            status: hasKey ? "connected" : "not_connected",
            statusDetail: null,
            uninstalledAt: null,
            installedAt: new Date(),
          }
        : {}),
    },
  });
}

export async function saveConnectionKeys(
  db: AppPrismaClient,
  box: SecretBox,
  shop: string,
  input: ConnectionKeysInput,
) {
  const data: Partial<ShopConnection> = {};
  if (input.environment) data.environment = input.environment;
  if (input.apiVersion) data.apiVersion = input.apiVersion;
  if (input.sandboxSecretKey) {
    data.sandboxSecretKeySealed = box.seal(input.sandboxSecretKey, secretContext(shop, "sandbox"));
    data.sandboxSecretKeyLast4 = lastFour(input.sandboxSecretKey);
  }
  if (input.liveSecretKey) {
    data.liveSecretKeySealed = box.seal(input.liveSecretKey, secretContext(shop, "production"));
    data.liveSecretKeyLast4 = lastFour(input.liveSecretKey);
  }
  if (input.sandboxPublishableKey !== undefined)
    data.sandboxPublishableKey = input.sandboxPublishableKey;
  if (input.livePublishableKey !== undefined) data.livePublishableKey = input.livePublishableKey;
  if (input.sandboxSecretKey || input.liveSecretKey) {
    // A new key is a fresh start: a "key rejected" pause ends when the key changes.
    data.status = "connected";
    data.statusDetail = null;
  }
  return db.shopConnection.upsert({
    where: { shop },
    create: { shop, ...data },
    update: data,
  });
}

/** How the merchant console names an environment's key: "sandbox" or "live". */
export function keyNameOf(environment: Environment): "sandbox" | "live" {
  return environment === "production" ? "live" : "sandbox";
}

function sealedKeyOf(record: ShopConnection, environment: Environment): string | null {
  return environment === "production" ? record.liveSecretKeySealed : record.sandboxSecretKeySealed;
}

/** The plaintext key for a call to the service. Never log or return it to a browser. */
export function openSecretKey(
  box: SecretBox,
  record: ShopConnection,
  environment: Environment,
): string | null {
  const sealed = sealedKeyOf(record, environment);
  return sealed ? box.open(sealed, secretContext(record.shop, environment)) : null;
}

/**
 * The service refused an environment's key (401): the connection is paused until a new key is
 * saved. Only the key that was refused is blamed: if the merchant saved a new one meanwhile,
 * the connection stays as it is.
 */
export function markKeyRejected(
  db: AppPrismaClient,
  refused: ShopConnection,
  environment: Environment,
  statusDetail: string,
) {
  const sealedKey = sealedKeyOf(refused, environment);
  return db.shopConnection.updateMany({
    where: {
      shop: refused.shop,
      status: "connected",
      ...(environment === "production"
        ? { liveSecretKeySealed: sealedKey }
        : { sandboxSecretKeySealed: sealedKey }),
    },
    data: { status: "key_rejected", statusDetail },
  });
}

export function markConnectionStatus(
  db: AppPrismaClient,
  shop: string,
  status: ConnectionStatus,
  statusDetail: string | null = null,
) {
  return db.shopConnection.updateMany({ where: { shop }, data: { status, statusDetail } });
}

export function recordGrantedScopes(db: AppPrismaClient, shop: string, scopes: string) {
  return db.shopConnection.updateMany({ where: { shop }, data: { grantedScopes: scopes } });
}

/**
 * app/uninstalled: the shop's sessions go, the connection is marked uninstalled, and its
 * undelivered events stay until shop/redact (48 hours later) in case the merchant reinstalls.
 */
export async function recordUninstall(db: AppPrismaClient, shop: string) {
  const [sessions] = await db.$transaction([
    db.session.deleteMany({ where: { shop } }),
    db.shopConnection.updateMany({
      where: { shop },
      data: {
        status: "uninstalled",
        statusDetail:
          "The app was uninstalled; undelivered events are kept until the shop's data is erased.",
        uninstalledAt: new Date(),
      },
    }),
  ]);
  return { sessionsDeleted: sessions.count };
}
