import { createHmac, timingSafeEqual } from "node:crypto";
import { describe, expect, it } from "vitest";
import { shopifyWebhookHeaders, signWebhookBody } from "./sign-webhook";

const SECRET = "hush-its-a-secret";
// Non-ASCII and a large ID: the signature covers the bytes exactly as sent.
const BODY = '{"id":820982911946154508,"note":"Grüße ✓","total_price":"199.00"}\n';

function verify(body: Buffer, header: string, secret: string): boolean {
  const expected = createHmac("sha256", secret).update(body).digest();
  const given = Buffer.from(header, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe("signWebhookBody", () => {
  it("is HMAC-SHA256 of the raw body in base64, as Shopify computes it", () => {
    const signature = signWebhookBody(BODY, SECRET);
    expect(signature).toBe(createHmac("sha256", SECRET).update(BODY, "utf8").digest("base64"));
    expect(verify(Buffer.from(BODY, "utf8"), signature, SECRET)).toBe(true);
  });

  it("signs bytes and the same text alike", () => {
    expect(signWebhookBody(Buffer.from(BODY, "utf8"), SECRET)).toBe(signWebhookBody(BODY, SECRET));
  });

  it("does not verify with another secret or a changed body", () => {
    const signature = signWebhookBody(BODY, SECRET);
    expect(verify(Buffer.from(BODY), signature, "another-secret")).toBe(false);
    expect(verify(Buffer.from(BODY.trimEnd()), signature, SECRET)).toBe(false);
  });
});

describe("shopifyWebhookHeaders", () => {
  it("has every header Shopify sends, with a verifiable HMAC", () => {
    const triggeredAt = new Date("2026-11-21T10:00:00.000Z");
    const headers = shopifyWebhookHeaders({
      topic: "orders/create",
      shop: "example.myshopify.com",
      body: BODY,
      secret: SECRET,
      webhookId: "webhook-1",
      eventId: "event-1",
      triggeredAt,
    });
    expect(headers).toEqual({
      "Content-Type": "application/json",
      "X-Shopify-Topic": "orders/create",
      "X-Shopify-Hmac-Sha256": expect.any(String),
      "X-Shopify-Shop-Domain": "example.myshopify.com",
      "X-Shopify-API-Version": "2026-10",
      "X-Shopify-Webhook-Id": "webhook-1",
      "X-Shopify-Event-Id": "event-1",
      "X-Shopify-Triggered-At": "2026-11-21T10:00:00.000Z",
    });
    expect(verify(Buffer.from(BODY), headers["X-Shopify-Hmac-Sha256"]!, SECRET)).toBe(true);
  });

  it("gives each delivery its own webhook and event ids unless they are given", () => {
    const input = { topic: "app/uninstalled", shop: "a.myshopify.com", body: "{}", secret: SECRET };
    const first = shopifyWebhookHeaders(input);
    const second = shopifyWebhookHeaders(input);
    expect(first["X-Shopify-Webhook-Id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(first["X-Shopify-Webhook-Id"]).not.toBe(second["X-Shopify-Webhook-Id"]);
    expect(first["X-Shopify-Event-Id"]).not.toBe(second["X-Shopify-Event-Id"]);
    expect(shopifyWebhookHeaders({ ...input, apiVersion: "2025-10" })).toHaveProperty(
      "X-Shopify-API-Version",
      "2025-10",
    );
  });
});
