import "@shopify/shopify-api/adapters/node";
import { ApiVersion, LogSeverity, shopifyApi, type Shopify } from "@shopify/shopify-api";
import { API_KEY, API_SECRET, SCOPES } from "./test-support";

/*
 * @shopify/shopify-api as the app served at a fake app's URL configures it, for the store's tests
 * that check the store against Shopify's own library. Where its Admin calls go is the test's
 * choice (setAbstractFetchFunc with localStoreFetch).
 */

export interface LibraryAppOptions {
  /** The scopes the app asks for, the test store's by default. */
  scopes?: string[];
  /** An embedded app (token exchange) unless false (the code grant). */
  embedded?: boolean;
  /** The app's secret, the test store's by default. */
  secret?: string;
}

/** The library configured for the app at `appUrl`, logging errors only. */
export function shopifyApiFor(appUrl: string, options: LibraryAppOptions = {}): Shopify {
  return shopifyApi({
    apiKey: API_KEY,
    apiSecretKey: options.secret ?? API_SECRET,
    apiVersion: ApiVersion.October26,
    scopes: options.scopes ?? SCOPES,
    hostName: new URL(appUrl).host,
    hostScheme: "http",
    isEmbeddedApp: options.embedded ?? true,
    logger: { level: LogSeverity.Error, log: async () => {} },
  });
}
