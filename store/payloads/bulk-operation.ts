/*
 * bulk_operations/finish: Shopify's sample is flat, with the status and type in lower case
 * ("completed", "canceled", "query"). The store writes the error code in lower case too, as the
 * status; Shopify's sample only shows a null one.
 */
import type { JsonObject } from "../json";
import type { Id, StoreShop } from "../model";
import { gid } from "./gid";
import { shopTimestamp, shopTimestampOrNull } from "./timestamps";

export interface FinishedBulkOperation {
  id: Id;
  status: string;
  errorCode: string | null;
  createdAt: string;
  completedAt: string | null;
}

export function bulkOperationPayload(
  shop: StoreShop,
  operation: FinishedBulkOperation,
): JsonObject {
  const zone = shop.ianaTimezone;
  return {
    admin_graphql_api_id: gid("BulkOperation", operation.id),
    completed_at: shopTimestampOrNull(operation.completedAt, zone),
    created_at: shopTimestamp(operation.createdAt, zone),
    error_code: operation.errorCode?.toLowerCase() ?? null,
    status: operation.status.toLowerCase(),
    type: "query",
  };
}
