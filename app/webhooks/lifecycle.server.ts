import type { AppPrismaClient } from "../db/client.server";
import { getEnv } from "../env.server";
import { logger } from "../logger.server";
import { recordGrantedScopes, recordUninstall } from "../models/ShopConnection.server";
import { eraseShopData } from "../models/ShopData.server";
import { receiptFor, recordWebhookReceipt } from "../models/WebhookReceipt.server";
import { customerSubjectOf, describeHeldData } from "../privacy/customer-data";
import { findCustomerData, redactCustomerData } from "../privacy/customer-data.server";
import { HttpResponseError } from "@shopify/shopify-api";
import { SHOP_ACCESS_SCOPES_QUERY } from "../graphql/ShopAccessScopes";
import type { AdminForShop } from "../plan-actions/worker.server";
import { runAdminOperation } from "../services/admin-api.server";
import { OfflineTokenError } from "../services/offline-token-error";
import { offlineAdminFor } from "../workers.server";
import { forgetInstalledShop } from "./installed-shops.server";

/** What every webhook handler gets: verified, with the shop and topic checked (decision 015). */
export interface WebhookDelivery {
  /** The signed body's shop_domain where there is one, else the checked header. */
  shop: string;
  topic: string;
  webhookId: string;
  eventId?: string;
  apiVersion?: string;
  /** The body parsed with parseWebhookJson: IDs past 2^53 are exact decimal strings. */
  payload: Record<string, unknown>;
}

function receipt(delivery: WebhookDelivery, detail: string) {
  return receiptFor(delivery, { status: "processed", detail });
}

function logFor(delivery: WebhookDelivery) {
  return logger.child({
    shop: delivery.shop,
    topic: delivery.topic,
    webhookId: delivery.webhookId,
  });
}

/** How long app/uninstalled waits for Shopify's word on the shop's token (decision 046). */
export const INSTALLATION_CHECK_TIMEOUT_MS = 3_000;

export type InstallationCheck =
  /** Shopify answered a query made with the shop's offline token: the app is installed. */
  | { status: "installed" }
  /** Shopify refused the token (401) or its refresh token, or the app holds no offline session. */
  | { status: "uninstalled"; reason: string }
  /** Shopify could not be asked, or answered something else: nothing can be concluded. */
  | { status: "unknown"; reason: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function installationFromError(error: unknown): InstallationCheck {
  if (error instanceof HttpResponseError && error.response.code === 401) {
    return { status: "uninstalled", reason: "Shopify answered 401 to the shop's offline token" };
  }
  if (error instanceof OfflineTokenError && error.kind !== "passing") {
    return { status: "uninstalled", reason: error.message };
  }
  return { status: "unknown", reason: messageOf(error) };
}

async function askShopifyWithToken(
  shop: string,
  adminFor: AdminForShop,
  signal: AbortSignal,
): Promise<InstallationCheck> {
  try {
    const graphql = await adminFor(shop);
    if (!graphql) {
      return { status: "uninstalled", reason: "the app holds no offline session for the shop" };
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        const response = await graphql(SHOP_ACCESS_SCOPES_QUERY, { signal });
        const body = (await response.json()) as { data?: { shop?: { id?: unknown } } | null };
        if (typeof body.data?.shop?.id === "string") return { status: "installed" };
        return { status: "unknown", reason: "Shopify answered the shop query without the shop" };
      } catch (error) {
        // A 401 to an expiring token the app took for alive marks it expired: the second try
        // refreshes it, through the lease, and a revoked refresh token is refused.
        if (error instanceof OfflineTokenError && error.kind === "expired" && attempt === 1) {
          continue;
        }
        throw error;
      }
    }
  } catch (error) {
    return installationFromError(error);
  }
}

/**
 * Whether the app is still installed on the shop, by Shopify's word: one query made with the
 * shop's offline token, opened through the refresh lease (decision 042). Shopify revokes the
 * app's tokens when it is uninstalled, so a token that still works means it is installed. Past
 * `timeoutMs`, or on any failure but a refused token, the answer is "unknown".
 */
