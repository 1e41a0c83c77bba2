/*
 * The webhook bodies the store posts, in Shopify's shapes for API 2026-10 (checked field by field
 * against Shopify's samples in field-set.test.ts), written with exact IDs above 2^53.
 */
import { toShopifyJson } from "../json";
import type {
  CustomerDataRequest,
  CustomerRedaction,
  Fulfillment,
  Order,
  OrderEdit,
  Refund,
  ScopesChange,
  StoreShop,
  WebhookBody,
} from "../model";
import { shopPayload } from "./app";
import {
  customerDataRequestPayload,
  customerRedactPayload,
  scopesUpdatePayload,
  shopRedactPayload,
} from "./compliance";
import { type FinishedBulkOperation, bulkOperationPayload } from "./bulk-operation";
import { fulfillmentPayload } from "./fulfillment";
import { gid } from "./gid";
import { orderPayload } from "./order";
import { orderEditPayload } from "./order-edit";
import { refundPayload } from "./refund";

/** orders/create, orders/updated, orders/paid, orders/fulfilled, orders/partially_fulfilled, orders/cancelled. */
export function orderWebhookBody(shop: StoreShop, order: Order): WebhookBody {
  return { json: toShopifyJson(orderPayload(shop, order)), subjectGid: gid("Order", order.id) };
}

/** refunds/create. */
export function refundWebhookBody(shop: StoreShop, order: Order, refund: Refund): WebhookBody {
  return {
    json: toShopifyJson(refundPayload(shop, order, refund)),
    subjectGid: gid("Refund", refund.id),
  };
}

/** fulfillments/create and fulfillments/update. */
export function fulfillmentWebhookBody(
  shop: StoreShop,
  order: Order,
  fulfillment: Fulfillment,
): WebhookBody {
  return {
    json: toShopifyJson(fulfillmentPayload(shop, order, fulfillment)),
    subjectGid: gid("Fulfillment", fulfillment.id),
  };
}

/** orders/edited; the edit's ID is the CalculatedOrder that orderEditBegin returned. */
export function orderEditWebhookBody(shop: StoreShop, order: Order, edit: OrderEdit): WebhookBody {
  return {
    json: toShopifyJson(orderEditPayload(shop, order, edit)),
    subjectGid: gid("CalculatedOrder", edit.id),
  };
}

/** bulk_operations/finish, for a bulk query that completed, failed or was cancelled. */
export function bulkOperationWebhookBody(
  shop: StoreShop,
  operation: FinishedBulkOperation,
): WebhookBody {
  return {
    json: toShopifyJson(bulkOperationPayload(shop, operation)),
    subjectGid: gid("BulkOperation", operation.id),
  };
}

/** app/uninstalled. */
export function appUninstalledWebhookBody(shop: StoreShop): WebhookBody {
  return { json: toShopifyJson(shopPayload(shop)), subjectGid: gid("Shop", shop.id) };
}

/** app/scopes_update: the installed app's scopes before and after the change. */
export function appScopesUpdateWebhookBody(shop: StoreShop, change: ScopesChange): WebhookBody {
  return {
    json: toShopifyJson(scopesUpdatePayload(shop, change)),
    subjectGid: gid("Shop", shop.id),
  };
}

/** customers/data_request. */
export function customersDataRequestWebhookBody(
  shop: StoreShop,
  request: CustomerDataRequest,
): WebhookBody {
  return {
    json: toShopifyJson(customerDataRequestPayload(shop, request)),
    subjectGid: gid("Customer", request.customer.id),
  };
}

/** customers/redact. */
export function customersRedactWebhookBody(
  shop: StoreShop,
  redaction: CustomerRedaction,
): WebhookBody {
  return {
    json: toShopifyJson(customerRedactPayload(shop, redaction)),
    subjectGid: gid("Customer", redaction.customer.id),
  };
}

/** shop/redact. */
export function shopRedactWebhookBody(shop: StoreShop): WebhookBody {
  return { json: toShopifyJson(shopRedactPayload(shop)), subjectGid: gid("Shop", shop.id) };
}
