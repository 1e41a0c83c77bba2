import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type AppPrismaClient } from "../../app/db/client.server";
import prisma from "../../app/db.server";
import { recordInstallation } from "../../app/models/ShopConnection.server";
import { requestActionRun } from "../../app/models/ShopifyAction.server";
import { claimDueActions } from "../../app/plan-actions/claim.server";
import { testDatabaseProvider } from "../support/databases";

// One action of an order at a time (decision 045, issue 27 defect 6): the claim of the plan
// actions' queue, by workers on their own connections, while the merchant asks for "Run now".

const provider = testDatabaseProvider();
const SHOP = "claims-shop.myshopify.com";
const LEASE_MS = 60_000;

let seq = 0;

async function recordAction(orderId: string, status: string) {
  seq += 1;
  return prisma.shopifyAction.create({
    data: {
      shop: SHOP,
      orderId,
      kind: "refund_plan_line",
      triggerId: `refund-${seq}`,
      planLineId: `line-${seq}`,
      triggerLines: "[]",
      status,
      nextAttemptAt: new Date(Date.now() - 1_000),
    },
  });
}

function claim(db: AppPrismaClient, workerId: string) {
  return claimDueActions(db, { workerId, limit: 100, leaseMs: LEASE_MS });
}

/** Order IDs with more than one action running under a live lease. */
async function ordersRunningTwice(): Promise<string[]> {
  const running = await prisma.shopifyAction.findMany({
    where: { shop: SHOP, status: "running", leaseExpiresAt: { gt: new Date() } },
    select: { orderId: true },
  });
  const counts = new Map<string, number>();
  for (const { orderId } of running) counts.set(orderId, (counts.get(orderId) ?? 0) + 1);
  return [...counts].filter(([, count]) => count > 1).map(([orderId]) => orderId);
}

describe(`plan action claims (${provider})`, () => {
  let second: AppPrismaClient;

  beforeAll(async () => {
    await recordInstallation(prisma, SHOP, "read_orders,write_orders");
    second = createPrismaClient(process.env.DATABASE_URL!, 4);
  });

  afterAll(async () => {
    await second.$disconnect();
  });

  it("starts no action of an order that another worker is running: Run now on an older one waits", async () => {
    const older = await recordAction("1001", "dead");
    const newer = await recordAction("1001", "pending");
    expect(await claim(prisma, "worker-a")).toEqual([newer.id]);

    expect(await requestActionRun(prisma, SHOP, older.id)).toEqual({
      status: "requested",
      from: "dead",
    });
    expect(await claim(second, "worker-b")).toEqual([]);

    await prisma.shopifyAction.update({
      where: { id: newer.id },
      data: { status: "done", claimedBy: null, leaseExpiresAt: null, completedAt: new Date() },
    });
    expect(await claim(second, "worker-b")).toEqual([older.id]);
  });

  it("takes the action of a worker whose lease ran out, and only one of the order's", async () => {
    const older = await recordAction("1002", "pending");
    const newer = await recordAction("1002", "pending");
    expect(await claim(prisma, "worker-a")).toEqual([older.id]);
    await prisma.shopifyAction.update({
      where: { id: older.id },
      data: { leaseExpiresAt: new Date(Date.now() - 1_000) },
    });
    expect(await claim(second, "worker-b")).toEqual([older.id]);
    expect(await claim(prisma, "worker-a")).toEqual([]);
    expect((await prisma.shopifyAction.findUniqueOrThrow({ where: { id: newer.id } })).status).toBe(
      "pending",
    );
  });

  it("two workers claiming at once while the merchant runs actions again never run two of one order", async () => {
    const orders = Array.from({ length: 12 }, (_, index) => `20${index}`);
    for (const orderId of orders) {
      await recordAction(orderId, "dead");
      await recordAction(orderId, "dead");
      await recordAction(orderId, "pending");
    }
    const doubles: string[][] = [];
    for (let round = 0; round < 8; round += 1) {
      const rerun = await prisma.shopifyAction.findMany({
        where: { shop: SHOP, orderId: { in: orders }, status: { in: ["dead", "skipped"] } },
        select: { id: true },
      });
      // Both workers claim while each order's finished actions are asked for again.
      await Promise.all([
        claim(prisma, "worker-a"),
        ...rerun.map((row) => requestActionRun(second, SHOP, row.id)),
        claim(second, "worker-b"),
        claim(prisma, "worker-a"),
      ]);
      await claim(second, "worker-b");
      doubles.push(await ordersRunningTwice());
      // What ran is skipped, so the next round's "Run now" can ask for it again.
      await prisma.shopifyAction.updateMany({
        where: { shop: SHOP, orderId: { in: orders }, status: "running" },
        data: { status: "skipped", claimedBy: null, leaseExpiresAt: null },
      });
    }
    expect(doubles.flat()).toEqual([]);
  });
});
