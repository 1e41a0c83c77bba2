import { beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import { testDatabaseProvider } from "../support/databases";
import { localStore, storeControl } from "../support/local-store";
import { withOutboxApp } from "../support/outbox-app";
import { RECONCILE_TEST_SETTINGS } from "../support/reconcile";
import { installShopWithPlan } from "../support/plan-actions";

// The backfill (issue 17, decision 029) on each database, against the local store's real bulk
// operations: orders placed before the shop installed the app (seeded without webhooks) are
// reported from a chosen date, once each, and a backfill cut off in the middle of its result
// goes on where it stopped.

const provider = testDatabaseProvider();
const SHOP = `backfill-${provider}.myshopify.com`;
const DAY = 86_400_000;
const app = withOutboxApp();

const SETTINGS = RECONCILE_TEST_SETTINGS;

let db: AppPrismaClient;

async function deps(overrides: { fetch?: typeof fetch; batchSize?: number } = {}) {
  const { offlineAdminFor } = await import("../../app/workers.server");
  const admin = await offlineAdminFor(SHOP);
  if (!admin) throw new Error(`${SHOP} has no offline session`);
  return { db, admin, settings: SETTINGS, ...overrides };
}

/** Steps the backfill as the worker does until it is finished. */
async function runBackfill(overrides: { fetch?: typeof fetch; batchSize?: number } = {}) {
  const { stepBackfill } = await import("../../app/reconcile/backfill.server");
  const backfill = await deps(overrides);
  for (let step = 0; step < 500; step += 1) {
    const outcome = await stepBackfill(backfill, SHOP);
    if (outcome === "finished")
      return db.reconcileState.findUniqueOrThrow({ where: { shop: SHOP } });
    if (outcome === "waiting") await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("The backfill never finished");
}

/** Orders placed before the app was installed: no webhook ever left the store. */
async function seedOrders(count: number, seed: number) {
  const seeded = await storeControl<{ count: number }>(`shops/${SHOP}/orders/seed`, {
    count,
    seed,
    created_from: new Date(Date.now() - 20 * DAY).toISOString(),
    created_to: new Date(Date.now() - DAY).toISOString(),
  });
  expect(seeded.status, JSON.stringify(seeded.body)).toBeLessThan(300);
}

/** The keys the webhooks of the shop's orders stand for, from the store's own records. */
function expectedKeys(): string[] {
  return localStore()
    .state.orders(SHOP)
    .flatMap((order) => [
      `order:${order.id}:placed`,
      ...order.fulfillments.filter((f) => f.status === "success").map((f) => `fulfillment:${f.id}`),
      ...order.refunds.map((refund) => `refund:${refund.id}:refunded`),
      ...order.edits
        .filter((edit) => edit.committedAt && edit.lineItemChanges.removals.length)
        .map((edit) => `order-edit:${edit.id}`),
      ...(order.cancelledAt ? [`order:${order.id}:cancelled`] : []),
    ])
    .sort();
}

async function recordedKeys() {
  const rows = await db.outboxEvent.findMany({
    where: { shop: SHOP },
    select: { dedupeKey: true, recoveredBy: true },
  });
  expect(new Set(rows.map((row) => row.recoveredBy))).toEqual(new Set(["backfill"]));
  return rows.map((row) => row.dedupeKey).sort();
}

beforeAll(async () => {
  db = app.prisma;
  await installShopWithPlan(db, SHOP);
});

describe(`the backfill (${provider})`, () => {
  it("refuses a date Shopify does not allow, or in the future", async () => {
    const { requestBackfill } = await import("../../app/models/ReconcileState.server");
    const now = new Date();
    expect(await requestBackfill(db, SHOP, new Date(now.getTime() - 61 * DAY), now)).toMatchObject({
      ok: false,
      reason: "too_old",
    });
    expect(await requestBackfill(db, SHOP, new Date(now.getTime() + DAY), now)).toMatchObject({
      ok: false,
      reason: "in_future",
    });
  });

  it("reports the orders since the chosen date, each event once, with one bulk query", async () => {
    const { requestBackfill } = await import("../../app/models/ReconcileState.server");
    await seedOrders(40, 7);
    const now = new Date();
    expect(await requestBackfill(db, SHOP, new Date(now.getTime() - 30 * DAY), now)).toMatchObject({
      ok: true,
    });
    // Asked twice: the second waits for the first.
    expect(await requestBackfill(db, SHOP, new Date(now.getTime() - 30 * DAY), now)).toMatchObject({
      ok: false,
      reason: "running",
    });

    const state = await runBackfill();
    expect(state).toMatchObject({
      backfillStatus: "completed",
      backfillOrdersDone: 40,
      backfillOrdersTotal: 40,
      backfillToRead: "[]",
      backfillDetail: null,
    });
    const expected = expectedKeys();
    expect(await recordedKeys()).toEqual(expected);
    expect(state.backfillEventsRecovered).toBe(expected.length);
    const bulk = await storeControl<{ bulk_operations: unknown[] }>(
      `shops/${SHOP}/bulk_operations`,
    );
    expect(bulk.body.bulk_operations).toHaveLength(1);

    // The shop now reports from the backfill's date: reconciliation finds nothing missing.
    const { offlineAdminFor } = await import("../../app/workers.server");
    const { runReconciliation } = await import("../../app/reconcile/run.server");
    const run = await runReconciliation(
      { db, admin: (await offlineAdminFor(SHOP))!, settings: SETTINGS },
      { shop: SHOP, trigger: "cli", since: new Date(now.getTime() - 30 * DAY) },
    );
    expect(run).toMatchObject({ status: "completed", eventsRecovered: 0, ordersChecked: 40 });
  });

  it("goes on from the last saved order after being cut off in the middle of its result", async () => {
    const { requestBackfill } = await import("../../app/models/ReconcileState.server");
    await seedOrders(30, 8);
    const now = new Date();
    expect(await requestBackfill(db, SHOP, new Date(now.getTime() - 30 * DAY), now)).toMatchObject({
      ok: true,
    });

    // The download breaks after part of the result, as a killed process or a dropped connection.
    let cut = false;
    const breaking: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.text();
      cut = true;
      const encoder = new TextEncoder();
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new Error("connection reset"));
          sent = true;
          controller.enqueue(encoder.encode(text.slice(0, Math.floor(text.length * 0.6))));
        },
      });
      return new Response(body, { status: 200 });
    };
    const { stepBackfill } = await import("../../app/reconcile/backfill.server");
    const cutDeps = await deps({ fetch: breaking, batchSize: 10 });
    await expect(
      (async () => {
        for (let step = 0; step < 100; step += 1) {
          await stepBackfill(cutDeps, SHOP);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })(),
    ).rejects.toThrow("connection reset");
    expect(cut).toBe(true);
    const stopped = await db.reconcileState.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(stopped.backfillStatus).toBe("running");
    expect(stopped.backfillOrdersDone).toBeGreaterThan(0);
    expect(stopped.backfillOrdersDone % 10).toBe(0);

    const state = await runBackfill({ batchSize: 10 });
    expect(state).toMatchObject({
      backfillStatus: "completed",
      backfillOrdersDone: 70,
      backfillToRead: "[]",
    });
    expect(await recordedKeys()).toEqual(expectedKeys());
  });
});
