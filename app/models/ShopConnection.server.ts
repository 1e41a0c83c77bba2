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
  /** A string saves the key; null removes it; undefined leaves it as it is. */
  sandboxPublishableKey?: string | null;
  livePublishableKey?: string | null;
  /**
   * When the new secret key passed a live call to the service. A new key saved without it (the
   * CLI) is shown as not verified: an earlier verification belonged to the key it replaces.
   */
  sandboxKeyVerifiedAt?: Date;
  liveKeyVerifiedAt?: Date;
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
    data.sandboxKeyVerifiedAt = input.sandboxKeyVerifiedAt ?? null;
  }
  if (input.liveSecretKey) {
    data.liveSecretKeySealed = box.seal(input.liveSecretKey, secretContext(shop, "production"));
    data.liveSecretKeyLast4 = lastFour(input.liveSecretKey);
    data.liveKeyVerifiedAt = input.liveKeyVerifiedAt ?? null;
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

/** The admin's Connection page: the public connection plus when each key was verified. */
export interface AdminConnection extends PublicConnection {
  sandboxKeyVerifiedAt: string | null;
  liveKeyVerifiedAt: string | null;
  liveSince: string | null;
}

export function toAdminConnection(record: ShopConnection): AdminConnection {
  return {
    ...toPublicConnection(record),
    sandboxKeyVerifiedAt: record.sandboxKeyVerifiedAt?.toISOString() ?? null,
    liveKeyVerifiedAt: record.liveKeyVerifiedAt?.toISOString() ?? null,
    liveSince: record.liveSince?.toISOString() ?? null,
  };
}

const MISSING_KEY_DETAIL = (environment: Environment) =>
  `No ${keyNameOf(environment)} secret key is saved. Order events are kept and wait; delivery resumes as soon as a key is saved.`;

/**
 * The status once the shop works in `environment`: without that environment's key it is paused
 * (not_connected, so the outbox leaves its events waiting instead of failing them towards dead);
 * with it, a pause for a missing key ends. A rejected key or an uninstall is left as it is.
 */
function statusInEnvironment(record: ShopConnection, environment: Environment) {
  if (record.status === "uninstalled" || record.status === "key_rejected") return {};
  if (!sealedKeyOf(record, environment)) {
    return { status: "not_connected", statusDetail: MISSING_KEY_DETAIL(environment) };
  }
  return record.status === "connected" ? {} : { status: "connected", statusDetail: null };
}

/**
 * Removes one environment's secret key (and its verification). If the shop works in that
 * environment, delivery pauses until a new key is saved. Returns null for an unknown shop.
 */
export async function removeConnectionKey(
  db: AppPrismaClient,
  shop: string,
  environment: Environment,
) {
  const record = await getShopConnection(db, shop);
  if (!record) return null;
  const cleared =
    environment === "production"
      ? { liveSecretKeySealed: null, liveSecretKeyLast4: null, liveKeyVerifiedAt: null }
      : { sandboxSecretKeySealed: null, sandboxSecretKeyLast4: null, sandboxKeyVerifiedAt: null };
  const pausesDelivery = record.environment === environment && record.status !== "uninstalled";
  const status = pausesDelivery
    ? { status: "not_connected", statusDetail: MISSING_KEY_DETAIL(environment) }
    : {};
  return db.shopConnection.update({ where: { shop }, data: { ...cleared, ...status } });
}

/**
 * Moves the shop to sandbox or production. Going live records `liveSince`; going back to the
 * sandbox clears it. The caller checks the go-live checklist first.
 */
export async function switchConnectionEnvironment(
  db: AppPrismaClient,
  shop: string,
  environment: Environment,
  now: Date = new Date(),
) {
  const record = await getShopConnection(db, shop);
  if (!record) return null;
  return db.shopConnection.update({
    where: { shop },
    data: {
      environment,
      liveSince: environment === "production" ? (record.liveSince ?? now) : null,
      ...statusInEnvironment(record, environment),
    },
  });
}

/**
 * After a key was saved for either environment: a shop whose own environment still has no key
 * stays paused, so that its events wait rather than fail for want of a key.
 */
export async function settleConnectionStatus(db: AppPrismaClient, shop: string) {
  const record = await getShopConnection(db, shop);
  if (!record) return null;
  const status = statusInEnvironment(record, record.environment as Environment);
  if (!("status" in status)) return record;
  return db.shopConnection.update({ where: { shop }, data: status });
}
