import { beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { ReconcileSettings, RunRequest } from "../../app/reconcile/run.server";
import { testDatabaseProvider } from "../support/databases";
import {
  advanceStoreClock,
  freezeStoreClock,
  releaseStoreClock,
  storeControl,
  storeGraphqlLog,
  storeWebhooksIdle,
} from "../support/local-store";
import { withOutboxApp } from "../support/outbox-app";
import { RECONCILE_TEST_SETTINGS } from "../support/reconcile";
import {
  actionsOf,
  fulfilInStore,
  installShopWithPlan,
  placeProtectedOrder,
  type ProtectedProduct,
} from "../support/plan-actions";

// Reconciliation (issue 17, decision 029) end to end in this process, on each database: the
// merchant's actions in the local store, some of whose webhooks the store drops as Shopify gives
// up on them; the webhooks that arrive reach the app's routes signed; reconciliation reads the
// store's Admin API and records what is missing; the outbox worker delivers to the emulator.

const provider = testDatabaseProvider();
const SHOP = `reconcile-${provider}.myshopify.com`;
const app = withOutboxApp();

const SETTINGS = RECONCILE_TEST_SETTINGS;

let db: AppPrismaClient;
let lamp: ProtectedProduct;

async function reconcile(
  request: Partial<RunRequest> = {},
  options: {
    db?: AppPrismaClient;
    settings?: Partial<ReconcileSettings>;
    sleep?: (ms: number) => Promise<void>;
    onProgress?: () => Promise<void>;
  } = {},
) {
  const { offlineAdminFor } = await import("../../app/workers.server");
  const { runReconciliation } = await import("../../app/reconcile/run.server");
  const admin = await offlineAdminFor(SHOP);
  if (!admin) throw new Error(`${SHOP} has no offline session`);
  return runReconciliation(
    {
      db: options.db ?? db,
      admin,
      settings: { ...SETTINGS, ...options.settings },
      sleep: options.sleep,
      onProgress: options.onProgress,
    },
    { shop: SHOP, trigger: "schedule", ...request },
  );
}

/** Drops the store's next webhooks of a topic: Shopify gave up on them. */
async function dropNext(topic: string, count = 1) {
  expect((await storeControl("webhooks/drop", { count, topic })).status).toBe(200);
}

async function refundInStore(orderId: string, lineId: string, restockType = "return") {
  const refunded = await storeControl<{ id: string }>(`shops/${SHOP}/orders/${orderId}/refunds`, {
    refund_line_items: [{ line_item_id: lineId, quantity: 1, restock_type: restockType }],
  });
  expect(refunded.status).toBe(201);
  await storeWebhooksIdle();
  return String(refunded.body.id);
}

async function outboxOf(orderId: string) {
  return db.outboxEvent.findMany({
    where: { shop: SHOP, orderId },
    orderBy: { id: "asc" },
    select: { eventType: true, dedupeKey: true, recoveredBy: true },
  });
}

/** Delivers every due event, then the service's events of the order, in the order received. */
async function deliveredTypes(orderId: string) {
  await app.worker.createOutboxWorker({ db }).drain();
  const state = await app.control.state("sandbox");
  return (state.orders.find((order) => order.order_id === orderId)?.events ?? []).map(
    (event) => event.type,
  );
}

beforeAll(async () => {
  db = app.prisma;
  lamp = await installShopWithPlan(db, SHOP);
});

describe(`reconciliation against the local store (${provider})`, () => {
  it("recovers the events of webhooks that never came, each once, order_placed first", async () => {
    await dropNext("orders/create");
    const order = await placeProtectedOrder(SHOP, lamp, 2);
    await fulfilInStore(SHOP, order.orderId, order.productLine, 1);
    await dropNext("refunds/create");
    const refundId = await refundInStore(order.orderId, order.productLine);
    expect((await outboxOf(order.orderId)).map((row) => row.eventType)).toEqual([
      "order_fulfillment_added",
    ]);

    const run = await reconcile();
    expect(run).toMatchObject({ status: "completed", eventsRecovered: 2 });
    expect(run.recovered).toEqual([
      {
        orderId: order.orderId,
        orderName: order.name,
        events: ["order_placed", "order_refund_added"],
      },
    ]);
    expect(await outboxOf(order.orderId)).toEqual([
      expect.objectContaining({ eventType: "order_fulfillment_added", recoveredBy: null }),
      {
        eventType: "order_placed",
        dedupeKey: `order:${order.orderId}:placed`,
        recoveredBy: "reconciliation",
      },
      {
        eventType: "order_refund_added",
        dedupeKey: `refund:${refundId}:refunded`,
        recoveredBy: "reconciliation",
      },
    ]);
    // The app's own Shopify action follows the recovered refund, keyed by the refund as a
    // webhook's would be.
    const actions = await actionsOf(db, SHOP, order.orderId);
    expect(
      actions.filter((row) => row.kind === "refund_plan_line").map((row) => row.triggerId),
    ).toEqual([refundId]);

    expect(await deliveredTypes(order.orderId)).toEqual([
      "order_placed",
      "order_fulfillment_added",
      "order_refund_added",
    ]);
    const again = await reconcile();
    expect(again).toMatchObject({ status: "completed", eventsRecovered: 0 });
    expect(await outboxOf(order.orderId)).toHaveLength(3);

    const state = await db.reconcileState.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(state.recoveringRunsInARow).toBe(0);
    expect(state.lastRunId).toBe(again.runId);
    expect(state.watermark.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("records nothing more when the lost webhook arrives late, after reconciliation", async () => {
    await dropNext("orders/create");
    const order = await placeProtectedOrder(SHOP, lamp, 1);
    await dropNext("orders/cancelled");
    expect(
      (
        await storeControl(`shops/${SHOP}/orders/${order.orderId}/cancel`, {
          reason: "customer",
          refund: true,
          restock: true,
        })
      ).status,
    ).toBeLessThan(300);
    await storeWebhooksIdle();

    const run = await reconcile();
    expect(run.recovered).toEqual([
      {
        orderId: order.orderId,
        orderName: order.name,
        events: ["order_placed", "order_cancelled"],
      },
    ]);

    const { sendOrderWebhook } = await import("../support/order-webhooks");
    const body = (
      await storeControl<Record<string, unknown>>(`shops/${SHOP}/orders/${order.orderId}`)
    ).body;
    for (const topic of ["orders/create", "orders/cancelled"] as const) {
      const answer = await sendOrderWebhook({ topic, shop: SHOP, body: JSON.stringify(body) });
      expect(answer.status).toBe(200);
    }
    expect((await outboxOf(order.orderId)).map((row) => [row.eventType, row.recoveredBy])).toEqual([
      ["order_placed", "reconciliation"],
      ["order_cancelled", "reconciliation"],
    ]);
    expect(await deliveredTypes(order.orderId)).toEqual(["order_placed", "order_cancelled"]);
  });

  it("records every event once when two processes reconcile the same orders at once", async () => {
    const { createPrismaClient } = await import("../../app/db/client.server");
    const { getEnv } = await import("../../app/env.server");
    const other = createPrismaClient(getEnv().DATABASE_URL);
    try {
      const orders = [];
      for (let index = 0; index < 3; index += 1) {
        await dropNext("orders/create");
        orders.push(await placeProtectedOrder(SHOP, lamp, 1));
      }
      const since = new Date(Date.now() - 10 * 60_000);
      const [first, second] = await Promise.all([
        reconcile({ since, trigger: "cli" }),
        reconcile({ since, trigger: "cli" }, { db: other }),
      ]);
      expect(first.status).toBe("completed");
      expect(second.status).toBe("completed");
      expect(first.eventsRecovered + second.eventsRecovered).toBe(3);
      for (const order of orders) {
        expect((await outboxOf(order.orderId)).map((row) => row.eventType)).toEqual([
          "order_placed",
        ]);
      }
    } finally {
      await other.$disconnect();
    }
  });

  it("one run at a time per shop: a second process finds the lease taken", async () => {
    const { claimReconcileLease, releaseReconcileLease } =
      await import("../../app/models/ReconcileState.server");
    const now = new Date();
    expect(await claimReconcileLease(db, SHOP, "worker-a", now, 60_000)).toBe(true);
    expect(await claimReconcileLease(db, SHOP, "worker-b", now, 60_000)).toBe(false);
    // A dead worker's lease runs out.
    expect(
      await claimReconcileLease(db, SHOP, "worker-b", new Date(now.getTime() + 61_000), 60_000),
    ).toBe(true);
    await releaseReconcileLease(db, SHOP, "worker-b");
    expect(await claimReconcileLease(db, SHOP, "worker-a", now, 60_000)).toBe(true);
    await releaseReconcileLease(db, SHOP, "worker-a");
  });

  it("says what it would record in a dry run, and records nothing", async () => {
    await dropNext("orders/create");
    const order = await placeProtectedOrder(SHOP, lamp, 1);
    const dry = await reconcile({ dryRun: true, trigger: "cli" });
    expect(dry.recovered).toEqual([
      { orderId: order.orderId, orderName: order.name, events: ["order_placed"] },
    ]);
    expect(await outboxOf(order.orderId)).toEqual([]);
    const run = await db.reconcileRun.findUniqueOrThrow({ where: { id: dry.runId } });
    expect(run).toMatchObject({ dryRun: true, eventsRecovered: 1 });
    expect((await reconcile()).recovered.map((recovered) => recovered.orderId)).toContain(
      order.orderId,
    );
  });
});

describe(`reconciliation's operators (${provider})`, () => {
  it("npm run svc -- shop:reconcile prints what it would record, then records it", async () => {
    const { runCommand } = await import("../../app/cli/commands.server");
    const { offlineAdminFor } = await import("../../app/workers.server");
    await dropNext("orders/create");
    const order = await placeProtectedOrder(SHOP, lamp, 1);
    const lines: string[] = [];
    const errors: string[] = [];
    const context = {
      db,
      env: { SVC_RECONCILE_SETTLE_SECONDS: "0" },
      out: (line: string) => lines.push(line),
      err: (message: string) => errors.push(message),
      adminFor: offlineAdminFor,
    };
    const dry = await runCommand({ name: "shop:reconcile", shop: SHOP, dryRun: true }, context);
    expect({ dry, errors }).toEqual({ dry: 0, errors: [] });
    expect(lines).toContain(`${order.name} (order ${order.orderId}): would record order_placed`);
    expect(await outboxOf(order.orderId)).toEqual([]);

    lines.length = 0;
    expect(await runCommand({ name: "shop:reconcile", shop: SHOP, dryRun: false }, context)).toBe(
      0,
    );
    expect(lines).toContain(`${order.name} (order ${order.orderId}): recorded order_placed`);
    expect(lines.some((line) => /^events recovered:\s+1$/.test(line))).toBe(true);
    expect((await outboxOf(order.orderId)).map((row) => row.recoveredBy)).toEqual([
      "reconciliation",
    ]);

    const unknown = await runCommand(
      { name: "shop:reconcile", shop: "unknown.myshopify.com", dryRun: false },
      context,
    );
    expect(unknown).toBe(3);
  });

  it("the worker runs the merchant's 'Reconcile now' at its next poll, and counts runs that recover", async () => {
    const { createReconcileWorker } = await import("../../app/reconcile/worker.server");
    const { requestReconcileRun } = await import("../../app/models/ReconcileState.server");
    const { offlineAdminFor } = await import("../../app/workers.server");
    const worker = createReconcileWorker({
      db,
      adminFor: offlineAdminFor,
      settings: { ...SETTINGS, intervalMs: 0 },
      workerId: "test-worker",
    });
    // The schedule is off and nothing is asked: nothing runs.
    expect(await worker.drain()).toBe(0);

    await dropNext("orders/create");
    const order = await placeProtectedOrder(SHOP, lamp, 1);
    const { recoveringRunsInARow: before } = await db.reconcileState.findUniqueOrThrow({
      where: { shop: SHOP },
    });
    await requestReconcileRun(db, SHOP, new Date());
    expect(await worker.drain()).toBe(1);
    const state = await db.reconcileState.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(state).toMatchObject({
      requestedAt: null,
      leaseOwner: null,
      recoveringRunsInARow: before + 1,
    });
    const run = await db.reconcileRun.findUniqueOrThrow({ where: { id: state.lastRunId ?? "" } });
    expect(run).toMatchObject({ trigger: "merchant", status: "completed", eventsRecovered: 1 });
    expect((await outboxOf(order.orderId)).map((row) => row.eventType)).toEqual(["order_placed"]);
  });
});

describe(`an order the shop does not report (${provider})`, () => {
  it("is settled as ignored once, and not read whole again", async () => {
    await db.shopConnection.update({
      where: { shop: SHOP },
      data: { reportOrdersWithoutPlan: false },
    });
    try {
      await dropNext("orders/create");
      const placed = await storeControl<{ id: string }>(`shops/${SHOP}/orders`, {
        line_items: [{ variant_id: lamp.product, quantity: 1 }],
      });
      const orderId = String(placed.body.id);
      await storeWebhooksIdle();
      const since = new Date(Date.now() - 60_000);
      const first = await reconcile({ since, trigger: "cli" });
      expect(first.recovered.filter((order) => order.orderId === orderId)).toEqual([]);
      const receipts = await db.webhookReceipt.findMany({ where: { shop: SHOP, orderId } });
      expect(receipts.map((receipt) => [receipt.topic, receipt.status])).toEqual([
        ["orders/create", "ignored"],
      ]);

      const before = (await storeGraphqlLog()).length;
      await reconcile({ since, trigger: "cli" });
      const reads = (await storeGraphqlLog())
        .slice(before)
        .filter((request) => request.operation_name === "ReconcileOrder");
      expect(reads).toEqual([]);
      expect(await outboxOf(orderId)).toEqual([]);
    } finally {
      await db.shopConnection.update({
        where: { shop: SHOP },
        data: { reportOrdersWithoutPlan: true },
      });
    }
  });
});

// Last: the store's clock is moved on here, and stays ahead of the app's, as Shopify's may be; a
// run then leaves orders updated after its own clock's now to the next run.
describe(`reconciliation under throttling (${provider})`, () => {
  it("waits out a throttle in the middle of a run, and keeps to its share of the bucket", async () => {
    const orders = [];
    await dropNext("orders/create", 60);
    for (let index = 0; index < 60; index += 1) {
      const placed = await storeControl<{ id: string }>(`shops/${SHOP}/orders`, {
        line_items: [{ variant_id: lamp.product, quantity: 1 }],
      });
      orders.push(String(placed.body.id));
    }
    await storeWebhooksIdle();
    const before = (await storeGraphqlLog()).length;
    freezeStoreClock();
    // A full bucket to start from: the earlier tests' reads have refilled.
    advanceStoreClock(30_000);
    let pages = 0;
    let slept = 0;
    try {
      const run = await reconcile(
        { since: new Date(Date.now() - 60 * 60_000), trigger: "cli" },
        {
          settings: { pageSize: 25 },
          sleep: async (ms) => {
            slept += ms;
            advanceStoreClock(ms);
          },
          onProgress: async () => {
            pages += 1;
            // Another app empties the shop's bucket after the first page.
            if (pages === 1)
              expect((await storeControl(`shops/${SHOP}/throttle`, { available: 0 })).status).toBe(
                200,
              );
          },
        },
      );
      expect(run.status).toBe("completed");
      expect(run.eventsRecovered).toBeGreaterThanOrEqual(60);
    } finally {
      releaseStoreClock();
    }
    expect(slept).toBeGreaterThan(0);
    for (const orderId of orders) {
      expect((await outboxOf(orderId)).map((row) => row.eventType)).toEqual(["order_placed"]);
    }
    // Every answer the run got left at least half the bucket to others (the reserve).
    const answers = (await storeGraphqlLog())
      .slice(before)
      .filter(
        (request) => request.shop === SHOP && /^Reconcile/.test(request.operation_name ?? ""),
      );
    const available = answers.flatMap((request) => {
      const cost = request.answer as {
        extensions?: { cost?: { throttleStatus?: { currentlyAvailable: number } } };
        data?: unknown;
      };
      return cost.data ? [cost.extensions?.cost?.throttleStatus?.currentlyAvailable ?? -1] : [];
    });
    expect(available.length).toBeGreaterThan(2);
    expect(Math.min(...available)).toBeGreaterThanOrEqual(1_000);
    expect(answers.some((request) => JSON.stringify(request.errors).includes("THROTTLED"))).toBe(
      true,
    );
  });
});
