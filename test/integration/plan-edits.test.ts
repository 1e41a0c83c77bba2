import { beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { ShopifyAction } from "../../app/generated/prisma/sqlite/client";
import { refuseAdminMutation } from "../support/admin-graphql";
import { testDatabaseProvider } from "../support/databases";
import { storeControl, storeWebhooksIdle } from "../support/local-store";
import {
  actionsOf,
  builtAppWithPlans,
  crashedLeaseRunsOut,
  installShopWithPlan,
  operationCount,
  orderInStore,
  placeProtectedOrder,
  planActionWorker,
  refundInStore,
  runThenCrash,
  type ProtectedProduct,
  type StoreEdit,
} from "../support/plan-actions";

// Plans follow their products through order edits (decision 026): when the merchant edits a
// protected product down in the store, the app lowers its plan lines with an edit of its own,
// then refunds what the paid order owes the customer for them, once. First the built app as a
// process against its own local store and the emulator; then the action worker in this process,
// with crashes after the app's edit was committed.

const provider = testDatabaseProvider();
const NOTE = "svc-protection: plan reduced with its product";

const ourNote = (editId: string) => `${NOTE} (edit ${editId})`;

describe(`plans follow their products through edits: the built app (${provider})`, () => {
  const SHOP = `plan-edits-${provider}.myshopify.com`;
  const store = builtAppWithPlans(SHOP);
  const { variants, control, placeOrder } = store;

  /** The merchant edits quantities in the store's admin; the body is the orders/edited webhook's. */
  async function merchantEdit(orderId: string, quantities: [string, number][]) {
    const answer = await control(`shops/${SHOP}/orders/${orderId}/edits`, {
      set_quantities: quantities.map(([id, quantity]) => ({ line_item_id: id, quantity })),
    });
    const edit = answer.body as unknown as StoreEdit;
    return { editId: String(edit.order_edit.id), webhookBody: answer.text };
  }

  /** The order's actions once settled, the order in the store and the service's events. */
  async function settle(orderId: string, actions: number, events: number) {
    const { rows, events: received } = await store.settleActions(orderId, actions, events);
    const order = await store.storeOrder(orderId);
    return {
      rows,
      types: received.map((event) => event.type),
      quantities: order.line_items.map((line) => line.current_quantity),
      refunds: order.refunds.map((refund) => ({
        note: refund.note,
        lines: refund.refund_line_items.length,
        amounts: refund.transactions.map((transaction) => transaction.amount),
      })),
      edits: order.edits.map((edit) => edit.order_edit),
    };
  }

  it("removes the plan of a removed product and refunds its value once", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.laptop },
    ]);
    const [laptopLine] = order.lineIds as [string, string];
    const { editId } = await merchantEdit(order.id, [[laptopLine, 0]]);

    const settled = await settle(order.id, 1, 3);
    expect(settled.rows).toMatchObject([
      {
        kind: "edit_plan_line",
        status: "done",
        triggerId: editId,
        planLineId: "",
        quantity: 1,
        amount: "49.0",
        currency: "EUR",
        attempts: 1,
      },
    ]);
    expect(settled.rows[0]!.detail).toBe(
      `Plan reduced with its product on order ${order.name}: 1 → 0 unit(s); 49.0 EUR refunded, refund ${settled.rows[0]!.refundId}`,
    );
    expect(settled.quantities).toEqual([0, 0]);
    // The app's edit: its staff note marks it, and the customer is not told.
    expect(settled.edits.at(-1)).toMatchObject({
      staff_note: ourNote(editId),
      notify_customer: false,
    });
    // The merchant's edit left the laptop's 999.00 owed: the app refunds the plan's 49.00 only.
    expect(settled.refunds).toEqual([{ note: ourNote(editId), lines: 0, amounts: ["49.00"] }]);
    // The service hears each edit's removal once; the app's refund of money alone has no line.
    expect(settled.types).toEqual([
      "order_placed",
      "order_line_items_cancelled",
      "order_line_items_cancelled",
    ]);
    const receipts = await store.db.webhookReceipt.findMany({
      where: { shop: SHOP, orderId: order.id, topic: "refunds/create" },
    });
    expect(receipts.map((receipt) => receipt.status)).toEqual(["ignored"]);
  });

  it("reduces a plan of 3 to the 1 laptop an edit left", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 3 },
      { variant: variants.twoYears, quantity: 3, protects: variants.laptop },
    ]);
    const [laptopLine] = order.lineIds as [string, string];
    await merchantEdit(order.id, [[laptopLine, 1]]);

    const settled = await settle(order.id, 1, 3);
    expect(settled.rows).toMatchObject([{ status: "done", quantity: 2, amount: "98.0" }]);
    expect(settled.rows[0]!.detail).toContain(`on order ${order.name}: 3 → 1 unit(s)`);
    expect(settled.quantities).toEqual([1, 1]);
    expect(settled.refunds.map((refund) => refund.amounts)).toEqual([["98.00"]]);
  });

  it("shares the laptops left over its plan lines in line order, and leaves the camera's alone", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 2 },
      { variant: variants.twoYears, quantity: 1, protects: variants.laptop },
      { variant: variants.threeYears, quantity: 1, protects: variants.laptop },
      { variant: variants.camera, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.camera },
    ]);
    const [laptopLine] = order.lineIds as [string, ...string[]];
    await merchantEdit(order.id, [[laptopLine, 1]]);

    const settled = await settle(order.id, 1, 3);
    expect(settled.rows).toMatchObject([{ status: "done", quantity: 1, amount: "79.0" }]);
    expect(settled.quantities).toEqual([1, 1, 0, 1, 1]);
  });

  it("adds nothing for a redelivered orders/edited", async () => {
    const order = await placeOrder([
      { variant: variants.camera, quantity: 2 },
      { variant: variants.twoYears, quantity: 2, protects: variants.camera },
    ]);
    const [cameraLine] = order.lineIds as [string, string];
    const { editId, webhookBody } = await merchantEdit(order.id, [[cameraLine, 1]]);
    const settled = await settle(order.id, 1, 3);
    expect(settled.quantities).toEqual([1, 1]);

    const deliveries = await store.webhookDeliveries();
    const merchants = deliveries.find(
      (delivery) =>
        delivery.topic === "orders/edited" &&
        delivery.subject === `gid://shopify/CalculatedOrder/${editId}` &&
        delivery.status === 200,
    );
    expect(merchants).toBeDefined();
    await store.redeliver("orders/edited", webhookBody, merchants!);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const again = await settle(order.id, 1, 3);
    expect(again.rows).toEqual(settled.rows);
    expect(again.quantities).toEqual([1, 1]);
    expect(again.refunds).toEqual(settled.refunds);
  });

  it("leaves the plan alone, recorded as skipped, when the merchant turned it off", async () => {
    await store.db.shopConnection.update({ where: { shop: SHOP }, data: { autoEditPlans: false } });
    try {
      const order = await placeOrder([
        { variant: variants.camera, quantity: 1 },
        { variant: variants.twoYears, quantity: 1, protects: variants.camera },
      ]);
      const [cameraLine] = order.lineIds as [string, string];
      const { editId } = await merchantEdit(order.id, [[cameraLine, 0]]);
      const settled = await settle(order.id, 1, 2);
      expect(settled.rows).toMatchObject([
        { status: "skipped", triggerId: editId, attempts: 0, refundId: null },
      ]);
      expect(settled.rows[0]!.detail).toContain("off in the app's settings");
      expect(settled.quantities).toEqual([0, 1]);
      expect(settled.refunds).toEqual([]);
      expect(settled.edits).toHaveLength(1);
    } finally {
      await store.db.shopConnection.update({
        where: { shop: SHOP },
        data: { autoEditPlans: true },
      });
    }
  });

  it("flags a fulfilled plan for the merchant to refund, and edits nothing", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 1 },
      { variant: variants.threeYears, quantity: 1, protects: variants.laptop },
    ]);
    const [laptopLine, planLine] = order.lineIds as [string, string];
    await control(`shops/${SHOP}/orders/${order.id}/fulfillments`, {
      line_items: [{ id: planLine, quantity: 1 }],
    });
    await merchantEdit(order.id, [[laptopLine, 0]]);

    const settled = await settle(order.id, 1, 3);
    expect(settled.rows).toMatchObject([{ status: "skipped", refundId: null }]);
    expect(settled.rows[0]!.detail).toBe(
      `1 unit(s) of plan line ${planLine} on order ${order.name} are fulfilled and cannot be removed by an edit: refund them from the order instead`,
    );
    expect(settled.quantities).toEqual([0, 1]);
    expect(settled.refunds).toEqual([]);
    expect(settled.edits).toHaveLength(1);
  });

  it("removes the plan of a laptop edited away after a shipped laptop and its plan were refunded", async () => {
    // Two laptops with two plans; one laptop and one plan unit shipped. The merchant refunds the
    // shipped laptop, without restock: the app's plan refund takes the shipped plan unit (decision
    // 022), so when an edit then removes the unshipped laptop, its plan unit can go too.
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 2 },
      { variant: variants.twoYears, quantity: 2, protects: variants.laptop },
    ]);
    const [laptopLine, planLine] = order.lineIds as [string, string];
    for (const line of [laptopLine, planLine]) {
      await control(`shops/${SHOP}/orders/${order.id}/fulfillments`, {
        line_items: [{ id: line, quantity: 1 }],
      });
    }
    await control(`shops/${SHOP}/orders/${order.id}/refunds`, {
      refund_line_items: [{ line_item_id: laptopLine, quantity: 1, restock_type: "no_restock" }],
    });
    // The laptop's fulfilment queues a plan fulfilment too, skipped: that automation is off.
    const refunded = await store.settleActions(order.id, 2, 5);
    expect(refunded.rows.find((row) => row.kind === "refund_plan_line")).toMatchObject({
      status: "done",
      quantity: 1,
    });
    const planRefund = (await store.storeOrder(order.id)).refunds.at(-1)!;
    expect(planRefund.refund_line_items.map((line) => line.restock_type)).toEqual(["no_restock"]);

    const { editId } = await merchantEdit(order.id, [[laptopLine, 1]]);
    const settled = await settle(order.id, 3, 7);
    const edit = settled.rows.find((row) => row.kind === "edit_plan_line");
    expect(edit).toMatchObject({ status: "done", triggerId: editId, quantity: 1 });
    expect(edit!.detail).toContain(`on order ${order.name}: 2 → 1 unit(s)`);
    // Each line holds one shipped unit: the laptop kept, and its plan.
    expect(settled.quantities).toEqual([1, 1]);
  });

  it("leaves a plan alone when an edit adds to its product, and never raises it", async () => {
    const order = await placeOrder([
      { variant: variants.camera, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.camera },
    ]);
    const [cameraLine] = order.lineIds as [string, string];
    await merchantEdit(order.id, [[cameraLine, 2]]);
    await control("webhooks/idle?timeout_ms=20000");
    expect(await store.db.shopifyAction.count({ where: { shop: SHOP, orderId: order.id } })).toBe(
      0,
    );

    // Taking the added camera away again leaves one camera for the one plan: nothing to do.
    await merchantEdit(order.id, [[cameraLine, 1]]);
    const settled = await settle(order.id, 1, 2);
    expect(settled.rows).toMatchObject([{ status: "done", quantity: null, refundId: null }]);
    expect(settled.rows[0]!.detail).toContain("Nothing to reduce");
    expect(settled.quantities).toEqual([1, 1]);
    expect(settled.refunds).toEqual([]);
  });

  it("sent Shopify only requests its schema accepts, and answered every webhook 200", async () => {
    const requests = await store.graphqlRequests();
    expect(requests.flatMap((request) => request.validation_errors)).toEqual([]);
    const commits = requests.filter((request) => request.operation_name === "CommitPlanEdit");
    // One edit of the app's per order it lowered above: no edit twice, none where nothing was due.
    expect(commits).toHaveLength(5);
    const deliveries = await store.webhookDeliveries();
    expect(deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
  });
});

