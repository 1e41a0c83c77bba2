import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { recordInstallation } from "../../app/models/ShopConnection.server";
import { loader as homeLoader } from "../../app/routes/app._index/route";
import { action as appUninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as scopesUpdate } from "../../app/routes/webhooks.app.scopes_update";
import { action as customersDataRequest } from "../../app/routes/webhooks.customers.data_request";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { appUninstalledWebhookBody } from "../../store/payloads/index";
import { testDatabaseProvider } from "../support/databases";
import {
  installInStore,
  localStore,
  resetLocalStore,
  storeControl,
  storeWebhooksIdle,
} from "../support/local-store";
import { adminRequest, callRoute } from "../support/routes";
import { sessionToken } from "../support/session-token";
import { readOfflineSessionRow } from "../support/session-tokens";
import { connectShop } from "../support/shops";
import { readShopifyFixture, signedWebhookRequest } from "../support/webhooks";

// Install and uninstall against the local Shopify store: the merchant uninstalls in the store,
// which sends the app its signed app/uninstalled (handed to the app's route in this process), and
// installs again, which the app completes by the token exchange. Forged and tampered deliveries,
// scope changes and the compliance topics are sent to the routes directly, signed as Shopify
// signs them: app/uninstalled as the store writes it, the compliance topics as Shopify documents
// them (the store's admin cannot ask for them).

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
  await recordInstallation(prisma, shop, "read_orders");
  await connectShop(prisma, shop, { sandboxSecretKey: "sk_test_seed_1234" });
  await installInStore(prisma, shop, { scopes: "read_orders" });
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

/** app/uninstalled for the shop, as the store writes it. */
function uninstalledBody(shop = SHOP): string {
  const inStore = localStore().state.shop(shop);
  if (!inStore) throw new Error(`${shop} is not in the store`);
  return appUninstalledWebhookBody(inStore).json;
}

interface Delivery {
  shop: string;
  topic: string;
  attempt: number;
  status: number | null;
}

/** The merchant uninstalls the app in the store; returns once the app has answered its webhook. */
async function uninstallInStore(shop = SHOP): Promise<Delivery[]> {
  const uninstalled = await storeControl(`shops/${shop}/uninstall`, {});
  expect(uninstalled).toEqual({ status: 200, body: { shop, installed: false } });
  await storeWebhooksIdle();
  return (await storeControl<{ deliveries: Delivery[] }>("webhooks")).body.deliveries;
}

