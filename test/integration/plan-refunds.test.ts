import { beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import { expectAdminGraphql, refuseAdminMutation } from "../support/admin-graphql";
import { testDatabaseProvider } from "../support/databases";
import {
  advanceStoreClock,
  freezeStoreClock,
  releaseStoreClock,
  storeControl,
  storeGraphqlLog,
  type StoreGraphqlRequest,
} from "../support/local-store";
import {
  actionsOf,
  builtAppWithPlans,
  crashedLeaseRunsOut,
  installShopWithPlan,
  orderInStore,
  placeProtectedOrder,
  planActionWorker,
  refundInStore,
  refundLines,
  runThenCrash,
  type ProtectedProduct,
  type StoreRefund,
} from "../support/plan-actions";

// Plans follow their products (decision 022): when the merchant refunds a protected product in
// the store, the app refunds the same units of its plan line in Shopify, once. First the built
// app as a process against its own local store and the emulator, end to end; then the action
// worker in this process against the file's store, with the faults a real run meets: a crash
// after the refund, a 5xx, a throttle, a refusal, and a refund that comes before its order.

const provider = testDatabaseProvider();
const NOTE = "svc-protection: plan refunded with its product";

/** A refund as the tests compare them: its note, its lines and the money it returned. */
function refundSummary(refund: StoreRefund) {
  return {
    note: refund.note,
    lines: refundLines(refund),
    amounts: refund.transactions.map((transaction) => transaction.amount),
  };
}

const ourNote = (trigger: StoreRefund) => `${NOTE} (refund ${String(trigger.id)})`;

describe(`plans follow their products: the built app against the local store (${provider})`, () => {
  const SHOP = `plans-${provider}.myshopify.com`;
  const store = builtAppWithPlans(SHOP);
  const { variants, control, placeOrder } = store;

  /** The merchant refunds in the store's admin; the body is the refunds/create webhook's. */
  async function merchantRefund(orderId: string, lines: [string, number, string][]) {
    const answer = await control(`shops/${SHOP}/orders/${orderId}/refunds`, {
      refund_line_items: lines.map(([id, quantity, restockType]) => ({
        line_item_id: id,
        quantity,
        restock_type: restockType,
      })),
    });
    return { refund: answer.body as unknown as StoreRefund, webhookBody: answer.text };
  }

  /** The order's actions once settled, its refunds in the store and the service's events. */
  async function settle(orderId: string, actions: number, events: number) {
    const settled = await store.settleActions(orderId, actions, events);
    const order = await store.storeOrder(orderId);
    return {
      rows: settled.rows,
      refunds: order.refunds.map(refundSummary),
      types: settled.events.map((event) => event.type),
    };
  }

  it("refunds the unshipped plan of part of a refunded product, cancelled, once", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 2 },
      { variant: variants.twoYears, quantity: 2, protects: variants.laptop },
    ]);
    const [laptopLine, planLine] = order.lineIds as [string, string];
    const { refund } = await merchantRefund(order.id, [[laptopLine, 1, "cancel"]]);

    const { rows, refunds, types } = await settle(order.id, 1, 3);
    expect(rows).toMatchObject([
      {
        status: "done",
        triggerId: String(refund.id),
        planLineId: planLine,
        quantity: 1,
        amount: "49.0",
        currency: "EUR",
        attempts: 1,
      },
    ]);
    expect(refunds).toEqual([
      { note: null, lines: [[laptopLine, 1, "cancel"]], amounts: ["999.00"] },
      { note: ourNote(refund), lines: [[planLine, 1, "cancel"]], amounts: ["49.00"] },
    ]);
    const inStore = await store.storeOrder(order.id);
    expect(inStore.refunds.map((candidate) => String(candidate.id))).toContain(rows[0]!.refundId);
    expect(types).toEqual([
      "order_placed",
      "order_line_items_cancelled",
      "order_line_items_cancelled",
    ]);
  });

  it("refunds a fulfilled plan of a wholly returned product without restock", async () => {
    const order = await placeOrder([
      { variant: variants.camera, quantity: 1 },
      { variant: variants.threeYears, quantity: 1, protects: variants.camera },
    ]);
    const [cameraLine, planLine] = order.lineIds as [string, string];
    await control(`shops/${SHOP}/orders/${order.id}/fulfillments`, {
      line_items: [
        { id: cameraLine, quantity: 1 },
        { id: planLine, quantity: 1 },
      ],
    });
    const { refund } = await merchantRefund(order.id, [[cameraLine, 1, "return"]]);

    const { rows, refunds, types } = await settle(order.id, 1, 4);
    expect(rows).toMatchObject([{ status: "done", planLineId: planLine, quantity: 1 }]);
    expect(refunds).toEqual([
      { note: null, lines: [[cameraLine, 1, "return"]], amounts: ["499.00"] },
      { note: ourNote(refund), lines: [[planLine, 1, "no_restock"]], amounts: ["79.00"] },
    ]);
    // The service hears each refund once: the merchant's and the app's, through its webhook.
    // The fulfilment's and the merchant's refund's webhooks leave the store at once, and either
    // may be recorded first: only order_placed's place is promised.
    expect(types[0]).toBe("order_placed");
    expect(types.slice(1).sort()).toEqual([
      "order_fulfillment_added",
      "order_refund_added",
      "order_refund_added",
    ]);
  });

  it("splits one product's refunds over its plan lines in line order, and keeps products apart", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 2 },
      { variant: variants.twoYears, quantity: 1, protects: variants.laptop },
      { variant: variants.threeYears, quantity: 1, protects: variants.laptop },
      { variant: variants.camera, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.camera },
    ]);
    const [laptopLine, laptopTwoYears, laptopThreeYears, cameraLine, cameraTwoYears] =
      order.lineIds as [string, string, string, string, string];

    const first = await merchantRefund(order.id, [[laptopLine, 1, "cancel"]]);
    // Each of the laptop's plan lines has a row; the first in line order takes the unit.
    const afterFirst = await settle(order.id, 2, 3);
    expect(afterFirst.rows.map((row) => [row.planLineId, row.status, row.quantity])).toEqual([
      [laptopTwoYears, "done", 1],
      [laptopThreeYears, "done", null],
    ]);
    expect(afterFirst.rows[1]!.detail).toContain("taken by earlier plan lines");

    const camera = await merchantRefund(order.id, [[cameraLine, 1, "cancel"]]);
    await settle(order.id, 3, 5);
    const second = await merchantRefund(order.id, [[laptopLine, 1, "cancel"]]);
    const { rows, refunds } = await settle(order.id, 5, 7);
    expect(rows.map((row) => [row.triggerId, row.planLineId, row.quantity])).toEqual([
      [String(first.refund.id), laptopTwoYears, 1],
      [String(first.refund.id), laptopThreeYears, null],
      [String(camera.refund.id), cameraTwoYears, 1],
      [String(second.refund.id), laptopTwoYears, null],
      [String(second.refund.id), laptopThreeYears, 1],
    ]);
    expect(refunds.filter((refund) => refund.note !== null)).toEqual([
      { note: ourNote(first.refund), lines: [[laptopTwoYears, 1, "cancel"]], amounts: ["49.00"] },
      { note: ourNote(camera.refund), lines: [[cameraTwoYears, 1, "cancel"]], amounts: ["49.00"] },
      {
        note: ourNote(second.refund),
        lines: [[laptopThreeYears, 1, "cancel"]],
        amounts: ["79.00"],
      },
    ]);
  });

  it("adds nothing for a redelivered refunds/create or for the app's own refund", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.laptop },
    ]);
    const [laptopLine] = order.lineIds as [string, string];
    const { refund, webhookBody } = await merchantRefund(order.id, [[laptopLine, 1, "cancel"]]);
    const settled = await settle(order.id, 1, 3);

    // The app's own refund came back as refunds/create: reported, and it triggered nothing.
    const deliveries = await store.webhookDeliveries();
    const refundDeliveries = deliveries.filter(
      (delivery) => delivery.topic === "refunds/create" && delivery.status === 200,
    );
    const ourRefundId = settled.rows[0]!.refundId!;
    expect(refundDeliveries.map((delivery) => delivery.subject)).toEqual(
      expect.arrayContaining([
        `gid://shopify/Refund/${String(refund.id)}`,
        `gid://shopify/Refund/${ourRefundId}`,
      ]),
    );

    // The merchant's refund again: as Shopify retries it (same IDs), and as a replay (new IDs).
    const original = refundDeliveries.find(
      (delivery) => delivery.subject === `gid://shopify/Refund/${String(refund.id)}`,
    )!;
    await store.redeliver("refunds/create", webhookBody, original);
    // Give a worker the time it would need to act on anything new.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const again = await settle(order.id, 1, 3);
    expect(again.rows).toEqual(settled.rows);
    expect(again.refunds).toEqual(settled.refunds);
    expect(again.refunds).toHaveLength(2);
    const receipts = await store.db.webhookReceipt.findMany({
      where: { shop: SHOP, orderId: order.id, topic: "refunds/create" },
      orderBy: { receivedAt: "asc" },
    });
    expect(receipts.map((receipt) => receipt.status)).toEqual([
      "processed",
      "processed",
      "ignored",
    ]);
  });

  it("leaves the plan alone, recorded as skipped, when the merchant turned it off", async () => {
    await store.db.shopConnection.update({
      where: { shop: SHOP },
      data: { autoRefundPlans: false },
    });
    try {
      const order = await placeOrder([
        { variant: variants.camera, quantity: 1 },
        { variant: variants.twoYears, quantity: 1, protects: variants.camera },
      ]);
      const [cameraLine, planLine] = order.lineIds as [string, string];
      const { refund } = await merchantRefund(order.id, [[cameraLine, 1, "cancel"]]);
      const { rows, refunds, types } = await settle(order.id, 1, 2);
      expect(rows).toMatchObject([
        {
          status: "skipped",
          triggerId: String(refund.id),
          planLineId: planLine,
          attempts: 0,
          refundId: null,
        },
      ]);
      expect(rows[0]!.detail).toContain("off in the app's settings");
      expect(refunds).toEqual([
        { note: null, lines: [[cameraLine, 1, "cancel"]], amounts: ["499.00"] },
      ]);
      expect(types).toEqual(["order_placed", "order_line_items_cancelled"]);
    } finally {
      await store.db.shopConnection.update({
        where: { shop: SHOP },
        data: { autoRefundPlans: true },
      });
    }
  });

  it("sent Shopify only requests its schema accepts, and answered every webhook 200", async () => {
    const requests = await store.graphqlRequests();
    expect(requests.flatMap((request) => request.validation_errors)).toEqual([]);
    const refundKeys = requests
      .filter((request) => request.operation_name === "RefundPlanLine")
      .map((request) => request.idempotency_key);
    // One refundCreate per plan refund made above, each with a key of its own.
    expect(refundKeys).toHaveLength(6);
    expect(new Set(refundKeys).size).toBe(6);
    const deliveries = await store.webhookDeliveries();
    expect(deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
  });
});

