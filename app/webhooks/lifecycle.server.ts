import type { AppPrismaClient } from "../db/client.server";
import { getEnv } from "../env.server";
import { logger } from "../logger.server";
import { recordGrantedScopes, recordUninstall } from "../models/ShopConnection.server";
import { eraseShopData } from "../models/ShopData.server";
import { receiptFor, recordWebhookReceipt } from "../models/WebhookReceipt.server";
import { customerSubjectOf, describeHeldData } from "../privacy/customer-data";
import { findCustomerData, redactCustomerData } from "../privacy/customer-data.server";
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

export async function handleAppUninstalled(db: AppPrismaClient, delivery: WebhookDelivery) {
  const { sessionsDeleted } = await recordUninstall(db, delivery.shop);
  forgetInstalledShop(delivery.shop);
  const detail = `Deleted ${sessionsDeleted} session(s); connection marked uninstalled`;
  await recordWebhookReceipt(db, receipt(delivery, detail));
  logFor(delivery).info({ sessionsDeleted }, "App uninstalled");
}

export async function handleScopesUpdate(db: AppPrismaClient, delivery: WebhookDelivery) {
  const current = Array.isArray(delivery.payload.current)
    ? delivery.payload.current.map(String).join(",")
    : "";
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
