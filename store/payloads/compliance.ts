/*
 * The mandatory compliance topics (customers/data_request, customers/redact, shop/redact) and
 * app/scopes_update, as Shopify's 2026-04 docs samples write them. The compliance bodies name the
 * shop by ID and domain, so an app can trust which shop the signed body is about.
 */
import { type JsonObject, jsonId } from "../json";
import type {
  Customer,
  CustomerDataRequest,
  CustomerRedaction,
  ScopesChange,
  StoreShop,
} from "../model";
import { gid } from "./gid";

function shopFields(shop: StoreShop): JsonObject {
  return { shop_id: jsonId(shop.id), shop_domain: shop.domain };
}

function customerFields(customer: Customer): JsonObject {
  return {
    id: jsonId(customer.id),
    // A customer who checked out without an e-mail address has none.
    email: customer.email === "" ? null : customer.email,
    phone: customer.phone,
  };
}

export function customerDataRequestPayload(
  shop: StoreShop,
  request: CustomerDataRequest,
): JsonObject {
  return {
    ...shopFields(shop),
    customer: customerFields(request.customer),
    orders_requested: request.orderIds.map(jsonId),
    data_request: { id: jsonId(request.id) },
  };
}

export function customerRedactPayload(shop: StoreShop, redaction: CustomerRedaction): JsonObject {
  return {
    ...shopFields(shop),
    customer: customerFields(redaction.customer),
    orders_to_redact: redaction.orderIds.map(jsonId),
  };
}

export function shopRedactPayload(shop: StoreShop): JsonObject {
  return shopFields(shop);
}

/**
 * Shopify's docs sample since 2025-07: `shop_id` is the shop's GID (a string, unlike the
 * compliance topics' number) and `updated_at` an ISO instant in UTC with milliseconds. The docs
 * do not say what `id` names; the store gives each change an ID of its own.
 */
export function scopesUpdatePayload(shop: StoreShop, change: ScopesChange): JsonObject {
  return {
    id: jsonId(change.id),
    shop_id: gid("Shop", shop.id),
    previous: [...change.previous],
    current: [...change.current],
    updated_at: new Date(change.updatedAt).toISOString(),
  };
}
