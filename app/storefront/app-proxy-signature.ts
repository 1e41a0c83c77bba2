import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * Shopify's app proxy signature, checked on its own (decision 042): the library's
 * `authenticate.public.appProxy` also loads the shop's offline session and refreshes its token,
 * which turned every failed refresh into a 500 for the buyer. The algorithm is Shopify's
 * documented one: every query parameter but `signature`, sorted by name, written `name=value`
 * (a repeated name's values joined with ","), concatenated with no separator, HMAC-SHA256 in hex
 * with the app's API secret; and, as the library checks, a timestamp within 90 seconds.
 */

/** Shopify's tolerance for the proxy's `timestamp`, as the library applies it. */
export const APP_PROXY_TIMESTAMP_TOLERANCE_SECONDS = 90;

/** Shopify's own parameters: each comes once, else a reader of the first value is fooled. */
const SINGLE_VALUE_PARAMS = ["shop", "logged_in_customer_id", "path_prefix", "timestamp"];

export type AppProxySignatureCheck = { valid: true } | { valid: false; reason: string };

export function verifyAppProxySignature(
  params: URLSearchParams,
  apiSecret: string,
  nowSeconds: number,
): AppProxySignatureCheck {
  const signatures = params.getAll("signature");
  if (signatures.length !== 1 || !signatures[0]) {
    return { valid: false, reason: "The query carries no single signature" };
  }
  for (const name of SINGLE_VALUE_PARAMS) {
    if (params.getAll(name).length > 1) {
      return { valid: false, reason: `The query names ${name} more than once` };
    }
  }
  const timestamp = params.get("timestamp") ?? "";
  if (!/^\d{1,12}$/.test(timestamp)) {
    return { valid: false, reason: "The timestamp is missing or not a number" };
  }
  if (Math.abs(nowSeconds - Number(timestamp)) > APP_PROXY_TIMESTAMP_TOLERANCE_SECONDS) {
    return { valid: false, reason: "The timestamp is more than 90 seconds off" };
  }
  const expected = Buffer.from(appProxyMessageHmac(params, apiSecret));
  const given = Buffer.from(signatures[0]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { valid: false, reason: "The signature does not match the query" };
  }
  return { valid: true };
}

function appProxyMessageHmac(params: URLSearchParams, apiSecret: string): string {
  const values = new Map<string, string[]>();
  for (const [name, value] of params) {
    if (name === "signature") continue;
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  // Sorted by code unit, as Shopify's documented example (Ruby's String#<=>) sorts them.
  const message = [...values.keys()]
    .sort()
    .map((name) => `${name}=${(values.get(name) ?? []).join(",")}`)
    .join("");
  return createHmac("sha256", apiSecret).update(message).digest("hex");
}
