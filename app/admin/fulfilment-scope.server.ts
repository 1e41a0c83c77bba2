/*
 * The optional scope plan fulfilment needs (decision 025): fulfillmentCreate on the shop's own
 * fulfilment orders. It is asked for when the merchant turns the setting on, through
 * shopify-app-remix's scopes API, so installs that never turn it on are never asked.
 */

export const FULFILMENT_SCOPE = "write_merchant_managed_fulfillment_orders";

/** The part of shopify-app-remix's `scopes` (from `authenticate.admin`) used here. */
interface ScopesApi {
  query(): Promise<{ granted: string[] }>;
  request(scopes: string[]): Promise<void>;
}

/** Whether the shop has not granted the fulfilment scope (Shopify's answer, not the session's). */
export async function fulfilmentScopeMissing(scopes: ScopesApi): Promise<boolean> {
  const { granted } = await scopes.query();
  return !granted.includes(FULFILMENT_SCOPE);
}

/**
 * Asks the merchant for the fulfilment scope: throws the redirect to Shopify's grant screen
 * when it is missing, and returns when it is granted already.
 */
export function requestFulfilmentScope(scopes: ScopesApi): Promise<void> {
  return scopes.request([FULFILMENT_SCOPE]);
}