export async function checkAppInstalled(
  shop: string,
  adminFor: AdminForShop = offlineAdminFor,
  timeoutMs = INSTALLATION_CHECK_TIMEOUT_MS,
): Promise<InstallationCheck> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<InstallationCheck>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ status: "unknown", reason: `Shopify did not answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  try {
    return await Promise.race([askShopifyWithToken(shop, adminFor, controller.signal), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * app/uninstalled is acted on only once Shopify refuses the shop's token (decision 046): its body
 * is signed but its webhook ID is not, so a copy of a real delivery replayed under a new ID is
 * not a duplicate. While the token works the delivery is a replay: recorded as ignored and
 * answered 200. When Shopify cannot say, nothing changes and the answer is 503, so that Shopify
 * sends it again; a session kept a while longer holds a token Shopify no longer takes.
 */
export async function handleAppUninstalled(
  db: AppPrismaClient,
  delivery: WebhookDelivery,
  checkInstalled: (shop: string) => Promise<InstallationCheck> = checkAppInstalled,
) {
  const log = logFor(delivery);
  const check = await checkInstalled(delivery.shop);
  if (check.status === "installed") {
    const detail =
      "Ignored: Shopify still accepts the shop's offline token, so the app is installed and this is a replayed delivery";
    await recordWebhookReceipt(db, receiptFor(delivery, { status: "ignored", detail }));
    log.warn("app/uninstalled ignored: Shopify still accepts the shop's token; nothing changed");
    return;
  }
  if (check.status === "unknown") {
    log.warn(
      { reason: check.reason },
      "app/uninstalled not acted on yet: Shopify could not confirm the uninstall; answered 503 for Shopify to send it again",
    );
    throw new Response(null, { status: 503, headers: { "Retry-After": "60" } });
  }
  const { sessionsDeleted } = await recordUninstall(db, delivery.shop);
  forgetInstalledShop(delivery.shop);
  const detail = `Deleted ${sessionsDeleted} session(s); connection marked uninstalled`;
  await recordWebhookReceipt(db, receipt(delivery, detail));
  log.info({ sessionsDeleted, confirmedBy: check.reason }, "App uninstalled");
}

const SHOP_GID = /^gid:\/\/shopify\/Shop\/(\d+)$/;

/** The shop a signed app/scopes_update names: `shop_id`, a Shop GID (or its number). */
function signedShopIdOf(payload: Record<string, unknown>): string | null {
  const value = payload.shop_id;
  if (typeof value === "string") return SHOP_GID.exec(value)?.[1] ?? null;
  return typeof value === "number" && Number.isSafeInteger(value) ? String(value) : null;
}

/**
 * app/scopes_update names its shop only in the signed body's `shop_id`; the domain that picks the
 * session is the unsigned X-Shopify-Shop-Domain, which authenticate.webhook passes on unchecked.
 * So the shop's own token is asked which shop it is, and which scopes it has: a body replayed
 * under another shop's header is refused and changes nothing, and an old one replayed for its own
 * shop cannot bring back scopes since taken away (decision 045).
 */
export async function handleScopesUpdate(
  db: AppPrismaClient,
  delivery: WebhookDelivery,
  adminFor: AdminForShop = offlineAdminFor,
) {
  const log = logFor(delivery);
  const signedShopId = signedShopIdOf(delivery.payload);
  if (!signedShopId) {
    log.warn("app/scopes_update refused: its signed body names no shop_id; nothing stored");
    throw new Response(null, { status: 400 });
  }
  let answer: Awaited<ReturnType<typeof runAdminOperation<typeof SHOP_ACCESS_SCOPES_QUERY>>>;
  try {
    const graphql = await adminFor(delivery.shop);
    if (!graphql) {
      log.warn("app/scopes_update for a shop without an offline session; nothing stored");
      return;
    }
    answer = await runAdminOperation(
      graphql,
      delivery.shop,
      "ShopAccessScopes",
      SHOP_ACCESS_SCOPES_QUERY,
      {},
    );
  } catch (error) {
    answer = {
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      accessDenied: false,
    };
  }
  if (!answer.ok) {
    // Shopify delivers it again later; the scopes stay as they were until then.
    log.error(
      { reason: answer.message },
      `Failed to read the scopes of ${delivery.shop} for app/scopes_update`,
    );
    throw new Response(null, { status: 503 });
  }
  const tokenShopId = SHOP_GID.exec(answer.data.shop.id)?.[1] ?? null;
  if (tokenShopId !== signedShopId) {
    log.warn(
      { signedShopId, tokenShopId },
      "app/scopes_update refused: signed for another shop than the header's; nothing stored",
    );
    throw new Response(null, { status: 400 });
  }
  const current = (answer.data.app?.installation?.accessScopes ?? [])
    .map((scope) => scope.handle)
    .join(",");
  const sessions = await db.session.updateMany({
    where: { shop: delivery.shop },
    data: { scope: current },
  });
  await recordGrantedScopes(db, delivery.shop, current);
  await recordWebhookReceipt(db, receipt(delivery, `Scopes now: ${current || "(none)"}`));
  logFor(delivery).info({ scopes: current, sessions: sessions.count }, "Scopes updated");
}

export async function handleCustomersDataRequest(db: AppPrismaClient, delivery: WebhookDelivery) {
  const held = await findCustomerData(db, delivery.shop, customerSubjectOf(delivery.payload));
  // Records and field names only: a copy of the values would be one more thing to redact.
  await recordWebhookReceipt(db, receipt(delivery, describeHeldData(held)));
  const orders = [...new Set(held.map((record) => record.orderId).filter(Boolean))];
  logFor(delivery).info(
    {
      orders,
      events: held.filter((record) => record.kind === "event").length,
      receipts: held.filter((record) => record.kind === "receipt").length,
      summaries: held.filter((record) => record.kind === "order_summary").length,
    },
    "Customer data request",
  );
  return held;
}

export async function handleCustomersRedact(db: AppPrismaClient, delivery: WebhookDelivery) {
  const redacted = await redactCustomerData(db, delivery.shop, customerSubjectOf(delivery.payload));
  const detail = `Redacted customer data from ${redacted.events} event(s), ${redacted.receipts} receipt raw body(ies) and ${redacted.summaries} order summary(ies)`;
  await recordWebhookReceipt(db, receipt(delivery, detail));
  logFor(delivery).info(redacted, "Customer data redacted");
}

const HOUR_MS = 60 * 60 * 1_000;

export type ShopRedactVerdict = { erase: true } | { erase: false; reason: string };

/**
 * Whether a shop/redact may erase the shop (decision 045). Its signed body holds only the shop's
 * ID and domain, so a copy stays valid forever: it is acted on only for a shop that has not had
 * the app for `afterHours` (Shopify sends it 48 hours after the uninstall), or that the app
 * holds no connection or session for. Anything else is a replay or too early.
 */
export async function shopRedactVerdict(
  db: AppPrismaClient,
  shop: string,
  options: { now: Date; afterHours: number },
): Promise<ShopRedactVerdict> {
  const [connection, session] = await Promise.all([
    db.shopConnection.findUnique({
      where: { shop },
      select: { status: true, uninstalledAt: true },
    }),
    db.session.findFirst({ where: { shop, isOnline: false }, select: { id: true } }),
  ]);
  if (session || (connection && connection.status !== "uninstalled")) {
    return { erase: false, reason: "the shop has the app installed" };
  }
  const uninstalledAt = connection?.uninstalledAt;
  if (
    uninstalledAt &&
    options.now.getTime() - uninstalledAt.getTime() < options.afterHours * HOUR_MS
  ) {
    return {
      erase: false,
      reason: `the app was uninstalled at ${uninstalledAt.toISOString()}, less than ${options.afterHours} hours before`,
    };
  }
  return { erase: true };
}

export async function handleShopRedact(
  db: AppPrismaClient,
  delivery: WebhookDelivery,
  now = new Date(),
) {
  const afterHours = getEnv().SVC_SHOP_REDACT_AFTER_UNINSTALL_HOURS;
  const verdict = await shopRedactVerdict(db, delivery.shop, { now, afterHours });
  if (!verdict.erase) {
    // Answered 200 all the same: Shopify stops resending, and the receipt shows what came.
    const detail = `Ignored: ${verdict.reason}; shop/redact erases a shop only ${afterHours} hours after its uninstall`;
    await recordWebhookReceipt(db, receiptFor(delivery, { status: "ignored", detail }));
    logFor(delivery).warn({ reason: verdict.reason }, "shop/redact ignored; nothing erased");
    return null;
  }
  const erased = await eraseShopData(db, delivery.shop);
  forgetInstalledShop(delivery.shop);
  // Nothing about the shop is kept after this, not even the receipt of the request itself.
  logFor(delivery).info({ erased }, "Shop data erased");
  return erased;
}
