import type { AppPrismaClient } from "../../app/db/client.server";

/** The scopes of a current install (shopify.app.toml). */
export const APP_SCOPES =
  "read_orders,write_orders,read_products,write_products,write_publications,write_order_edits";

/** The shop's offline session, as the OAuth install stores it: what Admin API calls use. */
export function createOfflineSession(
  db: AppPrismaClient,
  shop: string,
  accessToken: string,
  scope = APP_SCOPES,
) {
  return db.session.create({
    data: { id: `offline_${shop}`, shop, state: "", isOnline: false, accessToken, scope },
  });
}
