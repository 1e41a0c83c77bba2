import type { AppPrismaClient } from "../db/client.server";
import { getShopConnection, toPublicConnection } from "../models/ShopConnection.server";
import { themeEditorLinks } from "./checklist";
import { goLiveChecklist } from "./checklist.server";
import { homeDashboard } from "./dashboard.server";

/**
 * Everything the home page (app._index) shows: the connection without its secrets, the go-live
 * checklist with its theme editor links, and the figures of the shop's current environment.
 */
export async function loadHomePage(db: AppPrismaClient, shop: string, apiKey: string) {
  const record = await getShopConnection(db, shop);
  const environment = record?.environment ?? "sandbox";
  const [checklist, dashboard] = await Promise.all([
    goLiveChecklist(db, shop),
    homeDashboard(db, shop, environment),
  ]);
  return {
    shop,
    connection: record ? toPublicConnection(record) : null,
    checklist,
    dashboard,
    links: themeEditorLinks(shop, apiKey),
  };
}
