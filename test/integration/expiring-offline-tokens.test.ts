import { beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { ShopifyAction } from "../../app/generated/prisma/sqlite/client";
import type { AdminForShop } from "../../app/plan-actions/worker.server";
import { testDatabaseProvider } from "../support/databases";
import { readOfflineSessionRow } from "../support/session-tokens";
import {
  advanceStoreClock,
  freezeStoreClock,
  localStore,
  releaseStoreClock,
  storeGraphqlLog,
} from "../support/local-store";
import {
  installShopWithPlan,
  orderInStore,
  placeProtectedOrder,
  planActionWorker,
  refundInStore,
  type ProtectedProduct,
} from "../support/plan-actions";

// Expiring offline tokens in the background work (decision 023), against the local store: the
// shop's non-expiring session is migrated the first time the action worker needs it; a token that
// runs out in the middle of a plan refund (between the order's read and refundCreate, by the
// store's clock) makes the action try again with a refreshed token, and it refunds once; a
// refresh token Shopify refuses ends the action, telling the merchant to open the app again.

const provider = testDatabaseProvider();
const SHOP = `tokens-${provider}.myshopify.com`;
const HOUR_MS = 3_600_000;
const NOTE = "svc-protection: plan refunded with its product";

describe(`expiring offline tokens in the plan action worker (${provider})`, () => {
  let db: AppPrismaClient;
  let sold: ProtectedProduct;
  let nonExpiringToken: string;

  /** The action worker of this process, with the Admin API client `adminFor` gives it. */
  const worker = (options: { now?: () => Date; adminFor?: AdminForShop } = {}) =>
    planActionWorker(db, options);

  /** An order of one product with its plan, and the merchant's refund of the product. */
  async function refundedOrder() {
    const { orderId, productLine } = await placeProtectedOrder(SHOP, sold, 1);
    await refundInStore(SHOP, orderId, productLine, 1);
    return orderId;
  }

  async function actionOf(orderId: string): Promise<ShopifyAction> {
    const rows = await db.shopifyAction.findMany({ where: { shop: SHOP, orderId } });
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  async function ourRefunds(orderId: string) {
    const order = await orderInStore(SHOP, orderId);
    return order.refunds.filter((refund) => refund.note?.startsWith(NOTE));
  }

  /** The Session row, its tokens opened (they are sealed at rest, decision 044). */
  async function offlineSession() {
    return readOfflineSessionRow(db, SHOP);
  }

  function storeInstallation() {
    const installation = localStore().state.shop(SHOP)?.installation;
    if (!installation) throw new Error(`${SHOP} is not installed in the store`);
    return installation;
  }

  /** The status the store's Admin API answers a token with. */
  async function adminStatus(token: string): Promise<number> {
    const answer = await fetch(`${localStore().url}/shops/${SHOP}/admin/api/2026-10/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Shopify-Access-Token": token },
      body: JSON.stringify({ query: "query ShopName { shop { name } }" }),
    });
    await answer.arrayBuffer();
    return answer.status;
  }

  beforeAll(async () => {
    db = (await import("../../app/db.server")).default;
    const installed = await installShopWithPlan(db, SHOP);
    sold = installed;
    nonExpiringToken = installed.accessToken;
  });

  it("migrates the shop's non-expiring session the first time the worker needs it, and refunds with the new token", async () => {
    const before = await offlineSession();
    expect(before).toMatchObject({
      accessToken: nonExpiringToken,
      expires: null,
      refreshToken: null,
    });
    const orderId = await refundedOrder();

    expect(await (await worker()).drain()).toBe(1);
    expect(await actionOf(orderId)).toMatchObject({ status: "done", attempts: 1, quantity: 1 });
    expect(await ourRefunds(orderId)).toHaveLength(1);

    // The Session row holds the expiring pair, read back as the store issued it.
    const migrated = await offlineSession();
    expect(migrated.accessToken).toBe(storeInstallation().offlineAccessToken);
    expect(migrated.accessToken).not.toBe(nonExpiringToken);
    expect(migrated.refreshToken).toMatch(/^shprt_/);
    expect(migrated.expires!.getTime() - Date.now()).toBeGreaterThan(HOUR_MS - 60_000);
    expect(migrated.refreshTokenExpires!.getTime() - Date.now()).toBeGreaterThan(89 * 86_400_000);
    expect(await adminStatus(nonExpiringToken)).toBe(401);
    const { sessionStorage } = await import("../../app/shopify.server");
    const loaded = await sessionStorage.loadSession(`offline_${SHOP}`);
    expect(loaded).toMatchObject({
      accessToken: migrated.accessToken,
      refreshToken: migrated.refreshToken,
      expires: migrated.expires,
      refreshTokenExpires: migrated.refreshTokenExpires,
    });
  });

  it("keeps the old session as it was when Shopify refuses the migration", async () => {
    // A session that Shopify no longer knows: the exchange is refused, the row stays as it was.
    const current = await offlineSession();
    await db.session.update({
      where: { id: current.id },
      data: {
        accessToken: "shpat_00000000000000000000000000000000",
        expires: null,
        refreshToken: null,
        refreshTokenExpires: null,
      },
    });
    const { ensureOfflineAccess } = await import("../../app/services/offline-session.server");
    const access = await ensureOfflineAccess(SHOP);
    expect(access).toMatchObject({
      status: "ready",
      session: { accessToken: "shpat_00000000000000000000000000000000" },
    });
    expect(await offlineSession()).toMatchObject({
      accessToken: "shpat_00000000000000000000000000000000",
      expires: null,
    });
    await db.session.update({ where: { id: current.id }, data: current });
  });

  it("refreshes a token that expires between the order's read and refundCreate, and refunds once", async () => {
    const orderId = await refundedOrder();
    const { offlineAdminFor } = await import("../../app/workers.server");
    // The real client of the shop; the store's clock passes the token's hour just before the
    // refund is sent.
    let moved = false;
    const movingClock: AdminForShop = async (shop) => {
      const graphql = await offlineAdminFor(shop);
      return (
        graphql &&
        (async (query, options) => {
          if (!moved && query.includes("mutation RefundPlanLine")) {
            moved = true;
            advanceStoreClock(HOUR_MS);
          }
          return graphql(query, options);
        })
      );
    };
    const before = await offlineSession();
    freezeStoreClock();
    try {
      expect(await (await worker({ adminFor: movingClock })).drain()).toBe(1);
    } finally {
      releaseStoreClock();
    }
    expect(moved).toBe(true);
    const waiting = await actionOf(orderId);
    expect(waiting).toMatchObject({ status: "failed", attempts: 1, refundId: null });
    expect(waiting.lastError).toContain("RefundPlanLine: Shopify answered 401");
    expect(await ourRefunds(orderId)).toEqual([]);
    // The refund the store refused never ran: it was logged without executing.
    const refused = (await storeGraphqlLog()).filter(
      (request) => request.operation_name === null && request.status === 401,
    );
    expect(refused.length).toBeGreaterThan(0);
    expect((await offlineSession()).expires!.getTime()).toBeLessThanOrEqual(Date.now());

    const later = new Date(waiting.nextAttemptAt.getTime() + 1_000);
    expect(await (await worker({ now: () => later })).drain()).toBe(1);
    expect(await actionOf(orderId)).toMatchObject({ status: "done", attempts: 2, quantity: 1 });
    expect(await ourRefunds(orderId)).toHaveLength(1);
    const refreshed = await offlineSession();
    expect(refreshed.accessToken).not.toBe(before.accessToken);
    expect(refreshed.refreshToken).not.toBe(before.refreshToken);
    expect(refreshed.accessToken).toBe(storeInstallation().offlineAccessToken);
    expect(refreshed.expires!.getTime()).toBeGreaterThan(Date.now() + HOUR_MS - 60_000);
  });

  it("tries again when the token has run out before the action starts, and refunds once", async () => {
    const orderId = await refundedOrder();
    freezeStoreClock();
    advanceStoreClock(HOUR_MS);
    releaseStoreClock();
    expect(await (await worker()).drain()).toBe(1);
    const waiting = await actionOf(orderId);
    expect(waiting).toMatchObject({ status: "failed", attempts: 1 });
    expect(waiting.lastError).toContain("OrderForPlanRefund: Shopify answered 401");

    const later = new Date(waiting.nextAttemptAt.getTime() + 1_000);
    expect(await (await worker({ now: () => later })).drain()).toBe(1);
    expect(await actionOf(orderId)).toMatchObject({ status: "done", attempts: 2 });
    expect(await ourRefunds(orderId)).toHaveLength(1);
    expect((await offlineSession()).accessToken).toBe(storeInstallation().offlineAccessToken);
  });

  it("ends the action when Shopify refuses the refresh token, telling the merchant to open the app again", async () => {
    const orderId = await refundedOrder();
    // 91 days without the app running: the refresh token has run out too.
    freezeStoreClock();
    advanceStoreClock(91 * 86_400_000);
    releaseStoreClock();
    const stale = await offlineSession();

    expect(await (await worker()).drain()).toBe(1);
    const waiting = await actionOf(orderId);
    expect(waiting).toMatchObject({ status: "failed", attempts: 1 });
    const later = new Date(waiting.nextAttemptAt.getTime() + 1_000);
    expect(await (await worker({ now: () => later })).drain()).toBe(1);

    const dead = await actionOf(orderId);
    expect(dead).toMatchObject({ status: "dead", attempts: 2, refundId: null });
    expect(dead.lastError).toContain("invalid_grant");
    expect(dead.lastError).toContain("the merchant must open the app in the Shopify admin again");
    expect(await ourRefunds(orderId)).toEqual([]);
    // The session is kept as it was: nothing of it is lost to the refused refresh.
    expect(await offlineSession()).toMatchObject({
      accessToken: stale.accessToken,
      refreshToken: stale.refreshToken,
    });
  });
});
