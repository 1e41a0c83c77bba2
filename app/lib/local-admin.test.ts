import { describe, expect, it } from "vitest";
import { localAppBridgeUrl, withLocalAdminHeaders } from "./local-admin";

const SHOP_POLICY =
  "frame-ancestors https://svc-demo.myshopify.com https://admin.shopify.com https://*.spin.dev https://admin.myshopify.io https://admin.shop.dev;";

describe("the local admin's App Bridge and framing", () => {
  it("loads App Bridge from the store only when a local store is set", () => {
    expect(localAppBridgeUrl(undefined)).toBeUndefined();
    expect(localAppBridgeUrl("http://127.0.0.1:4020")).toBe(
      "http://127.0.0.1:4020/cdn/shopifycloud/app-bridge.js",
    );
    expect(localAppBridgeUrl("http://127.0.0.1:4020/")).toBe(
      "http://127.0.0.1:4020/cdn/shopifycloud/app-bridge.js",
    );
  });

  it("preloads the store's App Bridge and lets the store frame the page", () => {
    const headers = new Headers({
      Link: '<https://cdn.shopify.com/shopifycloud/app-bridge.js>; rel="preload"; as="script";',
      "Content-Security-Policy": SHOP_POLICY,
    });
    withLocalAdminHeaders(headers, "http://127.0.0.1:4020");
    expect(headers.get("Link")).toBe(
      '<http://127.0.0.1:4020/cdn/shopifycloud/app-bridge.js>; rel="preload"; as="script";',
    );
    expect(headers.get("Content-Security-Policy")).toBe(
      SHOP_POLICY.replace("frame-ancestors ", "frame-ancestors http://127.0.0.1:4020 "),
    );
  });

  it("leaves a page that may not be framed at all as it is", () => {
    const headers = new Headers({ "Content-Security-Policy": "frame-ancestors 'none';" });
    withLocalAdminHeaders(headers, "http://127.0.0.1:4020");
    expect(headers.get("Content-Security-Policy")).toBe("frame-ancestors 'none';");
    expect(headers.get("Link")).toBeNull();
  });
});
