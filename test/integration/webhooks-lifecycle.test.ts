import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { recordInstallation } from "../../app/models/ShopConnection.server";
import { action as appUninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as scopesUpdate } from "../../app/routes/webhooks.app.scopes_update";
import { action as customersDataRequest } from "../../app/routes/webhooks.customers.data_request";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { testDatabaseProvider } from "../support/databases";
import { callRoute } from "../support/routes";
import { readShopifyFixture, signedWebhookRequest } from "../support/webhooks";
import { seedShop } from "../support/shops";

const provider = testDatabaseProvider();
const SHOP = "super-toys.myshopify.com";
const OTHER_SHOP = "other-store.myshopify.com";

/** A compliance fixture as Shopify sends it to SHOP: its signed shop_domain is that shop. */
function complianceBody(topicFolder: string, shop = SHOP) {
  return readShopifyFixture(topicFolder, "shopify-docs-2026-04_gadget.json").replace(
    "{shop}.myshopify.com",
    shop,
  );
}

/** An installed, connected shop with an order event for each of two customers. */
async function seedShopWithEvents(shop: string) {
  await seedShop(prisma, shop, {
    installedScopes: "read_orders",
    keys: { sandboxSecretKey: "sk_test_seed_1234" },
    accessToken: "shpat_test",
    scope: "read_orders",
  });
  const placed = (orderId: string, email: string) =>
    JSON.stringify({
      type: "order_placed",
      payload: {
        order_id: orderId,
        customer: { first_name: "John", last_name: "Smith", email },
        customer_billing_address: {
          address_line_1: "1 Main St",
          city: "Berlin",
          country: "de",
          zip: "10115",
        },
        line_items: [],
      },
    });
  await prisma.outboxEvent.createMany({
    data: [
      {
        shop,
        environment: "sandbox",
        orderId: "299938",
        eventType: "order_placed",
        dedupeKey: "order:299938:placed",
        payload: placed("299938", "john@example.com"),
      },
      {
        shop,
        environment: "sandbox",
        orderId: "777",
        eventType: "order_placed",
        dedupeKey: "order:777:placed",
        payload: placed("777", "jane@example.com"),
        status: "delivered",
      },
    ],
  });
}

beforeEach(async () => {
  for (const table of [
    prisma.outboxEvent,
    prisma.webhookReceipt,
    prisma.session,
    prisma.shopConnection,
    prisma.productOfferHint,
    prisma.productOfferHintPublish,
  ] as const) {
    await (table as typeof prisma.session).deleteMany({});
  }
  await seedShopWithEvents(SHOP);
  await seedShopWithEvents(OTHER_SHOP);
});