beforeEach(async () => {
  await resetLocalStore();
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
    const deliveries = await uninstallInStore();

    // The store revoked the app's token and sent one signed app/uninstalled, which the app took.
    expect(localStore().state.shop(SHOP)?.installation).toBeNull();
    expect(
      deliveries.map(({ shop, topic, attempt, status }) => [shop, topic, attempt, status]),
    ).toEqual([[SHOP, "app/uninstalled", 1, 200]]);
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
    const body = uninstalledBody();
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
    const body = uninstalledBody();
    const signed = signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body });
    const altered = body.replace("Super Toys", "Evil Toys");
    expect(altered).not.toBe(body);
    const tampered = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: altered,
    });
    expect((await callRoute(appUninstalled, tampered)).status).toBe(401);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("a reinstall after app/uninstalled connects the shop again with its kept keys", async () => {
    const before = localStore().state.shop(SHOP)?.installation?.offlineAccessToken;
    await uninstallInStore();
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);

    // The merchant installs again in the store; the admin then loads the app, which exchanges
    // the session token for the new offline token.
    const installation = localStore().state.install(SHOP, ["read_orders"]);
    expect(installation.offlineAccessToken).not.toBe(before);
    const home = await callRoute(
      homeLoader,
      adminRequest(SHOP, "/app", { token: sessionToken(SHOP) }),
    );
    expect(home).not.toBeInstanceOf(Response);

    const session = await readOfflineSessionRow(prisma, SHOP);
    // The exchange gives an expiring pair (decision 023), which replaced the new install's token.
    const exchanged = localStore().state.shop(SHOP)?.installation;
    expect(exchanged?.offlineAccessTokenExpiresAt).not.toBeNull();
    expect(session?.accessToken).toBe(exchanged?.offlineAccessToken);
    expect(session?.refreshToken).toMatch(/^shprt_/);
    const connection = await prisma.shopConnection.findUnique({ where: { shop: SHOP } });
    expect(connection).toMatchObject({
      status: "connected",
      uninstalledAt: null,
      grantedScopes: "read_orders",
      sandboxSecretKeyLast4: "1234",
    });
  });

  it("app/scopes_update stores the scopes the shop's token has, as the store grants them", async () => {
    const granted = ["read_orders", "write_orders", "write_products"];
    const changed = await storeControl(`shops/${SHOP}/scopes`, { scopes: granted });
    expect(changed.status).toBe(200);
    await storeWebhooksIdle();

    const deliveries = (await storeControl<{ deliveries: Delivery[] }>("webhooks")).body.deliveries;
    expect(deliveries.map(({ topic, status }) => [topic, status])).toEqual([
      ["app/scopes_update", 200],
    ]);
    const session = await prisma.session.findUnique({ where: { id: `offline_${SHOP}` } });
    expect(session?.scope?.split(",").sort()).toEqual(granted);
    const connection = await prisma.shopConnection.findUnique({ where: { shop: SHOP } });
    expect(connection?.grantedScopes?.split(",").sort()).toEqual(granted);
    expect(
      (await prisma.session.findUnique({ where: { id: `offline_${OTHER_SHOP}` } }))?.scope,
    ).toBe("read_orders");
  });

  it("app/scopes_update takes no shop from the unsigned header: another shop's body is refused", async () => {
    const other = localStore().state.shop(OTHER_SHOP)!;
    // Signed for OTHER_SHOP (its shop_id), sent under SHOP's header, granting more than it has.
    const body = JSON.stringify({
      id: 7,
      shop_id: `gid://shopify/Shop/${other.id}`,
      previous: ["read_orders"],
      current: ["read_orders", "write_orders", "write_products"],
      updated_at: "2026-11-21T10:00:00.000Z",
    });
    const response = await callRoute(
      scopesUpdate,
      signedWebhookRequest({ topic: "app/scopes_update", shop: SHOP, body }),
    );

    expect(response.status).toBe(400);
    const session = await prisma.session.findUnique({ where: { id: `offline_${SHOP}` } });
    expect(session?.scope).toBe("read_orders");
    const connection = await prisma.shopConnection.findUnique({ where: { shop: SHOP } });
    expect(connection?.grantedScopes).toBe("read_orders");
    expect(await prisma.webhookReceipt.count({ where: { topic: "app/scopes_update" } })).toBe(0);

    // A body that names no shop at all is refused too.
    const unnamed = JSON.stringify({ id: 8, previous: [], current: ["write_products"] });
    const refused = await callRoute(
      scopesUpdate,
      signedWebhookRequest({ topic: "app/scopes_update", shop: SHOP, body: unnamed }),
    );
    expect(refused.status).toBe(400);
    expect((await prisma.session.findUnique({ where: { id: `offline_${SHOP}` } }))?.scope).toBe(
      "read_orders",
    );

    // SHOP's own old body, replayed: what is stored is what the token has now, not the body.
    const own = body.replace(`/Shop/${other.id}"`, `/Shop/${localStore().state.shop(SHOP)!.id}"`);
    const replayed = await callRoute(
      scopesUpdate,
      signedWebhookRequest({ topic: "app/scopes_update", shop: SHOP, body: own }),
    );
    expect(replayed.status).toBe(200);
    expect((await prisma.session.findUnique({ where: { id: `offline_${SHOP}` } }))?.scope).toBe(
      "read_orders",
    );
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
    await uninstallInStore();
    // Shopify sends shop/redact 48 hours after the uninstall (decision 045).
    await prisma.shopConnection.update({
      where: { shop: SHOP },
      data: { uninstalledAt: new Date(Date.now() - 48 * 60 * 60 * 1_000) },
    });
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
