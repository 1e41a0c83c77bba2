import { createHmac, timingSafeEqual } from "node:crypto";

/** The identifying headers of a verified delivery. */
export interface VerifiedDelivery {
  shop: string;
  /** The topic Shopify named in X-Shopify-Topic. */
  topic: string;
  webhookId: string;
  eventId: string | null;
  apiVersion: string;
}

export type WebhookVerification =
  { valid: true; delivery: VerifiedDelivery } | { valid: false; status: 400 | 401; reason: string };

/** Reads one request header by its lower-case name. */
export type HeaderReader = (name: string) => string | null | undefined;

const REQUIRED_HEADERS = {
  topic: "x-shopify-topic",
  shop: "x-shopify-shop-domain",
  apiVersion: "x-shopify-api-version",
  webhookId: "x-shopify-webhook-id",
} as const;

/**
 * Shopify's webhook check, as `authenticate.webhook` makes it (decision 009): an HMAC-SHA256 of
 * the raw body with the app's secret, compared in constant time, then the headers every
 * delivery carries. The same answers too: 401 for a wrong HMAC, 400 for a missing body, HMAC or
 * header. Unlike `authenticate.webhook` it loads no offline session, which order webhooks never
 * use, and it hashes the bytes exactly as received.
 */
export function verifyShopifyWebhook(
  header: HeaderReader,
  rawBody: Uint8Array,
  apiSecret: string,
): WebhookVerification {
  if (!rawBody.length) return { valid: false, status: 400, reason: "The body is empty" };
  const hmac = header("x-shopify-hmac-sha256");
  if (!hmac) return { valid: false, status: 400, reason: "X-Shopify-Hmac-Sha256 is missing" };
  if (!hmacMatches(hmac, rawBody, apiSecret)) {
    return { valid: false, status: 401, reason: "The HMAC does not match the body" };
  }
  const missing = Object.values(REQUIRED_HEADERS).filter((name) => !header(name));
  if (missing.length) {
    return { valid: false, status: 400, reason: `Missing headers: ${missing.join(", ")}` };
  }
  return {
    valid: true,
    delivery: {
      shop: header(REQUIRED_HEADERS.shop)!,
      topic: header(REQUIRED_HEADERS.topic)!,
      webhookId: header(REQUIRED_HEADERS.webhookId)!,
      eventId: header("x-shopify-event-id") || null,
      apiVersion: header(REQUIRED_HEADERS.apiVersion)!,
    },
  };
}

function hmacMatches(received: string, rawBody: Uint8Array, apiSecret: string): boolean {
  // Compared as base64 text, as Shopify's library does: a lenient decode would accept junk.
  const expected = Buffer.from(createHmac("sha256", apiSecret).update(rawBody).digest("base64"));
  const given = Buffer.from(received);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