describe(`the plan action worker (${provider})`, () => {
  const SHOP = `plan-worker-${provider}.myshopify.com`;
  let db: AppPrismaClient;
  let sold: ProtectedProduct;

  /** A worker of this process, at `now` when a test moves time on. */
  const worker = (options: { now?: () => Date } = {}) => planActionWorker(db, options);

  /** An order of one product with its plan, and the merchant's refund of the product. */
  async function refundedOrder() {
    const { orderId, productLine, planLine } = await placeProtectedOrder(SHOP, sold, 1);
    const trigger = await refundInStore(SHOP, orderId, productLine, 1);
    return { orderId, planLine, trigger };
  }

  async function ourRefunds(orderId: string) {
    const order = await orderInStore(SHOP, orderId);
    return order.refunds.filter((refund) => refund.note?.startsWith(NOTE)).map(refundSummary);
  }

  /** The app's refundCreate requests in the store's log, with their idempotency keys. */
  async function refundKeys() {
    const log = (await storeGraphqlLog()) as (StoreGraphqlRequest & {
      idempotency_key: string | null;
    })[];
    return log
      .filter((request) => request.operation_name === "RefundPlanLine")
      .map((request) => request.idempotency_key);
  }

  beforeAll(async () => {
    db = (await import("../../app/db.server")).default;
    sold = await installShopWithPlan(db, SHOP);
  });

  it("finds its refund after a crash between refundCreate and recording it, and refunds once", async () => {
    const { orderId, planLine, trigger } = await refundedOrder();
    const [queued] = await actionsOf(db, SHOP, orderId);
    expect(queued).toMatchObject({ status: "pending", planLineId: planLine, attempts: 0 });

    // A worker claims the action, sends the refund, and dies before recording what came of it.
    const { runPlanRefund, planRefundIdempotencyKey } =
      await import("../../app/plan-actions/refund-plan-line.server");
    const { outcome: sent, graphql } = await runThenCrash(db, queued!, runPlanRefund);
    expect(sent).toMatchObject({ kind: "done", result: { quantity: 1 } });
    const madeRefundId = sent.kind === "done" ? sent.result?.refundId : undefined;
    const orphan = (await actionsOf(db, SHOP, orderId))[0]!;
    expect(orphan).toMatchObject({ status: "running", claimedBy: "crashed-worker" });
    expect(JSON.parse(orphan.request!)).toMatchObject({ note: ourNote(trigger), notify: false });

    // Shopify keeps the key: the crashed worker's request sent again is answered with the first
    // refund, and refunds nothing.
    const { REFUND_PLAN_LINE_MUTATION } = await import("../../app/graphql/RefundPlanLine");
    const key = planRefundIdempotencyKey(SHOP, String(trigger.id), planLine);
    const replay = await graphql(REFUND_PLAN_LINE_MUTATION, {
      variables: { input: JSON.parse(orphan.request!), idempotencyKey: key },
    });
    const replayed = (await replay.json()) as {
      data: { refundCreate: { refund: { id: string } } };
    };
    expect(replayed.data.refundCreate.refund.id).toBe(`gid://shopify/Refund/${madeRefundId}`);

    // Once the lease has run out, another worker takes the action and finds the refund done.
    await crashedLeaseRunsOut();
    expect(await (await worker()).drain()).toBe(1);
    const [recovered] = await actionsOf(db, SHOP, orderId);
    expect(recovered).toMatchObject({
      status: "done",
      refundId: madeRefundId,
      quantity: 1,
      amount: "29.0",
      attempts: 1,
    });
    expect(await ourRefunds(orderId)).toEqual([
      { note: ourNote(trigger), lines: [[planLine, 1, "cancel"]], amounts: ["29.00"] },
    ]);
    expect((await refundKeys()).filter((sentKey) => sentKey === key)).toHaveLength(2);
  });

  it("retries a refund Shopify answered with a 5xx, and refunds once", async () => {
    const { orderId, planLine } = await refundedOrder();
    expectAdminGraphql("RefundPlanLine", { errors: "Internal Server Error" }, { status: 503 });
    expect(await (await worker()).drain()).toBe(1);
    const [failed] = await actionsOf(db, SHOP, orderId);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed!.lastError).toContain("HTTP 503");
    expect(failed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(await ourRefunds(orderId)).toEqual([]);

    const later = new Date(failed!.nextAttemptAt.getTime() + 1_000);
    expect(await (await worker({ now: () => later })).drain()).toBe(1);
    expect((await actionsOf(db, SHOP, orderId))[0]).toMatchObject({ status: "done", attempts: 2 });
    expect((await ourRefunds(orderId)).map((refund) => refund.lines)).toEqual([
      [[planLine, 1, "cancel"]],
    ]);
  });

  it("waits for the shop's bucket when Shopify throttles, then refunds", async () => {
    const { orderId } = await refundedOrder();
    freezeStoreClock();
    try {
      expect((await storeControl(`shops/${SHOP}/throttle`, { available: 0 })).status).toBe(200);
      const before = Date.now();
      await (await worker()).drain();
      const [throttled] = await actionsOf(db, SHOP, orderId);
      expect(throttled).toMatchObject({ status: "pending", firstFailedAt: null, attempts: 0 });
      expect(throttled!.lastError).toBe("OrderForPlanRefund was throttled by Shopify");
      // The read's cost at the standard plan's 100 points a second: seconds, not the backoff's 1 s.
      const waitMs = throttled!.nextAttemptAt.getTime() - before;
      expect(waitMs).toBeGreaterThan(1_000);
      expect(waitMs).toBeLessThan(15_000);
      advanceStoreClock(waitMs);
    } finally {
      releaseStoreClock();
    }
    const [waiting] = await actionsOf(db, SHOP, orderId);
    const later = new Date(waiting!.nextAttemptAt.getTime() + 1);
    expect(await (await worker({ now: () => later })).drain()).toBe(1);
    expect((await actionsOf(db, SHOP, orderId))[0]).toMatchObject({ status: "done", quantity: 1 });
    expect(await ourRefunds(orderId)).toHaveLength(1);
    // The bucket full again for the tests after this one: 20 s of the store's time.
    freezeStoreClock();
    advanceStoreClock(20_000);
    releaseStoreClock();
  });

  it("ends an action Shopify refuses after a fresh read too, with Shopify's reason", async () => {
    const { orderId } = await refundedOrder();
    // A refusal the store cannot be led into here (the plan refunded between the read and the
    // refund); its shape is refundCreate's user errors. The worker runs a refused action once
    // more from a fresh read, and Shopify refuses it again.
    refuseAdminMutation(
      "RefundPlanLine",
      { mutation: "refundCreate", result: "refund" },
      [
        {
          field: ["refundLineItems", "0", "quantity"],
          message: "Quantity cannot refund more items than were purchased",
        },
      ],
      2,
    );
    expect(await (await worker()).drain()).toBe(1);
    const [dead] = await actionsOf(db, SHOP, orderId);
    expect(dead).toMatchObject({ status: "dead", refundId: null });
    expect(dead!.lastError).toContain(
      "Quantity cannot refund more items than were purchased (refundLineItems.0.quantity)",
    );
    expect(await ourRefunds(orderId)).toEqual([]);
  });

  it("finds the plan lines when the refund came before the app recorded its order", async () => {
    // The order's orders/create is lost: the app knows the refund, not the order's lines.
    expect((await storeControl("webhooks/drop", { count: 1, topic: "orders/create" })).status).toBe(
      200,
    );
    const { orderId, planLine, trigger } = await refundedOrder();
    expect(await actionsOf(db, SHOP, orderId)).toMatchObject([
      { status: "pending", planLineId: "" },
    ]);

    expect(await (await worker()).drain()).toBe(2);
    const actions = await actionsOf(db, SHOP, orderId);
    expect(actions.map((action) => [action.planLineId, action.status])).toEqual([
      ["", "done"],
      [planLine, "done"],
    ]);
    expect(actions[0]!.detail).toContain("1 plan refund(s) queued");
    expect(await ourRefunds(orderId)).toEqual([
      { note: ourNote(trigger), lines: [[planLine, 1, "cancel"]], amounts: ["29.00"] },
    ]);
  });
});
