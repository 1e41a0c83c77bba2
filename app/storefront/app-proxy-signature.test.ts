import "@shopify/shopify-api/adapters/node";
import { ApiVersion, LogSeverity, shopifyApi } from "@shopify/shopify-api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appProxySignature } from "../../store/storefront/app-proxy";
import { verifyAppProxySignature } from "./app-proxy-signature";

// The app proxy's signature checked without the library's session load (decision 042): Shopify's
// documented example, every way a request is refused, and the same verdicts as the library's
// validateHmac (the check authenticate.public.appProxy made) on generated storefront queries
// signed by the local store's signer.

const SECRET = "shpss_app_proxy_signature_test";
const NOW = 1_764_300_000;

function signed(entries: [string, string][], timestamp = NOW, secret = SECRET): URLSearchParams {
  const params = new URLSearchParams(entries);
  params.set("shop", "demo.myshopify.com");
  params.set("logged_in_customer_id", "");
  params.set("path_prefix", "/apps/svc");
  params.set("timestamp", String(timestamp));
  params.set("signature", appProxySignature(params, secret));
  return params;
}

describe("verifyAppProxySignature", () => {
  it("accepts Shopify's documented example", () => {
    // shopify.dev's app proxy example: the query, its signature and the secret "hush".
    const params = new URLSearchParams(
      "extra=1&extra=2&shop=shop-name.myshopify.com&logged_in_customer_id=1&path_prefix=%2Fapps%2Fawesome_reviews&timestamp=1317327555&signature=4c68c8624d737112c91818c11017d24d334b524cb5c2b8ba08daa056f7395ddb",
    );
    expect(verifyAppProxySignature(params, "hush", 1317327555)).toEqual({ valid: true });
  });

  it("accepts a signed storefront query within 90 seconds of its timestamp", () => {
    const params = signed([["variant_id", "9007199254740993"]]);
    expect(verifyAppProxySignature(params, SECRET, NOW + 90)).toEqual({ valid: true });
    expect(verifyAppProxySignature(params, SECRET, NOW - 90)).toEqual({ valid: true });
  });

  it.each<[string, (params: URLSearchParams) => void, number, RegExp]>([
    ["a changed value", (params) => params.set("variant_id", "1"), NOW, /does not match/],
    ["an added parameter", (params) => params.append("price", "1"), NOW, /does not match/],
    ["no signature", (params) => params.delete("signature"), NOW, /no single signature/],
    ["two signatures", (params) => params.append("signature", "x"), NOW, /no single signature/],
    ["a second shop", (params) => params.append("shop", "other.myshopify.com"), NOW, /shop/],
    ["no timestamp", (params) => params.delete("timestamp"), NOW, /timestamp/],
    ["a stale timestamp", () => {}, NOW + 91, /90 seconds/],
    ["a timestamp from the future", () => {}, NOW - 91, /90 seconds/],
    ["an upper-case signature", (params) => upperCaseSignature(params), NOW, /does not match/],
  ])("refuses %s", (_name, change, now, reason) => {
    const params = signed([["variant_id", "9007199254740993"]]);
    change(params);
    const check = verifyAppProxySignature(params, SECRET, now);
    expect(check.valid).toBe(false);
    expect(check.valid ? "" : check.reason).toMatch(reason);
  });

  it("refuses a query signed with another secret", () => {
    const params = signed([["variant_id", "1"]], NOW, "another-secret");
    expect(verifyAppProxySignature(params, SECRET, NOW)).toMatchObject({ valid: false });
  });

  it("sorts names as Shopify signs them, by code unit, where the library's localeCompare differs", () => {
    // "o0" < "o_" by code unit; localeCompare puts "_" first. The store signs as Shopify does.
    const params = signed([
      ["o0", ""],
      ["o_", ""],
    ]);
    expect(verifyAppProxySignature(params, SECRET, NOW)).toEqual({ valid: true });
  });

  it("agrees with the library's validateHmac on generated storefront queries", async () => {
    const library = shopifyApi({
      apiKey: "test-api-key",
      apiSecretKey: SECRET,
      apiVersion: ApiVersion.October26,
      scopes: [],
      hostName: "svc-protection.test",
      isEmbeddedApp: true,
      logger: { level: LogSeverity.Error, log: async () => {} },
    });
    // Names of lower-case letters and "_", as storefront parameters are: the library's
    // localeCompare and Shopify's code-unit order sort them alike (digits they do not; below).
    const name = fc.stringMatching(/^[a-z][a-z_]{0,11}$/);
    const query = fc.array(fc.tuple(name, fc.string({ maxLength: 12 })), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(query, fc.boolean(), async (entries, tamper) => {
        const shopifyNames = ["shop", "logged_in_customer_id", "path_prefix", "timestamp"];
        // The library reads the clock itself.
        const now = Math.floor(Date.now() / 1000);
        const params = signed(
          entries.filter(([key]) => !shopifyNames.includes(key) && key !== "signature"),
          now,
        );
        if (tamper) params.append("variant_id", "1");
        const ours = verifyAppProxySignature(params, SECRET, now);
        const theirs = await library.utils
          .validateHmac(params, { signator: "appProxy" })
          .catch(() => false);
        expect(ours.valid).toBe(!tamper);
        expect(theirs).toBe(!tamper);
      }),
      { numRuns: 200 },
    );
  });
});

function upperCaseSignature(params: URLSearchParams) {
  params.set("signature", (params.get("signature") ?? "").toUpperCase());
}
