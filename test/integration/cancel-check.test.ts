import { beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import type * as DetailRoute from "../../app/routes/app.events.$id/route";
import type * as ListRoute from "../../app/routes/app.events/route";
import type * as HomeRoute from "../../app/routes/app._index/route";
import { testDatabaseProvider } from "../support/databases";
import { installInStore, storeControl, storeWebhooksIdle } from "../support/local-store";
import {
  actionsOf,
  installShopWithPlan,
  orderInStore,
  placeProtectedOrder,
  planActionWorker,
  refundLines,
  type ProtectedProduct,
} from "../support/plan-actions";
import { adminRequest, callRoute, routeData } from "../support/routes";
import { connectShop } from "../support/shops";

// The cancel check and the merchant's buttons (decision 027), end to end in this process: the
// merchant cancels in the local store, its webhooks reach the app's routes signed, the action
// worker reads the order in the store, and the merchant's clicks go through the event page's
// real action with App Bridge session tokens. Then the event log finds the order by its name
// and flags it while an action waits for the merchant.

const provider = testDatabaseProvider();
const SHOP = `cancel-check-${provider}.myshopify.com`;
const OTHER_SHOP = `cancel-check-other-${provider}.myshopify.com`;
const CANCEL_NOTE = "svc-protection: plans refunded with their cancelled order";

let db: AppPrismaClient;
let detailLoader: typeof DetailRoute.loader;
let detailAction: typeof DetailRoute.action;
let listLoader: typeof ListRoute.loader;
let homeLoader: typeof HomeRoute.loader;
let laptopWithPlan: ProtectedProduct;

/** A worker of this process; runs until no action is due. */
async function runWorker() {
  const worker = await planActionWorker(db);
  let rounds = 0;
  while ((await worker.runOnce()) > 0) {
    await storeWebhooksIdle();
    if (++rounds > 20) throw new Error("The action worker never ran out of due actions");
  }
  await storeWebhooksIdle();
}

/** A paid order of two laptops, each protected by a plan unit; its webhooks recorded. */
async function placeOrder() {
  const { orderId, name, planLine } = await placeProtectedOrder(SHOP, laptopWithPlan, 2);
  return { orderId, name, planLine };
}

async function cancel(orderId: string, refund: boolean) {
  const answer = await storeControl(`shops/${SHOP}/orders/${orderId}/cancel`, {
    reason: "customer",
    refund,
    restock: true,
  });
  expect(answer.status).toBe(200);
  await storeWebhooksIdle();
}

async function storeRefunds(orderId: string) {
  const order = await orderInStore(SHOP, orderId);
  return order.refunds.map((refund) => ({ note: refund.note, lines: refundLines(refund) }));
}

async function cancelCheckOf(orderId: string) {
  const rows = await db.shopifyAction.findMany({
    where: { shop: SHOP, orderId, kind: "check_cancelled_plans" },
  });
  expect(rows, "one cancel check per order").toHaveLength(1);
  return rows[0]!;
}

/** The order's order_cancelled event: the page the merchant opens. */
async function cancelledEventOf(orderId: string) {
  const event = await db.outboxEvent.findFirstOrThrow({
    where: { shop: SHOP, orderId, eventType: "order_cancelled" },
  });
  return String(event.id);
}

/** The merchant's click on an action's button, on an event page, as App Bridge posts it. */
async function click(eventId: string, actionId: number, shop = SHOP) {
  const request = adminRequest(shop, `/app/events/${eventId}`, {
    form: { intent: "run_action", actionId: String(actionId) },
  });
  return callRoute(detailAction, request, { id: eventId });
}

/** How many orders the home page says need the merchant. */
async function attentionOnHome() {
  return routeData(await callRoute(homeLoader, adminRequest(SHOP, "/app"))).attentionCount;
}

async function eventsPage(search: string) {
  const result = routeData(await callRoute(listLoader, adminRequest(SHOP, `/app/events${search}`)));
  if (result.view !== "events") throw new Error(`Expected the events tab, got ${result.view}`);
  return result;
}

beforeAll(async () => {
  db = (await import("../../app/db.server")).default;
  ({ loader: detailLoader, action: detailAction } =
    await import("../../app/routes/app.events.$id/route"));
  ({ loader: listLoader } = await import("../../app/routes/app.events/route"));
  ({ loader: homeLoader } = await import("../../app/routes/app._index/route"));
  laptopWithPlan = await installShopWithPlan(db, SHOP, {
    product: "Laptop",
    price: "999.00",
    planPrice: "49.00",
  });
  await installInStore(db, OTHER_SHOP);
  await connectShop(db, OTHER_SHOP);
});

describe(`the cancel check (${provider})`, () => {
  it("finds the plans' money back after a cancel with refund, and refunds nothing", async () => {
    const order = await placeOrder();
    await cancel(order.orderId, true);
    expect(await cancelCheckOf(order.orderId)).toMatchObject({
      status: "pending",
      triggerId: order.orderId,
      planLineId: "",
    });

    await runWorker();
    expect(await cancelCheckOf(order.orderId)).toMatchObject({
      status: "done",
      detail: `The plans' money went back with the cancellation of order ${order.name}`,
    });
    // Only the cancellation's own refund: the app added none.
    const refunds = await storeRefunds(order.orderId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.note).toBeNull();
  });

  it("flags a cancel without refund; the merchant's double click refunds the plans once", async () => {
    const order = await placeOrder();
    await cancel(order.orderId, false);
    await runWorker();
    const flagged = await cancelCheckOf(order.orderId);
    expect(flagged).toMatchObject({
      status: "skipped",
      detail: `Cancelled without refunding its plans: 2 plan unit(s) not refunded on order ${order.name}`,
      requestedBy: null,
    });
    expect(await storeRefunds(order.orderId)).toEqual([]);

    // The event log flags the order, and "Needs attention" lists its events and no other's.
    const eventId = await cancelledEventOf(order.orderId);
    const attention = await eventsPage("?attention=1");
    expect(attention.events.length).toBeGreaterThan(0);
    expect(attention.events.every((event) => event.orderId === order.orderId)).toBe(true);
    expect(attention.events.every((event) => event.needsAttention)).toBe(true);
    expect(await attentionOnHome()).toBe(1);

    // The page offers the refund; two clicks before the worker runs: the second changes nothing.
    const page = routeData(
      await callRoute(detailLoader, adminRequest(SHOP, `/app/events/${eventId}`), { id: eventId }),
    );
    expect(page.orderActions.find((action) => action.id === flagged.id)).toMatchObject({
      kind: "check_cancelled_plans",
      status: "skipped",
    });
    expect(routeData(await click(eventId, flagged.id))).toEqual({
      intent: "run_action",
      outcome: "requested",
      id: flagged.id,
      status: "pending",
    });
    expect(routeData(await click(eventId, flagged.id))).toEqual({
      intent: "run_action",
      outcome: "not_runnable",
      id: flagged.id,
      status: "pending",
    });
    const requested = await cancelCheckOf(order.orderId);
    expect(requested).toMatchObject({ status: "pending", attempts: 0, requestedBy: "merchant" });
    expect(requested.requestedAt).not.toBeNull();

    await runWorker();
    const done = await cancelCheckOf(order.orderId);
    expect(done).toMatchObject({ status: "done", quantity: 2, amount: "98.0", currency: "EUR" });
    expect(done.detail).toContain(`Plans refunded at the merchant's request on cancelled order`);
    expect(await storeRefunds(order.orderId)).toEqual([
      {
        note: `${CANCEL_NOTE} (order ${order.orderId})`,
        lines: [[order.planLine, 2, "no_restock"]],
      },
    ]);
    // The app's refund came back as refunds/create: a refund of plan lines queues nothing.
    expect((await actionsOf(db, SHOP, order.orderId)).map((row) => row.kind)).toEqual([
      "check_cancelled_plans",
    ]);

    // A click on the done action changes nothing, and the worker refunds nothing more.
    expect(routeData(await click(eventId, flagged.id))).toMatchObject({
      outcome: "not_runnable",
      status: "done",
    });
    await runWorker();
    expect(await storeRefunds(order.orderId)).toHaveLength(1);
    const after = routeData(
      await callRoute(detailLoader, adminRequest(SHOP, `/app/events/${eventId}`), { id: eventId }),
    );
    expect(after.orderActions.find((action) => action.id === flagged.id)).toMatchObject({
      status: "done",
      requestedBy: "merchant",
    });
    expect((await eventsPage("?attention=1")).events).toEqual([]);
    expect(await attentionOnHome()).toBe(0);
  });

  it("retries a dead action at the merchant's request", async () => {
    const order = await placeOrder();
    // The app lost its offline session: the check cannot read the order and stops.
    await db.session.deleteMany({ where: { id: `offline_${SHOP}` } });
    await cancel(order.orderId, true);
    await runWorker();
    const dead = await cancelCheckOf(order.orderId);
    expect(dead).toMatchObject({ status: "dead" });
    expect(dead.lastError).toContain("has no offline session");

    await installInStore(db, SHOP);
    const eventId = await cancelledEventOf(order.orderId);
    expect(routeData(await click(eventId, dead.id))).toMatchObject({ outcome: "requested" });
    expect(await cancelCheckOf(order.orderId)).toMatchObject({
      status: "pending",
      lastError: null,
      firstFailedAt: null,
      completedAt: null,
    });
    await runWorker();
    expect(await cancelCheckOf(order.orderId)).toMatchObject({
      status: "done",
      attempts: 1,
      detail: `The plans' money went back with the cancellation of order ${order.name}`,
    });
  });

  it("answers 404 to another shop's click and leaves the action alone", async () => {
    const order = await placeOrder();
    await cancel(order.orderId, false);
    await runWorker();
    const flagged = await cancelCheckOf(order.orderId);
    expect(flagged.status).toBe("skipped");
    const eventId = await cancelledEventOf(order.orderId);

    const answer = await click(eventId, flagged.id, OTHER_SHOP);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(404);
    expect(await cancelCheckOf(order.orderId)).toMatchObject({
      status: "skipped",
      requestedBy: null,
    });
  });

  it("finds an order's events by its name, with or without #, and its ID", async () => {
    const order = await placeOrder();
    expect(order.name).toMatch(/^#\d+$/);
    const ofOrder = await db.outboxEvent.findMany({
      where: { shop: SHOP, orderId: order.orderId },
      select: { id: true },
      orderBy: { id: "desc" },
    });
    expect(ofOrder.length).toBeGreaterThan(0);
    const expected = ofOrder.map((event) => event.id);
    for (const search of [order.name, order.name.slice(1), order.orderId]) {
      const page = await eventsPage(`?order=${encodeURIComponent(search)}`);
      expect(page.query.invalid).toEqual([]);
      expect(
        page.events.map((event) => event.id),
        search,
      ).toEqual(expected);
    }
    expect((await eventsPage("?order=%23999999")).events).toEqual([]);
  });
});
