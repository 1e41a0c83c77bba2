/*
 * Development and tests: the local store's embedded admin (`/admin/apps/<handle>`, decision 030)
 * frames the app and serves an App Bridge stand-in, since Shopify's CDN script cannot load
 * offline. With SHOPIFY_ADMIN_ORIGIN set (refused under NODE_ENV=production, env.server.ts), the
 * app loads App Bridge from the store and lets the store's admin frame it. Shopify's own URLs
 * stay in place otherwise.
 */

const SHOPIFY_APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
/** Where the local store serves its stand-in: Shopify's CDN path, on the store's origin. */
export const LOCAL_APP_BRIDGE_PATH = "/cdn/shopifycloud/app-bridge.js";

/** The App Bridge script the app loads against a local store; undefined: Shopify's CDN. */
export function localAppBridgeUrl(adminOrigin: string | undefined): string | undefined {
  if (!adminOrigin) return undefined;
  return `${new URL(adminOrigin).origin}${LOCAL_APP_BRIDGE_PATH}`;
}

/**
 * A document's headers as the local admin needs them: the preload names the store's App Bridge,
 * and `frame-ancestors` lets the store's origin frame the page next to Shopify's admin origins.
 */
export function withLocalAdminHeaders(headers: Headers, adminOrigin: string): void {
  const appBridge = localAppBridgeUrl(adminOrigin)!;
  const link = headers.get("Link");
  if (link?.includes(SHOPIFY_APP_BRIDGE_URL)) {
    headers.set("Link", link.replaceAll(SHOPIFY_APP_BRIDGE_URL, appBridge));
  }
  const policy = headers.get("Content-Security-Policy");
  const origin = new URL(adminOrigin).origin;
  if (policy?.startsWith("frame-ancestors ") && !policy.includes("'none'")) {
    headers.set(
      "Content-Security-Policy",
      policy.replace("frame-ancestors ", `frame-ancestors ${origin} `),
    );
  }
}
