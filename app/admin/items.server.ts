import type { AppPrismaClient } from "../db/client.server";
import { listProtectionItems, removeProtectionItem } from "../models/ProtectionItem.server";
import { toCopyText } from "../protection-items/copy-text";
import { formErrors, itemsFormInput, itemsFormSchema } from "../protection-items/forms";
import type { Strategy } from "../protection-items/strategies";
import type { AdminGraphql } from "../services/admin-api.server";
import {
  checkOnlineStore,
  mapExistingProtectionItems,
  type OnlineStoreCheck,
} from "../services/protection-items.server";
import { ONLINE_STORE_CHECK, type ItemsActionData } from "./items";

/**
 * Everything the Protection items page shows. Shopify is asked whether the app's products are
 * on the Online Store only when the page asks (`?check=online-store`, once it is shown), so the
 * list never waits on it.
 */
export async function loadItemsPage(
  graphql: AdminGraphql,
  db: AppPrismaClient,
  shop: string,
  url: URL,
) {
  const records = await listProtectionItems(db, shop);
  const items = records.map((record) => ({
    id: record.id,
    variantId: record.variantId,
    productId: record.productId,
    title: record.title,
    priceAmount: record.priceAmount === null ? null : Number(record.priceAmount),
    currency: record.currency,
    category: record.category,
    strategy: record.strategy as Strategy,
    createdByApp: record.createdByApp,
  }));
  const onlineStore: OnlineStoreCheck | null =
    url.searchParams.get("check") === ONLINE_STORE_CHECK
      ? await checkOnlineStore(
          graphql,
          shop,
          items.filter((item) => item.createdByApp).map((item) => item.productId),
        )
      : null;
  return { shop, items, copyText: toCopyText(items), onlineStore };
}

export type ItemRow = Awaited<ReturnType<typeof loadItemsPage>>["items"][number];

/** Runs the page's posted form (map or remove) for `shop`: the answer and its HTTP status. */
export async function applyItemsForm(
  graphql: AdminGraphql,
  db: AppPrismaClient,
  shop: string,
  formData: FormData,
): Promise<{ data: ItemsActionData; status: number }> {
  const parsed = itemsFormSchema.safeParse(itemsFormInput(formData));
  if (!parsed.success) {
    const intent = parsed.error.issues[0]?.path[0] === "itemId" ? "remove" : "map";
    return { data: { intent, status: "invalid", ...formErrors(parsed.error) }, status: 422 };
  }
  const form = parsed.data;
  if (form.intent === "remove") {
    const removed = await removeProtectionItem(db, shop, form.itemId);
    return removed
      ? { data: { intent: "remove", status: "removed" }, status: 200 }
      : { data: { intent: "remove", status: "not_found" }, status: 404 };
  }
  const result = await mapExistingProtectionItems(graphql, db, shop, form);
  switch (result.status) {
    case "mapped":
      return { data: { intent: "map", status: "mapped", count: result.itemCount }, status: 200 };
    case "not_found":
      return { data: { intent: "map", status: "not_found", ids: result.ids }, status: 404 };
    case "shopify_error":
      return {
        data: { intent: "map", status: "shopify_error", message: result.message },
        status: 502,
      };
    case "save_failed":
      return { data: { intent: "map", status: "save_failed" }, status: 500 };
  }
}
