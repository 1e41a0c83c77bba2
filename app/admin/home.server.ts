import type { AppPrismaClient } from "../db/client.server";
import { getShopConnection, toPublicConnection } from "../models/ShopConnection.server";
import { listOrdersNeedingAttention } from "../models/ShopifyAction.server";
import { themeEditorLinks } from "./checklist";
import { goLiveChecklist } from "./checklist.server";
import { homeDashboard } from "./dashboard.server";
import { loadReconciliationCard, type ReconcileSettings } from "./reconciliation.server";

/**
 * Everything the home page (app._index) shows: the connection without its secrets, the go-live
 * checklist with its theme editor links, the figures of the shop's current environment, how
 * many orders wait for the merchant, and the reconciliation of the shop's orders.
 */
export async function loadHomePage(
  db: AppPrismaClient,
  shop: string,
  apiKey: string,
  reconcileSettings: ReconcileSettings,
) {
  const record = await getShopConnection(db, shop);
  const environment = record?.environment ?? "sandbox";
  const [checklist, dashboard, needingAttention, reconciliation] = await Promise.all([
    goLiveChecklist(db, shop),
    homeDashboard(db, shop, environment),
    listOrdersNeedingAttention(db, shop),
    loadReconciliationCard(db, shop, reconcileSettings, new Date()),
  ]);
  return {
    shop,
    connection: record ? toPublicConnection(record) : null,
    checklist,
    dashboard,
    /** Orders with an action of the app waiting for the merchant (decision 027). */
    attentionCount: needingAttention.length,
    links: themeEditorLinks(shop, apiKey),
    reconciliation,
  };
}
