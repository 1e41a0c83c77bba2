import { createHmac, randomUUID } from "node:crypto";

/** The webhook API version the app subscribes with (shopify.app.toml, ApiVersion.October26). */
export const WEBHOOK_API_VERSION = "2026-10";

/** X-Shopify-Hmac-Sha256: HMAC-SHA256 of the raw body with the app's client secret, base64. */
export function signWebhookBody(body: string | Uint8Array, secret: string): string {
  const hmac = createHmac("sha256", secret);
  if (typeof body === "string") hmac.update(body, "utf8");
  else hmac.update(body);
  return hmac.digest("base64");
}

export interface WebhookHeadersInput {
  topic: string;
  shop: string;
  /** The body exactly as it is sent. */
  body: string | Uint8Array;
  secret: string;
  webhookId?: string;
  eventId?: string;
  apiVersion?: string;
  triggeredAt?: Date;
}

/** The headers Shopify sends with a webhook delivery. */
export function shopifyWebhookHeaders(input: WebhookHeadersInput): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Topic": input.topic,
    "X-Shopify-Hmac-Sha256": signWebhookBody(input.body, input.secret),
    "X-Shopify-Shop-Domain": input.shop,
    "X-Shopify-API-Version": input.apiVersion ?? WEBHOOK_API_VERSION,
    "X-Shopify-Webhook-Id": input.webhookId ?? randomUUID(),
    "X-Shopify-Event-Id": input.eventId ?? randomUUID(),
    "X-Shopify-Triggered-At": (input.triggeredAt ?? new Date()).toISOString(),
  };
}
