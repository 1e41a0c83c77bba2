import { readFileSync } from "node:fs";
import path from "node:path";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { shopifyFixturesDir, TEST_API_SECRET } from "./test-env";

export interface WebhookRequestOptions {
  topic: string;
  shop: string;
  body: string;
  webhookId?: string;
  eventId?: string;
  /** Sign with another secret, to prove a forged delivery is refused. */
  secret?: string;
  apiVersion?: string;
}

/** A webhook request exactly as Shopify sends it: raw body, HMAC-SHA256 in base64. */
export function signedWebhookRequest(options: WebhookRequestOptions): Request {
  const route = options.topic.toLowerCase();
  return new Request(`https://svc-protection.test/webhooks/${route}`, {
    method: "POST",
    body: options.body,
    headers: shopifyWebhookHeaders({ ...options, secret: options.secret ?? TEST_API_SECRET }),
  });
}

export function readShopifyFixture(topicFolder: string, file: string): string {
  return readFileSync(path.join(shopifyFixturesDir, topicFolder, file), "utf8");
}
