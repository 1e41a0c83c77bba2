import { ORDER_TOPICS } from "../orders";

// Which facts of a webhook delivery the app may trust (decision 015). The HMAC covers the body
// only: X-Shopify-Topic and X-Shopify-Shop-Domain are not signed, so a signed body replayed with
// other headers must not change which route's work runs or which shop it runs for.

/** A shop's permanent domain, as Shopify spells it: lower case, `<handle>.myshopify.com`. */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,99}\.myshopify\.com$/;

export function isShopDomain(value: unknown): value is string {
  return typeof value === "string" && SHOP_DOMAIN.test(value);
}

/** Topics whose body names the shop (`shop_domain`), so the shop is a signed fact. */
export const COMPLIANCE_TOPICS = [
  "customers/data_request",
  "customers/redact",
  "shop/redact",
] as const;

export const LIFECYCLE_TOPICS = ["app/uninstalled", "app/scopes_update"] as const;

/** Every topic that has a route, as `uri = "/webhooks/<topic>"` in shopify.app.toml. */
export const WEBHOOK_TOPICS = [...ORDER_TOPICS, ...LIFECYCLE_TOPICS, ...COMPLIANCE_TOPICS] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/** The topic each webhook path takes; a delivery whose X-Shopify-Topic differs is refused. */
export const WEBHOOK_PATH_TOPICS: ReadonlyMap<string, WebhookTopic> = new Map(
  WEBHOOK_TOPICS.map((topic) => [`/webhooks/${topic}`, topic]),
);

export function isComplianceTopic(topic: string): boolean {
  return (COMPLIANCE_TOPICS as readonly string[]).includes(topic);
}

export interface DeliveryClaims {
  /** The topic of the route the delivery came to. */
  routeTopic: WebhookTopic;
  /** X-Shopify-Topic. */
  headerTopic: string;
  /** X-Shopify-Shop-Domain. */
  headerShop: string;
  /** The signed body, parsed; absent where it is not needed (order topics). */
  payload?: unknown;
}

export type SignedFacts =
  | {
      ok: true;
      shop: string;
      /** True when the signed body names the shop; false when only the header does. */
      shopIsSigned: boolean;
    }
  | { ok: false; status: 400; reason: string };

function refuse(reason: string): SignedFacts {
  return { ok: false, status: 400, reason };
}

/**
 * The shop and topic a verified delivery may be acted on for. The topic must be the route's. The
 * shop is the signed body's `shop_domain` for compliance topics (`myshopify_domain` for
 * app/uninstalled when Shopify fills it in), and a header that disagrees is refused; topics whose
 * body names no shop fall back to the header, which must at least be a myshopify.com domain.
 */
export function checkSignedFacts(claims: DeliveryClaims): SignedFacts {
  const { routeTopic, headerTopic, headerShop, payload } = claims;
  if (headerTopic !== routeTopic) {
    return refuse(`X-Shopify-Topic is "${headerTopic}" but this route takes ${routeTopic}`);
  }
  if (!isShopDomain(headerShop)) {
    return refuse(`X-Shopify-Shop-Domain "${headerShop}" is not a myshopify.com domain`);
  }
  const body = typeof payload === "object" && payload !== null ? payload : {};
  let signedShop: unknown;
  if (isComplianceTopic(routeTopic)) {
    signedShop = (body as { shop_domain?: unknown }).shop_domain;
    if (!isShopDomain(signedShop)) {
      return refuse(`The signed body's shop_domain is not a myshopify.com domain`);
    }
  } else if (routeTopic === "app/uninstalled") {
    const named = (body as { myshopify_domain?: unknown }).myshopify_domain;
    // Shopify's own examples send null here; then the header is all there is.
    if (named !== null && named !== undefined) {
      if (!isShopDomain(named)) {
        return refuse(`The signed body's myshopify_domain is not a myshopify.com domain`);
      }
      signedShop = named;
    }
  }
  if (signedShop === undefined) return { ok: true, shop: headerShop, shopIsSigned: false };
  if (signedShop !== headerShop) {
    return refuse(
      `X-Shopify-Shop-Domain "${headerShop}" is not the signed body's shop ${String(signedShop)}`,
    );
  }
  return { ok: true, shop: headerShop, shopIsSigned: true };
}

/**
 * The answer to a delivery for a shop that has not installed the app (or was erased); nothing is
 * stored either way. An order is refused with 404: it may be a signed body replayed under another
 * domain, and if it is an install not yet recorded, Shopify sends it again. For the other topics
 * there is nothing to do for such a shop, and a 200 keeps Shopify from retrying for two days.
 */
export function unknownShopStatus(topic: WebhookTopic): 200 | 404 {
  return (ORDER_TOPICS as readonly string[]).includes(topic) ? 404 : 200;
}
