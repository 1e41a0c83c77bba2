import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { recordInstallation } from "../../app/models/ShopConnection.server";
import { action as appUninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as scopesUpdate } from "../../app/routes/webhooks.app.scopes_update";
import { action as customersDataRequest } from "../../app/routes/webhooks.customers.data_request";
import { ensureOfflineAccess } from "../../app/services/offline-session.server";
import { appUninstalledWebhookBody } from "../../store/payloads/index";
import { testDatabaseProvider } from "../support/databases";
import {
  installInStore,
  localStore,
  storeControl,
  storeWebhooksIdle,
} from "../support/local-store";
import { callRoute } from "../support/routes";
import { readShopifyFixture, signedWebhookRequest } from "../support/webhooks";

// The lifecycle and compliance webhooks and the shop's offline token (issue 27; decision 046),
// against the local store as Shopify: app/uninstalled acts only once Shopify refuses the shop's
// token, so a replayed copy of a real delivery changes nothing; and no webhook refreshes the
// token outside the shop's refresh lease (decision 042).

const provider = testDatabaseProvider();
const MINUTE_MS = 60_000;

/** A shop of its own for each test: installed in the store, its offline session stored. */
async function installedShop(): Promise<string> {
  const shop = `lifecycle-${provider}-${randomUUID().slice(0, 8)}.myshopify.com`;
  await recordInstallation(prisma, shop, "read_orders");
  await installInStore(prisma, shop, { scopes: "read_orders" });
  return shop;
}

/** The install's token traded for an expiring pair, which the app's session says runs out in `ms`. */
async function expiringToken(shop: string, ms: number) {
  expect(await ensureOfflineAccess(shop)).toMatchObject({ status: "ready" });
  await prisma.session.update({
    where: { id: `offline_${shop}` },
    data: { expires: new Date(Date.now() + ms) },
  });
}

async function refreshRequests(shop: string, fault?: Record<string, number>): Promise<number> {
  const answer = await storeControl<{ refresh_requests: number }>(
    `shops/${shop}/token_endpoint`,
    fault,
  );
  expect(answer.status).toBe(200);
  return answer.body.refresh_requests;
}

/** The shop's own app/uninstalled, as the store wrote it: what an attacker could have kept. */
function uninstalledBody(shop: string): string {
  const inStore = localStore().state.shop(shop);
  if (!inStore) throw new Error(`${shop} is not in the store`);
  return appUninstalledWebhookBody(inStore).json;
}

async function sendUninstalled(shop: string, body = uninstalledBody(shop)): Promise<Response> {
  const answer = await callRoute(
    appUninstalled,
    signedWebhookRequest({ topic: "app/uninstalled", shop, body }),
  );
  if (!(answer instanceof Response)) throw new Error("A webhook route must answer a Response");
  return answer;
}

async function stateOf(shop: string) {
  return {
    sessions: await prisma.session.count({ where: { shop } }),
    connection: (await prisma.shopConnection.findUnique({ where: { shop } }))?.status,
  };
}

const INSTALLED = { sessions: 1, connection: "not_connected" };
const UNINSTALLED = { sessions: 0, connection: "uninstalled" };