describe(`the plan edit worker after a crash (${provider})`, () => {
  const SHOP = `plan-edit-worker-${provider}.myshopify.com`;
  let db: AppPrismaClient;
  let sold: ProtectedProduct;

  /** An order of two headphones with two plans, and the merchant's edit down to one. */
  async function editedOrder() {
    const { orderId, productLine, planLine } = await placeProtectedOrder(SHOP, sold, 2);
    const edited = await storeControl<StoreEdit>(`shops/${SHOP}/orders/${orderId}/edits`, {
      set_quantities: [{ line_item_id: productLine, quantity: 1 }],
    });
    expect(edited.status).toBe(200);
    await storeWebhooksIdle();
    return { orderId, planLine, editId: String(edited.body.order_edit.id) };
  }

  /** Runs the action as a worker that dies when it is about to send `dieBefore`, or after all. */
  async function crashingRun(row: ShopifyAction, dieBefore: string | null) {
    const { runPlanEdit } = await import("../../app/plan-actions/edit-plan-lines.server");
    const { outcome } = await runThenCrash(
      db,
      row,
      runPlanEdit,
      (request) =>
        dieBefore !== null && (JSON.parse(request) as { mutation: string }).mutation === dieBefore,
    );
    await crashedLeaseRunsOut();
    return outcome;
  }

  beforeAll(async () => {
    db = (await import("../../app/db.server")).default;
    sold = await installShopWithPlan(db, SHOP);
  });

  it("finds the edit and the refund made after a crash that recorded neither, and does nothing", async () => {
    const { orderId, editId } = await editedOrder();
    const [queued] = await actionsOf(db, SHOP, orderId);
    expect(queued).toMatchObject({ status: "pending", kind: "edit_plan_line", triggerId: editId });
    const commitsBefore = await operationCount("CommitPlanEdit");

    expect(await crashingRun(queued!, null)).toMatchObject({ kind: "done" });
    const orphan = (await actionsOf(db, SHOP, orderId))[0]!;
    expect(orphan).toMatchObject({ status: "running", claimedBy: "crashed-worker" });

    expect(await (await planActionWorker(db)).drain()).toBe(1);
    const [recovered] = await actionsOf(db, SHOP, orderId);
    expect(recovered).toMatchObject({ status: "done", quantity: 1, amount: "29.0" });
    expect(recovered!.detail).toContain("2 → 1 unit(s)");
    const order = await orderInStore(SHOP, orderId);
    expect(order.line_items.map((line) => line.current_quantity)).toEqual([1, 1]);
    expect(order.refunds.map((refund) => [refund.note, refund.transactions[0]?.amount])).toEqual([
      [ourNote(editId), "29.00"],
    ]);
    expect((await operationCount("CommitPlanEdit")) - commitsBefore).toBe(1);
  });

  it("refunds once after a crash between the committed edit and its refund", async () => {
    const { orderId, editId } = await editedOrder();
    const [queued] = await actionsOf(db, SHOP, orderId);
    const commitsBefore = await operationCount("CommitPlanEdit");

    // The edit is committed; the worker dies before it sends the refund.
    expect(await crashingRun(queued!, "refundCreate")).toEqual({ kind: "lost_claim" });
    expect((await orderInStore(SHOP, orderId)).refunds).toEqual([]);
    const orphan = (await actionsOf(db, SHOP, orderId))[0]!;
    expect(JSON.parse(orphan.request!)).toMatchObject({
      mutation: "orderEditCommit",
      planEdit: { removedValue: 2900 },
    });

    // The next run reads the lowered order: no edit again, and the refund the edit left owed.
    expect(await (await planActionWorker(db)).drain()).toBe(1);
    const [recovered] = await actionsOf(db, SHOP, orderId);
    expect(recovered).toMatchObject({ status: "done", quantity: 1, amount: "29.0" });
    const order = await orderInStore(SHOP, orderId);
    expect(order.line_items.map((line) => line.current_quantity)).toEqual([1, 1]);
    expect(order.refunds.map((refund) => [refund.note, refund.transactions[0]?.amount])).toEqual([
      [ourNote(editId), "29.00"],
    ]);
    expect((await operationCount("CommitPlanEdit")) - commitsBefore).toBe(1);
  });

  it("ends as done, editing nothing, when the merchant cancels the order while the app edits it", async () => {
    const { orderId, editId } = await editedOrder();
    const { offlineAdminFor } = await import("../../app/workers.server");
    const commitsBefore = await operationCount("CommitPlanEdit");
    // The merchant cancels the order between the app's read and its commit: Shopify refuses the
    // commit, and the worker reads the order again.
    const cancellingAdmin = async (shop: string) => {
      const graphql = await offlineAdminFor(shop);
      if (!graphql) return null;
      return async (query: string, options?: { variables?: Record<string, unknown> }) => {
        if (query.includes("mutation CommitPlanEdit")) {
          const cancelled = await storeControl(`shops/${SHOP}/orders/${orderId}/cancel`, {
            reason: "customer",
            refund: false,
            restock: true,
          });
          expect(cancelled.status).toBe(200);
        }
        return graphql(query, options);
      };
    };

    // The cancellation's webhook queues the app's check of the order's plans, during the run or
    // after it: it is run here too, so that no action of this order is left for the next test.
    expect(
      await (await planActionWorker(db, { adminFor: cancellingAdmin })).drain(),
    ).toBeGreaterThan(0);
    await storeWebhooksIdle();
    await (await planActionWorker(db)).drain();
    expect((await actionsOf(db, SHOP, orderId)).map((row) => row.kind).sort()).toEqual([
      "check_cancelled_plans",
      "edit_plan_line",
    ]);
    const settled = (await actionsOf(db, SHOP, orderId)).find(
      (row) => row.kind === "edit_plan_line",
    );
    expect(settled).toMatchObject({ status: "done", lastError: null });
    expect(settled!.detail).toMatch(/^Not reduced: order #\d+ is cancelled/);
    // The order's only committed edit is the merchant's; the app's begun edit was abandoned.
    const order = await orderInStore(SHOP, orderId);
    expect(order.edits.map((edit) => String(edit.order_edit.id))).toEqual([editId]);
    expect(order.refunds).toEqual([]);
    expect((await operationCount("CommitPlanEdit")) - commitsBefore).toBe(1);
  });

  it("refunds nothing on the merchant's retry of an edit whose commit Shopify refused", async () => {
    const { orderId, planLine } = await editedOrder();
    // Refused on the first run and on the run after the fresh read.
    refuseAdminMutation(
      "CommitPlanEdit",
      { mutation: "orderEditCommit", result: "order" },
      [{ field: ["id"], message: "The order edit session has expired" }],
      2,
    );
    expect(await (await planActionWorker(db)).drain()).toBe(1);
    const [dead] = await actionsOf(db, SHOP, orderId);
    expect(dead).toMatchObject({ status: "dead" });
    expect(dead!.lastError).toContain("The order edit session has expired");
    expect(JSON.parse(dead!.request!)).toMatchObject({
      mutation: "orderEditCommit",
      refused: true,
    });

    // The merchant cancels the plan unit by hand, then retries the action from the admin: the
    // edit it recorded was never committed, so there is nothing left to reduce or refund.
    await refundInStore(SHOP, orderId, planLine, 1);
    const refundsBefore = (await orderInStore(SHOP, orderId)).refunds.length;
    const { requestActionRun } = await import("../../app/models/ShopifyAction.server");
    expect(await requestActionRun(db, SHOP, dead!.id)).toEqual({
      status: "requested",
      from: "dead",
    });
    await (await planActionWorker(db)).drain();
    const retried = (await actionsOf(db, SHOP, orderId)).find((row) => row.id === dead!.id);
    expect(retried).toMatchObject({ status: "done", refundId: null });
    expect(retried!.detail).toMatch(/^Nothing to reduce on order/);
    expect((await orderInStore(SHOP, orderId)).refunds).toHaveLength(refundsBefore);
  });

  it("still refunds the committed edit's value when Shopify refused its refund once", async () => {
    const { orderId, editId } = await editedOrder();
    const commitsBefore = await operationCount("CommitPlanEdit");
    refuseAdminMutation("RefundPlanLine", { mutation: "refundCreate", result: "refund" }, [
      { field: ["transactions"], message: "The payment gateway is busy" },
    ]);
    expect(await (await planActionWorker(db)).drain()).toBe(1);
    // The run after the refusal reads what the refused run recorded: the edit it committed.
    const [settled] = await actionsOf(db, SHOP, orderId);
    expect(settled).toMatchObject({ status: "done", quantity: 1, amount: "29.0" });
    const order = await orderInStore(SHOP, orderId);
    expect(order.refunds.map((refund) => [refund.note, refund.transactions[0]?.amount])).toEqual([
      [ourNote(editId), "29.00"],
    ]);
    expect((await operationCount("CommitPlanEdit")) - commitsBefore).toBe(1);
  });
});
