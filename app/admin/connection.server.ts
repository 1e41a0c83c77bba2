import { getSecretBox } from "../crypto/secrets.server";
import type { AppPrismaClient } from "../db/client.server";
import type { Logger } from "../logger.server";
import { countOutboxEventsByStatus } from "../models/OutboxEvent.server";
import {
  getShopConnection,
  removeConnectionKey,
  saveConnectionKeys,
  settleConnectionStatus,
  switchConnectionEnvironment,
  toAdminConnection,
  type AdminConnection,
  type ConnectionKeysInput,
} from "../models/ShopConnection.server";
import { WAITING_STATUSES } from "../models/outbox-status";
import type { ApiVersion, Environment } from "../protection/types";
import { verifySecretKey } from "../services/key-verification.server";
import { goLiveChecklist } from "./checklist.server";
import type { GoLiveChecklist } from "./checklist";
import type { ConnectionActionData, ConnectionForm } from "./connection-form";
import {
  loadBackfillOffer,
  requestBackfillForShop,
  type BackfillOffer,
} from "./reconciliation.server";

export interface ConnectionPage {
  shop: string;
  /** Null until the app has written the shop's connection (it does so on install). */
  connection: AdminConnection | null;
  /** Order events waiting for delivery (pending or failed): they go once a valid key is saved. */
  waitingEvents: number;
  checklist: GoLiveChecklist;
  /** Reporting the shop's earlier orders (issue 17); only for a shop whose orders are reconciled. */
  backfill: BackfillOffer;
}

/** Everything the Connection page shows. No secret key: only their last four characters. */
export async function loadConnectionPage(
  db: AppPrismaClient,
  shop: string,
): Promise<ConnectionPage> {
  const [record, counts, checklist, backfill] = await Promise.all([
    getShopConnection(db, shop),
    countOutboxEventsByStatus(db, shop),
    goLiveChecklist(db, shop),
    loadBackfillOffer(db, shop, new Date()),
  ]);
  const waitingEvents = WAITING_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  return {
    shop,
    connection: record ? toAdminConnection(record) : null,
    waitingEvents,
    checklist,
    backfill,
  };
}

/** Runs one checked form of the Connection page for `shop` (always the session's shop). */
export async function applyConnectionForm(
  db: AppPrismaClient,
  shop: string,
  form: ConnectionForm,
  log: Logger,
): Promise<ConnectionActionData> {
  switch (form.intent) {
    case "save_keys":
      return saveEnvironmentKeys(db, shop, form, log);
    case "remove_key":
      await removeConnectionKey(db, shop, form.environment);
      log.info({ shop, environment: form.environment }, "Secret key removed in the admin");
      return done(form.intent, form.environment, "connection.keys.removed");
    case "set_api_version":
      await saveConnectionKeys(db, getSecretBox(), shop, { apiVersion: form.apiVersion });
      return done(form.intent, null, "connection.apiVersion.saved");
    case "switch_environment":
      return switchEnvironment(db, shop, form.environment, log);
    case "request_backfill":
      return requestBackfillForShop(db, shop, form.since, new Date(), log);
  }
}

function done(
  intent: ConnectionActionData["intent"] & string,
  environment: Environment | null,
  notice: Extract<ConnectionActionData, { ok: true }>["notice"],
): ConnectionActionData {
  return { ok: true, intent, environment, notice };
}

function failed(
  intent: ConnectionActionData["intent"],
  environment: Environment | null,
  errors: Extract<ConnectionActionData, { ok: false }>["errors"],
): ConnectionActionData {
  return { ok: false, intent, environment, errors };
}

/**
 * A new secret key is saved only after the service accepted it in its environment; a rejected
 * or unverifiable key changes nothing, not even the publishable key sent with it.
 */
async function saveEnvironmentKeys(
  db: AppPrismaClient,
  shop: string,
  form: Extract<ConnectionForm, { intent: "save_keys" }>,
  log: Logger,
): Promise<ConnectionActionData> {
  const { environment, secretKey, publishableKey } = form;
  const isLive = environment === "production";
  const record = await getShopConnection(db, shop);
  const input: ConnectionKeysInput = isLive
    ? { livePublishableKey: publishableKey }
    : { sandboxPublishableKey: publishableKey };

  if (secretKey === null) {
    const saved = isLive ? record?.liveSecretKeySealed : record?.sandboxSecretKeySealed;
    if (!saved) {
      return failed(form.intent, environment, {
        secretKey: "connection.keys.errors.secretKeyRequired",
      });
    }
    await saveConnectionKeys(db, getSecretBox(), shop, input);
    return done(form.intent, environment, "connection.keys.publishableSaved");
  }

  const verification = await verifySecretKey(
    {
      shop,
      environment,
      secretKey,
      apiVersion: (record?.apiVersion ?? "v2.0") as ApiVersion,
    },
    log,
  );
  if (verification.outcome === "rejected") {
    return failed(form.intent, environment, { secretKey: "connection.keys.errors.rejected" });
  }
  if (verification.outcome === "unverified") {
    return failed(form.intent, environment, { secretKey: "connection.keys.errors.unverified" });
  }
  const verifiedAt = new Date();
  await saveConnectionKeys(db, getSecretBox(), shop, {
    ...input,
    ...(isLive
      ? { liveSecretKey: secretKey, liveKeyVerifiedAt: verifiedAt }
      : { sandboxSecretKey: secretKey, sandboxKeyVerifiedAt: verifiedAt }),
  });
  await settleConnectionStatus(db, shop);
  return done(form.intent, environment, "connection.keys.verifiedSaved");
}

/**
 * Production only once the go-live checklist passes (spec: the four event kinds tested in the
 * sandbox) and no key stands rejected; back to the sandbox at any time.
 */
async function switchEnvironment(
  db: AppPrismaClient,
  shop: string,
  environment: Environment,
  log: Logger,
): Promise<ConnectionActionData> {
  const intent = "switch_environment";
  if (environment === "production") {
    const [record, checklist] = await Promise.all([
      getShopConnection(db, shop),
      goLiveChecklist(db, shop),
    ]);
    if (record?.status === "key_rejected") {
      return failed(intent, environment, { form: "connection.environment.errors.keyRejected" });
    }
    if (!checklist.readyToGoLive) {
      return failed(intent, environment, { form: "connection.environment.errors.notReady" });
    }
  }
  const updated = await switchConnectionEnvironment(db, shop, environment);
  if (!updated) return failed(intent, environment, { form: "connection.errors.notInstalled" });
  log.info({ shop, environment }, `Shop switched to ${environment} in the admin`);
  return done(
    intent,
    environment,
    environment === "production"
      ? "connection.environment.wentLive"
      : "connection.environment.backInSandbox",
  );
}