describe(`lifecycle webhooks through the real routes on ${provider}`, () => {
  it("app/uninstalled deletes the shop's sessions, marks it uninstalled and keeps undelivered events", async () => {
    const body = readShopifyFixture("app_uninstalled", "shopify-docs-2026-04_gadget.json");
    const response = await callRoute(
      appUninstalled,
      signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body }),
    );

    expect(response.status).toBe(200);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: OTHER_SHOP } })).toBe(1);
    const connection = await prisma.shopConnection.findUnique({ where: { shop: SHOP } });
    expect(connection?.status).toBe("uninstalled");
    expect(connection?.uninstalledAt).toBeInstanceOf(Date);
    expect(connection?.sandboxSecretKeySealed).toBeTruthy();
    expect(await prisma.outboxEvent.count({ where: { shop: SHOP, status: "pending" } })).toBe(1);
    expect(
      await prisma.webhookReceipt.count({ where: { shop: SHOP, topic: "app/uninstalled" } }),
    ).toBe(1);
  });

  it("answers a wrongly signed app/uninstalled with 401 and changes nothing", async () => {
    const body = readShopifyFixture("app_uninstalled", "shopify-docs-2026-04_gadget.json");
    const response = await callRoute(
      appUninstalled,
      signedWebhookRequest({
        topic: "app/uninstalled",
        shop: SHOP,
        body,
        secret: "not-the-app-secret",
      }),
    );

    expect(response.status).toBe(401);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
    expect((await prisma.shopConnection.findUnique({ where: { shop: SHOP } }))?.status).toBe(
      "connected",
    );
    expect(await prisma.webhookReceipt.count()).toBe(0);
  });

  it("refuses a body altered after signing", async () => {
    const body = readShopifyFixture("app_uninstalled", "shopify-docs-2026-04_gadget.json");
    const signed = signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body });
    const tampered = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: body.replace("Super Toys", "Evil Toys"),
    });
    expect((await callRoute(appUninstalled, tampered)).status).toBe(401);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("a reinstall after app/uninstalled connects the shop again with its kept keys", async () => {
    const body = readShopifyFixture("app_uninstalled", "shopify-docs-2026-04_gadget.json");
    await callRoute(
      appUninstalled,
      signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body }),
    );
    await recordInstallation(prisma, SHOP, "read_orders");
    const connection = await prisma.shopConnection.findUnique({ where: { shop: SHOP } });
    expect(connection).toMatchObject({ status: "connected", uninstalledAt: null });
  });

  it("app/scopes_update stores the granted scopes on the sessions and the connection", async () => {
    const body = JSON.stringify({
      id: 1,
      previous: ["read_orders"],
      current: ["read_orders", "write_orders", "write_products"],
      updated_at: "2026-11-21T10:00:00.000Z",
    });
    const response = await callRoute(
      scopesUpdate,
      signedWebhookRequest({ topic: "app/scopes_update", shop: SHOP, body }),
    );

    expect(response.status).toBe(200);
    const session = await prisma.session.findUnique({ where: { id: `offline_${SHOP}` } });
    expect(session?.scope).toBe("read_orders,write_orders,write_products");
    const connection = await prisma.shopConnection.findUnique({ where: { shop: SHOP } });
    expect(connection?.grantedScopes).toBe("read_orders,write_orders,write_products");
    expect(
      (await prisma.session.findUnique({ where: { id: `offline_${OTHER_SHOP}` } }))?.scope,
    ).toBe("read_orders");
  });

  it("customers/data_request records which stored events hold the customer's data", async () => {
    const body = complianceBody("customers_data_request");
    const response = await callRoute(
      customersDataRequest,
      signedWebhookRequest({ topic: "customers/data_request", shop: SHOP, body }),
    );

    expect(response.status).toBe(200);
    const receipt = await prisma.webhookReceipt.findFirst({
      where: { shop: SHOP, topic: "customers/data_request" },
    });
    expect(receipt?.detail).toMatch(
      /^Holds personal data in 1 event\(s\) and 0 receipt\(s\)\. order 299938: order_placed event \d+ \(pending\): customer\.first_name, customer\.last_name, customer\.email, customer_billing_address\.address_line_1, customer_billing_address\.city, customer_billing_address\.zip, customer_billing_address\.country$/,
    );
  });

  it("customers/redact removes the customer's data from stored events of that shop only", async () => {
    const body = complianceBody("customers_redact");
    const response = await callRoute(
      customersRedact,
      signedWebhookRequest({ topic: "customers/redact", shop: SHOP, body }),
    );

    expect(response.status).toBe(200);
    const redacted = await prisma.outboxEvent.findFirst({
      where: { shop: SHOP, orderId: "299938" },
    });
    expect(redacted?.payload).not.toContain("john@example.com");
    expect(redacted?.payload).not.toContain("1 Main St");
    expect(JSON.parse(redacted!.payload).payload.order_id).toBe("299938");
    const untouched = await prisma.outboxEvent.findFirst({ where: { shop: SHOP, orderId: "777" } });
    expect(untouched?.payload).toContain("jane@example.com");
    const otherShop = await prisma.outboxEvent.findFirst({
      where: { shop: OTHER_SHOP, orderId: "299938" },
    });
    expect(otherShop?.payload).toContain("john@example.com");
  });

  it("shop/redact deletes everything stored for that shop and nothing else", async () => {
    for (const shop of [SHOP, OTHER_SHOP]) {
      const product = { shop, productId: "8457293660217" };
      await prisma.productOfferHint.create({
        data: { ...product, variantId: "45190312001593", withoutPlans: true },
      });
      await prisma.productOfferHintPublish.create({
        data: { ...product, published: '["45190312001593"]', publishedAt: new Date() },
      });
    }
    const uninstall = readShopifyFixture("app_uninstalled", "shopify-docs-2026-04_gadget.json");
    await callRoute(
      appUninstalled,
      signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body: uninstall }),
    );
    const body = complianceBody("shop_redact");
    const response = await callRoute(
      shopRedact,
      signedWebhookRequest({ topic: "shop/redact", shop: SHOP, body }),
    );

    expect(response.status).toBe(200);
    for (const count of [
      prisma.session.count({ where: { shop: SHOP } }),
      prisma.outboxEvent.count({ where: { shop: SHOP } }),
      prisma.webhookReceipt.count({ where: { shop: SHOP } }),
      prisma.shopConnection.count({ where: { shop: SHOP } }),
      prisma.productOfferHint.count({ where: { shop: SHOP } }),
      prisma.productOfferHintPublish.count({ where: { shop: SHOP } }),
    ]) {
      expect(await count).toBe(0);
    }
    expect(await prisma.outboxEvent.count({ where: { shop: OTHER_SHOP } })).toBe(2);
    expect(await prisma.shopConnection.count({ where: { shop: OTHER_SHOP } })).toBe(1);
    expect(await prisma.productOfferHint.count({ where: { shop: OTHER_SHOP } })).toBe(1);
    expect(await prisma.productOfferHintPublish.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });
});
