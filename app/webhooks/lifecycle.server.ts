import type { AppPrismaClient } from "../db/client.server";
import { logger } from "../logger.server";
import { recordGrantedScopes, recordUninstall } from "../models/ShopConnection.server";
import {
  eraseShopData,
  findCustomerData,
  redactCustomerData,
  type CustomerSubject,
} from "../models/ShopData.server";
import { receiptFor, recordWebhookReceipt } from "../models/WebhookReceipt.server";

/** What every webhook handler gets from authenticate.webhook. */
export interface WebhookDelivery {
  shop: string;
  topic: string;
  webhookId: string;
  eventId?: string;
  apiVersion?: string;
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

/** Order and customer identifiers from a compliance payload, as strings. */
export function customerSubjectOf(payload: Record<string, unknown>): CustomerSubject {
  const orders = payload.orders_requested ?? payload.orders_to_redact;
  const customer = payload.customer as { email?: unknown } | undefined;
  return {
    orderIds: Array.isArray(orders) ? orders.map(String) : [],
    email: typeof customer?.email === "string" && customer.email ? customer.email : null,
  };
}

export async function handleCustomersDataRequest(db: AppPrismaClient, delivery: WebhookDelivery) {
  const subject = customerSubjectOf(delivery.payload);
  const records = await findCustomerData(db, delivery.shop, subject);
  const orderIds = [...new Set(records.map((record) => record.orderId))];
  const detail = records.length
    ? `Holds personal data in ${records.length} order_placed event(s) for order(s) ${orderIds.join(", ")}`
    : "Holds no personal data for this customer";
  await recordWebhookReceipt(db, receipt(delivery, detail));
  logFor(delivery).info({ orders: orderIds, events: records.length }, "Customer data request");
  return records;
}

export async function handleCustomersRedact(db: AppPrismaClient, delivery: WebhookDelivery) {
  const { redacted } = await redactCustomerData(
    db,
    delivery.shop,
    customerSubjectOf(delivery.payload),
  );
  await recordWebhookReceipt(
    db,
    receipt(delivery, `Redacted customer data from ${redacted} event(s)`),
  );
  logFor(delivery).info({ redacted }, "Customer data redacted");
}

export async function handleShopRedact(db: AppPrismaClient, delivery: WebhookDelivery) {
  const erased = await eraseShopData(db, delivery.shop);
  // Nothing about the shop is kept after this, not even the receipt of the request itself.
  logFor(delivery).info({ erased }, "Shop data erased");
  return erased;
}
