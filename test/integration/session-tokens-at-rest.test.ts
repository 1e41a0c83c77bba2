import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import { testDatabaseProvider } from "../support/databases";
import { installInStore, localStore, resetLocalStore } from "../support/local-store";
import {
  actionsOf,
  installShopWithPlan,
  orderInStore,
  placeProtectedOrder,
  planActionWorker,
  refundInStore,
  type ProtectedProduct,
} from "../support/plan-actions";
import { adminRequest, callRoute } from "../support/routes";
import { sessionToken } from "../support/session-token";

// Shopify's tokens at rest (issue 27, defect 5; decision 044): the offline access token and the
// rotating refresh token are sealed in the Session table, and every reader (the embedded admin,
// the background work) still gets them in clear. A row stored in clear before is sealed by the
// start-up step, or when it is first read, and keeps working.

const provider = testDatabaseProvider();
const SHOP = `sealed-tokens-${provider}.myshopify.com`;
const NOTE = "svc-protection: plan refunded with its product";
const SHOPIFY_TOKEN = /shp(at|ua|rt|ca|ss)_/;

let db: AppPrismaClient;
let sold: ProtectedProduct;

beforeAll(async () => {
  db = (await import("../../app/db.server")).default;
});

beforeEach(async () => {
  await resetLocalStore();
  await db.session.deleteMany({});
  await db.shopifyAction.deleteMany({});
  sold = await installShopWithPlan(db, SHOP);
});

function rawSession(shop = SHOP) {
  return db.session.findUniqueOrThrow({ where: { id: `offline_${shop}` } });
}

function installation(shop = SHOP) {
  const installed = localStore().state.shop(shop)?.installation;
  if (!installed) throw new Error(`${shop} is not installed in the store`);
  return installed;
}

/** The row as the table holds it: no token of Shopify's, each field in the sealed form. */
async function expectSealed(shop = SHOP) {
  const row = await rawSession(shop);
  expect(JSON.stringify(row)).not.toMatch(SHOPIFY_TOKEN);
  expect(row.accessToken).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
  if (row.refreshToken !== null) expect(row.refreshToken).toMatch(/^v1\./);
  return row;
}

/** A refund of the product makes the worker refund the plan through the shop's offline token. */
async function expectPlanRefundWorks() {
  const { orderId, productLine } = await placeProtectedOrder(SHOP, sold, 1);
  await refundInStore(SHOP, orderId, productLine, 1);
  expect(await (await planActionWorker(db)).drain()).toBe(1);
  expect(await actionsOf(db, SHOP, orderId)).toMatchObject([{ status: "done", attempts: 1 }]);
  const order = await orderInStore(SHOP, orderId);
  expect(order.refunds.filter((refund) => refund.note?.startsWith(NOTE))).toHaveLength(1);
}

async function sessionStorage() {
  return (await import("../../app/shopify.server")).sessionStorage;
}

describe(`Shopify's tokens at rest (${provider})`, () => {
  it("seals the pair the install's token exchange stores, and the admin and the worker use it", async () => {
    await db.session.deleteMany({});
    const { loader } = await import("../../app/routes/app._index/route");
    const home = await callRoute(loader, adminRequest(SHOP, "/app", { token: sessionToken(SHOP) }));
    expect(home).not.toBeInstanceOf(Response);

    const row = await expectSealed();
    expect(row.refreshToken).not.toBeNull();
    expect(row.accessToken).not.toContain(installation().offlineAccessToken);
    const loaded = await (await sessionStorage()).loadSession(`offline_${SHOP}`);
    expect(loaded).toMatchObject({
      accessToken: installation().offlineAccessToken,
      refreshToken: expect.stringMatching(/^shprt_/),
    });

    // A second admin load reads the stored session, and the worker refunds with its token.
    expect(
      await callRoute(loader, adminRequest(SHOP, "/app", { token: sessionToken(SHOP) })),
    ).not.toBeInstanceOf(Response);
    await expectPlanRefundWorks();
    await expectSealed();
  });

  it("seals a row stored in clear before, at start-up, and the worker still refunds with it", async () => {
    const before = await rawSession();
    expect(before.accessToken).toBe(installation().offlineAccessToken);

    const { prepareServer } = await import("../../server/prepare-server");
    await prepareServer({ ...process.env });

    const row = await expectSealed();
    expect(row).toMatchObject({ shop: SHOP, scope: before.scope, expires: before.expires });
    expect(await (await sessionStorage()).loadSession(`offline_${SHOP}`)).toMatchObject({
      accessToken: before.accessToken,
    });
    await expectPlanRefundWorks();
    await expectSealed();
  });

  it("seals a row stored in clear when it is first read, and answers its token", async () => {
    const { accessToken } = await installInStore(db, SHOP);
    expect((await rawSession()).accessToken).toBe(accessToken);

    const loaded = await (await sessionStorage()).loadSession(`offline_${SHOP}`);

    expect(loaded?.accessToken).toBe(accessToken);
    await expectSealed();
    const again = await (await sessionStorage()).findSessionsByShop(SHOP);
    expect(again.map((session) => session.accessToken)).toEqual([accessToken]);
  });

  it("reads a token that does not open as no session, so the worker does not send it", async () => {
    const storage = await sessionStorage();
    await storage.loadSession(`offline_${SHOP}`);
    const other = `sealed-tokens-other-${provider}.myshopify.com`;
    await installInStore(db, other);
    await storage.loadSession(`offline_${other}`);
    // Another session's sealed token, copied into this shop's row: bound to its own row, it does
    // not open here.
    const copied = await rawSession(other);
    await db.session.update({
      where: { id: `offline_${SHOP}` },
      data: { accessToken: copied.accessToken },
    });

    expect(await storage.loadSession(`offline_${SHOP}`)).toBeUndefined();
    expect(await storage.findSessionsByShop(SHOP)).toEqual([]);
    const { offlineAdminFor } = await import("../../app/workers.server");
    expect(await offlineAdminFor(SHOP)).toBeNull();
    expect((await rawSession()).accessToken).toBe(copied.accessToken);
  });
});
