import { parseWebhookJson } from "../lib/json";
import { parseCartUpdateBody } from "../storefront/cart";
import { reportCartUpdate } from "../storefront/cart-updates.server";
import {
  invalidRequest,
  methodNotAllowed,
  proxyJson,
  proxyRoute,
  readBodyText,
} from "../storefront/proxy-http.server";

const MAX_BODY_BYTES = 256 * 1024;

// POST /apps/svc/cart_updates on the storefront, forwarded and signed by Shopify's app proxy.
export const action = proxyRoute("proxy.cart_updates", async ({ request, shop, log }) => {
  const body = await readBodyText(request, MAX_BODY_BYTES);
  if (!body.ok) return invalidRequest("cart update", [{ path: "(body)", message: body.message }]);
  let json: unknown;
  try {
    // Lossless: a variant ID above 2^53 keeps its digits.
    json = parseWebhookJson(body.text);
  } catch {
    return invalidRequest("cart update", [{ path: "(body)", message: "The body is not JSON" }]);
  }
  const parsed = parseCartUpdateBody(json);
  if (!parsed.ok) return invalidRequest("cart update", parsed.issues);
  return proxyJson(await reportCartUpdate(shop, parsed.value, log));
});

export const loader = methodNotAllowed("POST");
