/*
 * Development and tests: the Shopify libraries call `https://{shop}/admin/...` (OAuth, token
 * exchange, Admin API). With SHOPIFY_ADMIN_ORIGIN set, this fetch sends those calls to the local
 * store, which serves Shopify's `https://{shop}/X` at `{origin}/shops/{shop}/X` (decision 021).
 * Every other URL goes out unchanged.
 */

export type FetchFunction = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<Response>;

const SHOP_HOST = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i;

/** The local store's URL for a Shopify admin URL, or null for any other URL. */
export function localStoreUrl(url: string, origin: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" || !SHOP_HOST.test(parsed.hostname)) return null;
  if (!parsed.pathname.startsWith("/admin/")) return null;
  return `${origin.replace(/\/+$/, "")}/shops/${parsed.hostname.toLowerCase()}${parsed.pathname}${parsed.search}`;
}

export function localStoreFetch(
  origin: string,
  // Looked up at call time: a test may replace globalThis.fetch after this was installed.
  fetchImpl: FetchFunction = (...args) => globalThis.fetch(...args),
): FetchFunction {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const rewritten = localStoreUrl(url, origin);
    if (rewritten === null) return fetchImpl(input, init);
    return fetchImpl(input instanceof Request ? new Request(rewritten, input) : rewritten, init);
  };
}
