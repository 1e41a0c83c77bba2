import { describe, expect, it } from "vitest";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { authenticate } from "../../app/shopify.server";
import { verifyShopifyWebhook } from "../../app/webhooks/verify.server";
import { readLifecycleFixture } from "../fixtures/lifecycle/lifecycle";
import { TEST_API_SECRET } from "../support/test-env";

// Order webhooks are verified by verifyShopifyWebhook, not authenticate.webhook (decision 009).
// Both must give the same answer to every delivery, forged or broken ones above all.

const SHOP = "verify-store.myshopify.com";
const BODY = readLifecycleFixture("orders-create.json");

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

function signed(body = BODY, secret = TEST_API_SECRET): Delivery {
  return {
    body,
    headers: shopifyWebhookHeaders({ topic: "orders/create", shop: SHOP, body, secret }),
  };
}

function without(delivery: Delivery, header: string): Delivery {
  const headers = { ...delivery.headers };
  delete headers[header];
  return { ...delivery, headers };
}

function withHeader(delivery: Delivery, header: string, value: string): Delivery {
  return { ...delivery, headers: { ...delivery.headers, [header]: value } };
}

/** 200 when authenticate.webhook accepts the delivery, else the status of the Response it throws. */
async function libraryAnswer(delivery: Delivery): Promise<number> {
  const request = new Request("https://svc-protection.test/webhooks/orders/create", {
    method: "POST",
    body: delivery.body,
    headers: delivery.headers,
  });
  try {
    await authenticate.webhook(request);
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

function ourAnswer(delivery: Delivery): number {
  const headers = new Headers(delivery.headers);
  const check = verifyShopifyWebhook(
    (name) => headers.get(name),
    Buffer.from(delivery.body),
    TEST_API_SECRET,
  );
  return check.valid ? 200 : check.status;
}

const CASES: Array<[string, Delivery, number]> = [
  ["a correctly signed delivery", signed(), 200],
  ["a delivery signed with another secret", signed(BODY, "not-the-app-secret"), 401],
  ["a body changed after signing", { ...signed(), body: `${BODY} ` }, 401],
  [
    "a signature with junk after it",
    withHeader(signed(), "X-Shopify-Hmac-Sha256", `${signed().headers["X-Shopify-Hmac-Sha256"]}!!`),
    401,
  ],
  ["no signature", without(signed(), "X-Shopify-Hmac-Sha256"), 400],
  ["an empty body", signed(""), 400],
  ["no topic header", without(signed(), "X-Shopify-Topic"), 400],
  ["no shop header", without(signed(), "X-Shopify-Shop-Domain"), 400],
  ["no webhook ID", without(signed(), "X-Shopify-Webhook-Id"), 400],
  ["no API version", without(signed(), "X-Shopify-API-Version"), 400],
  ["no event ID (optional)", without(signed(), "X-Shopify-Event-Id"), 200],
  ["a signed body that is not JSON", signed("{not json"), 200],
];

describe("verifyShopifyWebhook answers as authenticate.webhook does", () => {
  it.each(CASES)("%s", async (_name, delivery, expected) => {
    expect(ourAnswer(delivery)).toBe(expected);
    // authenticate.webhook JSON.parses after its checks; a body that is not JSON throws there.
    const library = await libraryAnswer(delivery).catch((error: unknown) =>
      error instanceof SyntaxError ? 200 : Promise.reject(error),
    );
    expect(library).toBe(expected);
  });

  it("hands over the delivery's headers", () => {
    const delivery = signed();
    const headers = new Headers(delivery.headers);
    const check = verifyShopifyWebhook(
      (name) => headers.get(name),
      Buffer.from(delivery.body),
      TEST_API_SECRET,
    );
    expect(check).toEqual({
      valid: true,
      delivery: {
        shop: SHOP,
        topic: "orders/create",
        webhookId: delivery.headers["X-Shopify-Webhook-Id"],
        eventId: delivery.headers["X-Shopify-Event-Id"],
        apiVersion: "2026-10",
      },
    });
  });
});
