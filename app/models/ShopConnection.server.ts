import type { ShopConnection } from "../generated/prisma/sqlite/client";
import type { ApiVersion, Environment } from "../protection/types";
import { lastFour, SecretBoxError, type SecretBox } from "../crypto/secret-box.server";
import type { AppPrismaClient } from "../db/client.server";
import { resetReconcileState } from "./ReconcileState.server";

export type ConnectionStatus =
  "not_connected" | "connected" | "key_rejected" | "secret_unreadable" | "uninstalled";

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
    // A shop erased before shop/redact took reconciliation with it may have left its state.
    const [created] = await db.$transaction([
      db.shopConnection.create({ data: { shop, grantedScopes: scopes } }),
      resetReconcileState(db, shop),
    ]);
    return created;
  }
  const hasKey = Boolean(existing.sandboxSecretKeySealed || existing.liveSecretKeySealed);
  const reinstalled = existing.status === "uninstalled";
  const [updated] = await db.$transaction([
    db.shopConnection.update({
      where: { shop },
      data: {
        grantedScopes: scopes,
        ...(reinstalled
          ? {
              status: hasKey ? "connected" : "not_connected",
              statusDetail: null,
              uninstalledAt: null,
              installedAt: new Date(),
            }
          : {}),
      },
    }),
    // A reinstall reconciles from its own install time, never from the old watermark.
    ...(reinstalled ? [resetReconcileState(db, shop)] : []),
  ]);
  return updated;
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
  if (input.sandboxSecretKey) data.sandboxKeyRejectedAt = null;
  if (input.liveSecretKey) data.liveKeyRejectedAt = null;
  if (input.sandboxSecretKey || input.liveSecretKey) {
    // A new key is a fresh start: a "key rejected" pause ends when the key changes, and events
    // that waited through the pause get a full retry window from now (decision 018).
    data.status = "connected";
    data.statusDetail = null;
    data.deliveryResumedAt = new Date();
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
 * Whether the outbox may send to `environment` now: the shop is installed, its secrets can be
 * opened, and that environment has a key the service has not refused. The claim query says the
 * same in SQL (app/outbox/claim.server.ts).
 */
export function canSendTo(record: ShopConnection, environment: Environment): boolean {
  if (record.status === "uninstalled" || record.status === "secret_unreadable") return false;
  const rejectedAt =
    environment === "production" ? record.liveKeyRejectedAt : record.sandboxKeyRejectedAt;
  return Boolean(sealedKeyOf(record, environment)) && rejectedAt === null;
}

/**
 * The service refused an environment's key (401): that environment is paused until a new key is
 * saved; the other environment's events keep flowing. Only the key that was refused is blamed:
 * if the merchant saved a new one meanwhile, nothing changes. The shop's status shows the pause
 * when the refused key is the one of the environment the shop works in.
 */
export async function markKeyRejected(
  db: AppPrismaClient,
  refused: ShopConnection,
  environment: Environment,
  statusDetail: string,
  at: Date = new Date(),
) {
  const sealedKey = sealedKeyOf(refused, environment);
  const production = environment === "production";
  const sameKey = production
    ? { liveSecretKeySealed: sealedKey }
    : { sandboxSecretKeySealed: sealedKey };
  const paused = await db.shopConnection.updateMany({
    where: { shop: refused.shop, ...sameKey },
    data: production ? { liveKeyRejectedAt: at } : { sandboxKeyRejectedAt: at },
  });
  await db.shopConnection.updateMany({
    where: { shop: refused.shop, status: "connected", environment, ...sameKey },
    data: { status: "key_rejected", statusDetail },
  });
  return paused;
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
  if (record.status === "uninstalled" || record.status === "secret_unreadable") return {};
  const rejectedAt =
    environment === "production" ? record.liveKeyRejectedAt : record.sandboxKeyRejectedAt;
  if (rejectedAt) {
    return record.status === "key_rejected"
      ? {}
      : {
          status: "key_rejected",
          statusDetail: `The service rejected the ${keyNameOf(environment)} secret key at ${rejectedAt.toISOString()}. Order events are kept and wait; delivery resumes as soon as a new key is saved.`,
        };
  }
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

// ---------------------------------------------------------------------------------------------
// Encryption key rotation (decision 017): reading a saved key without throwing, pausing a shop
// whose key cannot be opened, and re-sealing every saved key under the current encryption key.

export type SecretKeyRead =
  | { status: "open"; secretKey: string }
  | { status: "missing" }
  | { status: "unreadable"; detail: UnreadableSecretDetail };

/** Which sealed value could not be opened, and why (never any part of the key). */
export interface UnreadableSecretDetail {
  sealed: string;
  reason: string;
}

/**
 * An environment's plaintext key, like openSecretKey, but a value that cannot be opened (its
 * encryption key is gone, or it was damaged) is an answer rather than an exception.
 */
export function readSecretKey(
  box: SecretBox,
  record: ShopConnection,
  environment: Environment,
): SecretKeyRead {
  const sealed = sealedKeyOf(record, environment);
  if (!sealed) return { status: "missing" };
  try {
    return { status: "open", secretKey: box.open(sealed, secretContext(record.shop, environment)) };
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    return { status: "unreadable", detail: { sealed, reason: error.message } };
  }
}

export function secretUnreadableDetail(environment: Environment, reason: string): string {
  const keyName = keyNameOf(environment);
  return `The saved ${keyName} secret key cannot be opened: ${reason}. Order events are kept and wait. Restore the encryption key that sealed it in SVC_ENCRYPTION_KEYS_PREVIOUS and run npm run svc -- keys:reseal, or save the ${keyName} key again.`;
}

/**
 * Pauses a shop whose saved key cannot be opened, with a status detail that says what to do.
 * Only the value that failed is blamed: a key saved meanwhile (status connected, another sealed
 * value) is left alone, as is a shop already paused or uninstalled. Saving a key ends the pause.
 */
export function markSecretUnreadable(
  db: AppPrismaClient,
  shop: string,
  environment: Environment,
  detail: UnreadableSecretDetail,
) {
  return db.shopConnection.updateMany({
    where: {
      shop,
      status: "connected",
      ...(environment === "production"
        ? { liveSecretKeySealed: detail.sealed }
        : { sandboxSecretKeySealed: detail.sealed }),
    },
    data: {
      status: "secret_unreadable",
      statusDetail: secretUnreadableDetail(environment, detail.reason),
    },
  });
}

/** One page of shops with a saved key, after `afterShop` in shop order (a keyset cursor). */
export function listSealedSecretsAfter(
  db: AppPrismaClient,
  afterShop: string | null,
  limit: number,
) {
  return db.shopConnection.findMany({
    where: {
      ...(afterShop === null ? {} : { shop: { gt: afterShop } }),
      OR: [{ sandboxSecretKeySealed: { not: null } }, { liveSecretKeySealed: { not: null } }],
    },
    orderBy: { shop: "asc" },
    take: limit,
  });
}

export type ResealOutcome =
  | { status: "missing" }
  | { status: "current"; sealed: string }
  | { status: "resealed"; sealed: string }
  /** The merchant saved another key since `record` was read: it is newer and stays. */
  | { status: "changed" }
  | { status: "unreadable"; detail: UnreadableSecretDetail; keyId: string | null };

/**
 * Seals an environment's saved key again with the box's current encryption key, unless it
 * already is. The write is conditional on the stored value still being the one that was read.
 */
export async function resealSecretKey(
  db: AppPrismaClient,
  box: SecretBox,
  record: ShopConnection,
  environment: Environment,
): Promise<ResealOutcome> {
  const read = readSecretKey(box, record, environment);
  if (read.status === "missing") return read;
  if (read.status === "unreadable") {
    return { ...read, keyId: box.keyIdOf(read.detail.sealed) };
  }
  const sealed = sealedKeyOf(record, environment)!;
  if (box.keyIdOf(sealed) === box.currentKeyId) return { status: "current", sealed };
  const resealed = box.seal(read.secretKey, secretContext(record.shop, environment));
  const column = environment === "production" ? "liveSecretKeySealed" : "sandboxSecretKeySealed";
  const { count } = await db.shopConnection.updateMany({
    where: { shop: record.shop, [column]: sealed },
    data: { [column]: resealed },
  });
  return count === 1 ? { status: "resealed", sealed: resealed } : { status: "changed" };
}

/**
 * Ends a "secret unreadable" pause once the shop's key opens again (its encryption key was
 * restored). Only if the key is still the one that was checked, as markSecretUnreadable.
 */
export async function resumeReadableConnection(
  db: AppPrismaClient,
  shop: string,
  environment: Environment,
  sealed: string,
): Promise<boolean> {
  const { count } = await db.shopConnection.updateMany({
    where: {
      shop,
      environment,
      status: "secret_unreadable",
      ...(environment === "production"
        ? { liveSecretKeySealed: sealed }
        : { sandboxSecretKeySealed: sealed }),
    },
    data: { status: "connected", statusDetail: null },
  });
  return count === 1;
}
