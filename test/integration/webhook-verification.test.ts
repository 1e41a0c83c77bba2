import { describe, expect, it } from "vitest";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { authenticate } from "../../app/shopify.server";
import { verifyShopifyWebhook } from "../../app/webhooks/verify.server";
import { readLifecycleFixture } from "../fixtures/lifecycle/lifecycle";
import { callRoute } from "../support/routes";
import { TEST_API_SECRET } from "../support/test-env";
import { readShopifyFixture } from "../support/webhooks";

// Order webhooks are verified by verifyShopifyWebhook, not authenticate.webhook (decision 009),
// and so are the lifecycle and compliance routes (decision 046). Both must give the same answer
// to every delivery, forged or broken ones above all.

const SHOP = "verify-store.myshopify.com";
const BODY = readLifecycleFixture("orders-create.json");
const COMPLIANCE_BODY = readShopifyFixture(
  "customers_redact",
  "shopify-docs-2026-04_gadget.json",
).replace("{shop}.myshopify.com", SHOP);

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

function signed(body = BODY, secret = TEST_API_SECRET, topic = "orders/create"): Delivery {
  return {
    body,
    headers: shopifyWebhookHeaders({ topic, shop: SHOP, body, secret }),
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

/** Each forged or broken delivery of one topic and body, and the answer it must get. */
function casesOf(topic: string, body: string): Array<[string, Delivery, number]> {
  const good = signed(body, TEST_API_SECRET, topic);
  return [
    ["a correctly signed delivery", good, 200],
    ["a delivery signed with another secret", signed(body, "not-the-app-secret", topic), 401],
    ["a body changed after signing", { ...good, body: `${body} ` }, 401],
    [
      "a signature with junk after it",
      withHeader(good, "X-Shopify-Hmac-Sha256", `${good.headers["X-Shopify-Hmac-Sha256"]}!!`),
      401,
    ],
    ["no signature", without(good, "X-Shopify-Hmac-Sha256"), 400],
    ["an empty body", signed("", TEST_API_SECRET, topic), 400],
    ["no topic header", without(good, "X-Shopify-Topic"), 400],
    ["no shop header", without(good, "X-Shopify-Shop-Domain"), 400],
    ["no webhook ID", without(good, "X-Shopify-Webhook-Id"), 400],
    ["no API version", without(good, "X-Shopify-API-Version"), 400],
    ["no event ID (optional)", without(good, "X-Shopify-Event-Id"), 200],
  ];
}

const CASES: Array<[string, Delivery, number]> = [
  ...casesOf("orders/create", BODY),
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

describe("the lifecycle and compliance routes answer as authenticate.webhook does", () => {
  // customers/redact for a shop the app holds nothing for: a good delivery is answered 200 and
  // stores nothing, so what is compared is the verification alone.
  it.each(casesOf("customers/redact", COMPLIANCE_BODY))("%s", async (_name, delivery, expected) => {
    const request = new Request("https://svc-protection.test/webhooks/customers/redact", {
      method: "POST",
      body: delivery.body,
      headers: delivery.headers,
    });
    const answer = await callRoute(customersRedact, request);
    expect(answer instanceof Response ? answer.status : 200).toBe(expected);
    expect(await libraryAnswer(delivery)).toBe(expected);
  });
});