describe(`app/uninstalled asks Shopify first (${provider})`, () => {
  it("ignores a replayed app/uninstalled while Shopify still takes the shop's token: answered 200, recorded, nothing changed", async () => {
    const shop = await installedShop();
    // A real delivery's signed body, sent again under a new webhook ID: dedup cannot catch it.
    const response = await sendUninstalled(shop);

    expect(response.status).toBe(200);
    expect(await stateOf(shop)).toEqual(INSTALLED);
    const receipt = await prisma.webhookReceipt.findFirstOrThrow({
      where: { shop, topic: "app/uninstalled" },
    });
    expect(receipt.status).toBe("ignored");
    expect(receipt.detail).toMatch(/^Ignored: Shopify still accepts the shop's offline token/);
  });

  it("acts on the merchant's uninstall: the store revoked the token, and its refresh token too", async () => {
    const shop = await installedShop();
    // Due for a refresh: the check refreshes it first, through the lease, and the store refuses.
    await expiringToken(shop, -MINUTE_MS);
    const uninstalled = await storeControl(`shops/${shop}/uninstall`, {});
    expect(uninstalled.status).toBe(200);
    await storeWebhooksIdle();

    const deliveries = (
      await storeControl<{ deliveries: { shop: string; topic: string; status: number | null }[] }>(
        "webhooks",
      )
    ).body.deliveries.filter((delivery) => delivery.shop === shop);
    expect(deliveries.map(({ topic, status }) => [topic, status])).toEqual([
      ["app/uninstalled", 200],
    ]);
    expect(await stateOf(shop)).toEqual(UNINSTALLED);
    const receipt = await prisma.webhookReceipt.findFirstOrThrow({
      where: { shop, topic: "app/uninstalled" },
    });
    expect(receipt.status).toBe("processed");
    expect(await prisma.tokenRefreshLease.count({ where: { shop } })).toBe(0);
  });

  it("acts on app/uninstalled for a shop that has no offline session", async () => {
    const shop = await installedShop();
    await prisma.session.deleteMany({ where: { shop } });

    expect((await sendUninstalled(shop)).status).toBe(200);
    expect(await stateOf(shop)).toEqual({ sessions: 0, connection: "uninstalled" });
  });

  it("answers 503 and changes nothing when Shopify cannot say (its token endpoint fails)", async () => {
    const shop = await installedShop();
    await expiringToken(shop, -MINUTE_MS);
    await refreshRequests(shop, { status: 503, count: 5 });

    const response = await sendUninstalled(shop);

    expect(response.status).toBe(503);
    expect(await stateOf(shop)).toEqual(INSTALLED);
    expect(await prisma.webhookReceipt.count({ where: { shop } })).toBe(0);
  });

  it("answers 503 within its bound when Shopify does not answer the check in time", async () => {
    const shop = await installedShop();
    await expiringToken(shop, -MINUTE_MS);
    await refreshRequests(shop, { delay_ms: 8_000 });

    const started = Date.now();
    const response = await sendUninstalled(shop);

    expect(response.status).toBe(503);
    // Long before the token endpoint answers: Shopify's own delivery time-out is 5 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await stateOf(shop)).toEqual(INSTALLED);
  });
});

describe(`lifecycle and compliance webhooks refresh no token outside the lease (${provider})`, () => {
  it("a compliance webhook for a shop whose token is due for a refresh makes no refresh call", async () => {
    const shop = await installedShop();
    await expiringToken(shop, MINUTE_MS);
    const before = await refreshRequests(shop);
    const body = readShopifyFixture(
      "customers_data_request",
      "shopify-docs-2026-04_gadget.json",
    ).replace("{shop}.myshopify.com", shop);

    const response = await callRoute(
      customersDataRequest,
      signedWebhookRequest({ topic: "customers/data_request", shop, body }),
    );

    expect((response as Response).status).toBe(200);
    expect(await refreshRequests(shop)).toBe(before);
  });

  it("app/scopes_update waits for another process's refresh lease and uses the still valid token", async () => {
    const shop = await installedShop();
    await expiringToken(shop, MINUTE_MS);
    const before = await refreshRequests(shop);
    await prisma.tokenRefreshLease.create({
      data: { shop, owner: "another-process", expiresAt: new Date(Date.now() + MINUTE_MS) },
    });
    const shopId = localStore().state.shop(shop)!.id;
    const body = JSON.stringify({
      id: 7,
      shop_id: `gid://shopify/Shop/${shopId}`,
      previous: [],
      current: ["read_orders"],
      updated_at: "2026-11-28T10:00:00.000Z",
    });

    const response = await callRoute(
      scopesUpdate,
      signedWebhookRequest({ topic: "app/scopes_update", shop, body }),
    );

    expect((response as Response).status).toBe(200);
    expect(await refreshRequests(shop)).toBe(before);
    expect((await prisma.tokenRefreshLease.findUnique({ where: { shop } }))?.owner).toBe(
      "another-process",
    );
    const receipt = await prisma.webhookReceipt.findFirstOrThrow({
      where: { shop, topic: "app/scopes_update" },
    });
    expect(receipt.detail).toBe("Scopes now: read_orders");
  });
});
