import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { ensureReconcileState } from "../../app/models/ReconcileState.server";
import { recordInstallation, recordUninstall } from "../../app/models/ShopConnection.server";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { testDatabaseProvider } from "../support/databases";
import { createOfflineSession } from "../support/offline-session";
import { callRoute } from "../support/routes";
import { signedWebhookRequest } from "../support/webhooks";

// shop/redact and reinstalls (decision 045, issue 27 defects 7 and 11): a signed shop/redact
// never expires, so it erases only a shop that has been without the app long enough, and then
// everything, reconciliation included; a reinstalled shop reconciles from its new install.

const provider = testDatabaseProvider();
const SHOP = "redact-me.myshopify.com";
const OTHER_SHOP = "keep-me.myshopify.com";
const HOUR_MS = 60 * 60 * 1_000;

async function sendShopRedact(shop: string): Promise<number> {
  const body = `{"shop_id":954889,"shop_domain":"${shop}"}`;
  const answer = await callRoute(
    shopRedact,
    signedWebhookRequest({ topic: "shop/redact", shop, body }),
  );
  if (!(answer instanceof Response)) throw new Error("A webhook route must answer a Response");
  return answer.status;
}

/** A shop with an event and reconciliation that has run: its state and one run. */
async function seedShop(shop: string) {
  await recordInstallation(prisma, shop, "read_orders");
  await createOfflineSession(prisma, shop, "shpat_test", "read_orders");
  await prisma.outboxEvent.create({
    data: {
      shop,
      environment: "sandbox",
      orderId: "1001",
      eventType: "order_placed",
      dedupeKey: `order:1001:placed:${shop}`,
      payload: "{}",
    },
  });
  const state = await ensureReconcileState(prisma, shop, new Date());
  await prisma.reconcileState.update({
    where: { shop },
    data: {
      watermark: new Date(state.watermark.getTime() + HOUR_MS),
      deferredOrders: JSON.stringify([{ orderId: "1001", dueAt: new Date().toISOString() }]),
    },
  });
  await prisma.reconcileRun.create({
    data: { shop, trigger: "schedule", status: "completed", since: state.watermark },
  });
  // A refresh lease a crashed process left behind (decision 042): it names the shop too.
  await prisma.tokenRefreshLease.create({
    data: { shop, owner: "crashed-process", expiresAt: new Date(Date.now() - HOUR_MS) },
  });
}

/** The app/uninstalled of `hoursAgo` hours ago. */
async function uninstall(shop: string, hoursAgo: number) {
  await recordUninstall(prisma, shop);
  await prisma.shopConnection.update({
    where: { shop },
    data: { uninstalledAt: new Date(Date.now() - hoursAgo * HOUR_MS) },
  });
}

async function heldFor(shop: string) {
  return {
    connections: await prisma.shopConnection.count({ where: { shop } }),
    events: await prisma.outboxEvent.count({ where: { shop } }),
    reconcileStates: await prisma.reconcileState.count({ where: { shop } }),
    reconcileRuns: await prisma.reconcileRun.count({ where: { shop } }),
    tokenRefreshLeases: await prisma.tokenRefreshLease.count({ where: { shop } }),
  };
}

const ALL = {
  connections: 1,
  events: 1,
  reconcileStates: 1,
  reconcileRuns: 1,
  tokenRefreshLeases: 1,
};
const NONE = {
  connections: 0,
  events: 0,
  reconcileStates: 0,
  reconcileRuns: 0,
  tokenRefreshLeases: 0,
};

beforeEach(async () => {
  for (const table of [
    prisma.outboxEvent,
    prisma.webhookReceipt,
    prisma.session,
    prisma.shopConnection,
    prisma.reconcileState,
    prisma.reconcileRun,
    prisma.tokenRefreshLease,
  ] as const) {
    await (table as typeof prisma.outboxEvent).deleteMany({});
  }
  await seedShop(SHOP);
  await seedShop(OTHER_SHOP);
});

describe(`shop/redact erases only a shop long without the app (${provider})`, () => {
  it("records and ignores a replayed shop/redact for an installed shop, and answers 200", async () => {
    expect(await sendShopRedact(SHOP)).toBe(200);

    expect(await heldFor(SHOP)).toEqual(ALL);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
    const receipt = await prisma.webhookReceipt.findFirstOrThrow({
      where: { shop: SHOP, topic: "shop/redact" },
    });
    expect(receipt.status).toBe("ignored");
    expect(receipt.detail).toMatch(/^Ignored: the shop has the app installed/);
  });

  it("ignores one that comes sooner after the uninstall than the threshold (24 hours)", async () => {
    await uninstall(SHOP, 2);
    expect(await sendShopRedact(SHOP)).toBe(200);

    expect(await heldFor(SHOP)).toEqual(ALL);
    const receipt = await prisma.webhookReceipt.findFirstOrThrow({
      where: { shop: SHOP, topic: "shop/redact" },
    });
    expect(receipt).toMatchObject({ status: "ignored" });
    expect(receipt.detail).toMatch(/less than 24 hours before/);
  });

  it("erases everything of a shop uninstalled 48 hours ago, reconciliation and refresh leases included, and no other shop's", async () => {
    await uninstall(SHOP, 48);
    expect(await sendShopRedact(SHOP)).toBe(200);

    expect(await heldFor(SHOP)).toEqual(NONE);
    expect(await prisma.webhookReceipt.count({ where: { shop: SHOP } })).toBe(0);
    expect(await heldFor(OTHER_SHOP)).toEqual(ALL);
  });
});

describe(`a reinstall starts reconciliation afresh (${provider})`, () => {
  it("forgets the old watermark and deferred orders on reinstall, and reads from the new install", async () => {
    const before = await prisma.reconcileState.findUniqueOrThrow({ where: { shop: SHOP } });
    await uninstall(SHOP, 3);
    await recordInstallation(prisma, SHOP, "read_orders");

    const connection = await prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    const state = await ensureReconcileState(prisma, SHOP, new Date());
    expect(state.watermark.getTime()).toBe(connection.installedAt.getTime());
    expect(state.reportFrom.getTime()).toBe(connection.installedAt.getTime());
    expect(state.watermark.getTime()).not.toBe(before.watermark.getTime());
    expect(state.deferredOrders).toBe("[]");
    // A shop that stays installed keeps its state through a new token exchange.
    await recordInstallation(prisma, OTHER_SHOP, "read_orders,write_orders");
    expect(await prisma.reconcileState.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });

  it("does not reuse the state an erased shop left behind", async () => {
    await prisma.shopConnection.delete({ where: { shop: SHOP } });
    await recordInstallation(prisma, SHOP, "read_orders");

    const connection = await prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    const state = await ensureReconcileState(prisma, SHOP, new Date());
    expect(state.watermark.getTime()).toBe(connection.installedAt.getTime());
  });
});
