/*
 * orders/edited: `{order_edit: {...}}` as Shopify's 2026-04 sample, with the net line changes of
 * the committed edit. The store edits quantities only, so discount and shipping changes are empty.
 */
import { type JsonObject, jsonId, jsonIdOrNull } from "../json";
import type { Order, OrderEdit, StoreShop } from "../model";
import { shopTimestamp, shopTimestampOrNull } from "./timestamps";

export function orderEditPayload(shop: StoreShop, order: Order, edit: OrderEdit): JsonObject {
  const zone = shop.ianaTimezone;
  const changes = (entries: { id: string; delta: number }[]) =>
    entries.map(({ id, delta }) => ({ id: jsonId(id), delta }));
  return {
    order_edit: {
      id: jsonId(edit.id),
      app_id: jsonIdOrNull(edit.appId),
      created_at: shopTimestamp(edit.createdAt, zone),
      committed_at: shopTimestampOrNull(edit.committedAt, zone),
      notify_customer: edit.notifyCustomer,
      order_id: jsonId(order.id),
      staff_note: edit.staffNote,
      // The staff member who edited; the store has no staff accounts.
      user_id: null,
      line_items: {
        additions: changes(edit.lineItemChanges.additions),
        removals: changes(edit.lineItemChanges.removals),
      },
      discounts: { line_item: { additions: [], removals: [] } },
      shipping_lines: { additions: [], removals: [] },
    },
  };
}
