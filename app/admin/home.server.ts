import type { AppPrismaClient } from "../db/client.server";
import { getShopConnection, toPublicConnection } from "../models/ShopConnection.server";
import { listOrdersNeedingAttention } from "../models/ShopifyAction.server";
import { themeEditorLinks } from "./checklist";
import { goLiveChecklist } from "./checklist.server";
import { homeDashboard } from "./dashboard.server";

/**
 * Everything the home page (app._index) shows: the connection without its secrets, the go-live
 * checklist with its theme editor links, the figures of the shop's current environment, and how
 * many orders wait for the merchant.
 */
export async function loadHomePage(db: AppPrismaClient, shop: string, apiKey: string) {
  const record = await getShopConnection(db, shop);
  const environment = record?.environment ?? "sandbox";
  const [checklist, dashboard, needingAttention] = await Promise.all([
    goLiveChecklist(db, shop),
    homeDashboard(db, shop, environment),
    listOrdersNeedingAttention(db, shop),
  ]);
  return {
    shop,
    connection: record ? toPublicConnection(record) : null,
    checklist,
    dashboard,
    /** Orders with an action of the app waiting for the merchant (decision 027). */
    attentionCount: needingAttention.length,
    links: themeEditorLinks(shop, apiKey),
  };
}
