import { randomUUID } from "node:crypto";
import { appProxySignature as signAppProxy } from "../../store/storefront/app-proxy";
import { TEST_API_SECRET } from "./test-env";

/*
 * Requests as Shopify's app proxy forwards them from /apps/svc/<path> on the storefront to
 * <app>/proxy/<path>: the storefront's query plus shop, logged_in_customer_id, path_prefix and
 * timestamp, signed with the app's API secret.
 */

/** Shopify's app proxy signature (the local store's signer), with the test app's secret. */
export function appProxySignature(params: URLSearchParams, secret = TEST_API_SECRET): string {
  return signAppProxy(params, secret);
}

export interface AppProxyRequestOptions {
  /** "plans" or "cart_updates". */
  path: string;
  shop: string;
  query?: Record<string, string>;
  method?: "GET" | "POST";
  /** Sent as is. */
  body?: string;
  /** Sign with another secret, to prove a forged request is refused. */
  secret?: string;
  /** Leave the signature out. */
  unsigned?: boolean;
  /** Seconds since the epoch; defaults to now. */
  timestamp?: number;
  loggedInCustomerId?: string;
  /** Change the query after signing, as a tampering client would. */
  tamper?: (params: URLSearchParams) => void;
}

export function appProxyRequest(options: AppProxyRequestOptions): Request {
  const params = new URLSearchParams(options.query);
  params.set("shop", options.shop);
  params.set("logged_in_customer_id", options.loggedInCustomerId ?? "");
  params.set("path_prefix", "/apps/svc");
  params.set("timestamp", String(options.timestamp ?? Math.floor(Date.now() / 1000)));
  if (!options.unsigned) params.set("signature", appProxySignature(params, options.secret));
  options.tamper?.(params);
  const method = options.method ?? (options.body === undefined ? "GET" : "POST");
  return new Request(`https://svc-protection.test/proxy/${options.path}?${params.toString()}`, {
    method,
    ...(options.body === undefined
      ? {}
      : { body: options.body, headers: { "Content-Type": "application/json" } }),
  });
}

/** A MacBook Air in euros, the currency in lower case as some themes send it. */
export const MACBOOK_AIR_QUERY = {
  price: "129900",
  currency: "eur",
  product_title: 'MacBook Air 13" Laptop M3',
  product_brand: "Apple",
} as const;

/**
 * The offer block's plans lookup for one variant, as the storefront sends it through the app
 * proxy: a laptop the emulator's catalogue has plans for, in a new browser session. `fields`
 * change or add query parameters (product_id, price, currency, product_title, ...).
 */
export function plansQuery(
  variantId: string,
  fields: Record<string, string> = {},
): Record<string, string> {
  return {
    variant_id: variantId,
    price: "19900",
    currency: "EUR",
    user_session_id: randomUUID(),
    product_title: "Aurora 14 Laptop",
    product_brand: "Nimbus",
    ...fields,
  };
}
