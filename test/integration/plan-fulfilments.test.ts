import { beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import { testDatabaseProvider } from "../support/databases";
import { storeControl, storeWebhooksIdle } from "../support/local-store";
import {
  actionsOf,
  builtAppWithPlans,
  crashedLeaseRunsOut,
  fulfilInStore,
  installShopWithPlan,
  operationCount,
  orderInStore,
  placeProtectedOrder,
  planActionWorker,
  runThenCrash,
  type ProtectedProduct,
  type StoreFulfillment,
  type StoreOrder,
} from "../support/plan-actions";

// Plans follow their products (decision 025): with "fulfil plans with their products" on, when
// the merchant fulfils a protected product in the store, the app fulfils the same units of its
// plan line, on the plan's own fulfilment order, without notifying the customer, once. First the
// built app as a process against its own local store and the emulator, end to end; then the
// action worker in this process against the file's store, for a crash after the fulfilment.

const provider = testDatabaseProvider();
const OFF = "Not fulfilled: fulfilling plans with their products is off in the app's settings";

/** The fulfilments of an order as the tests compare them: [line item, units] of each. */
function fulfilmentLines(order: StoreOrder) {
  return order.fulfillments.map((fulfillment) =>
    fulfillment.line_items.map((line) => [String(line.id), line.quantity]),
  );
}

describe(`plans fulfilled with their products: the built app against the local store (${provider})`, () => {
  const SHOP = `plan-fulfil-${provider}.myshopify.com`;
  const store = builtAppWithPlans(SHOP);
  const { variants, control, placeOrder } = store;

  /** The merchant fulfils in the store's admin; the body is the fulfillments/create webhook's. */
  async function merchantFulfils(orderId: string, lines: [string, number][]) {
    const answer = await control(`shops/${SHOP}/orders/${orderId}/fulfillments`, {
      line_items: lines.map(([id, quantity]) => ({ id, quantity })),
    });
    return { fulfillment: answer.body as unknown as StoreFulfillment, webhookBody: answer.text };
  }

  /** The order's actions once settled, its fulfilments in the store and the service's events. */
  async function settle(orderId: string, actions: number, events: number) {
    const settled = await store.settleActions(orderId, actions, events);
    return { ...settled, order: await store.storeOrder(orderId) };
  }

  async function fulfilRequests() {
    const requests = (await store.graphqlRequests()) as {
      operation_name: string | null;
      variables: { fulfillment?: { notifyCustomer?: boolean } };
    }[];
    return requests.filter((request) => request.operation_name === "FulfilPlanLines");
  }

  async function setAutoFulfil(on: boolean) {
    await store.db.shopConnection.update({ where: { shop: SHOP }, data: { autoFulfilPlans: on } });
  }

  it("leaves the plan alone, recorded as skipped, while the setting is off (its default)", async () => {
    const connection = await store.db.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(connection.autoFulfilPlans).toBe(false);
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.laptop },
    ]);
    const [laptopLine] = order.lineIds as [string, string];
    const { fulfillment } = await merchantFulfils(order.id, [[laptopLine, 1]]);
    const { rows, order: inStore } = await settle(order.id, 1, 2);
    expect(rows).toMatchObject([
      {
        kind: "fulfil_plan_line",
        status: "skipped",
        triggerId: String(fulfillment.id),
        planLineId: "",
        detail: OFF,
        attempts: 0,
        fulfillmentId: null,
      },
    ]);
    expect(JSON.parse(rows[0]!.triggerLines)).toEqual([{ lineItemId: laptopLine, quantity: 1 }]);
    expect(fulfilmentLines(inStore)).toEqual([[[laptopLine, 1]]]);
    expect(await fulfilRequests()).toEqual([]);
  });

  it("fulfils the plan on its own fulfilment order, unnotified, and the service hears of it once", async () => {
    await setAutoFulfil(true);
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.laptop },
    ]);
    const [laptopLine, planLine] = order.lineIds as [string, string];
    const { fulfillment } = await merchantFulfils(order.id, [[laptopLine, 1]]);

    // One row: the app's own fulfilment of the plan came back as fulfillments/create, and
    // queued nothing.
    const { rows, order: inStore, events } = await settle(order.id, 1, 3);
    expect(rows).toMatchObject([
      {
        status: "done",
        triggerId: String(fulfillment.id),
        quantity: 1,
        attempts: 1,
      },
    ]);
    const ours = inStore.fulfillments[1]!;
    expect(rows[0]!.fulfillmentId).toBe(String(ours.id));
    expect(rows[0]!.detail).toBe(
      `Plan fulfilled with its product on order ${inStore.name}: 1 unit(s), fulfilment ${String(ours.id)}`,
    );
    expect(fulfilmentLines(inStore)).toEqual([[[laptopLine, 1]], [[planLine, 1]]]);
    expect(events.map((event) => event.type)).toEqual([
      "order_placed",
      "order_fulfillment_added",
      "order_fulfillment_added",
    ]);
    const requests = await fulfilRequests();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.variables.fulfillment?.notifyCustomer).toBe(false);
    const receipts = await store.db.webhookReceipt.findMany({
      where: { shop: SHOP, orderId: order.id, topic: "fulfillments/create" },
    });
    expect(receipts.map((receipt) => receipt.status)).toEqual(["processed", "processed"]);
  });

  it("follows a partial, then the full fulfilment of the product, and never overshoots", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 3 },
      { variant: variants.twoYears, quantity: 1, protects: variants.laptop },
      { variant: variants.threeYears, quantity: 2, protects: variants.laptop },
    ]);
    const [laptopLine, twoYears, threeYears] = order.lineIds as [string, string, string];
    await merchantFulfils(order.id, [[laptopLine, 2]]);
    const first = await settle(order.id, 1, 3);
    expect(first.rows[0]).toMatchObject({ status: "done", quantity: 2 });
    // The plan lines share the product's units in line order.
    expect(fulfilmentLines(first.order)).toEqual([
      [[laptopLine, 2]],
      [
        [twoYears, 1],
        [threeYears, 1],
      ],
    ]);

    await merchantFulfils(order.id, [[laptopLine, 1]]);
    const { rows, order: inStore } = await settle(order.id, 2, 5);
    expect(rows[1]).toMatchObject({ status: "done", quantity: 1 });
    expect(fulfilmentLines(inStore).slice(2)).toEqual([[[laptopLine, 1]], [[threeYears, 1]]]);
  });

  it("fulfils only what the merchant has not: a plan fulfilled by hand is not fulfilled again", async () => {
    const order = await placeOrder([
      { variant: variants.camera, quantity: 2 },
      { variant: variants.twoYears, quantity: 2, protects: variants.camera },
    ]);
    const [cameraLine, planLine] = order.lineIds as [string, string];
    // The merchant fulfils both plans by hand (plan lines only: no action), then one camera.
    await merchantFulfils(order.id, [[planLine, 2]]);
    await merchantFulfils(order.id, [[cameraLine, 1]]);
    const { rows, order: inStore } = await settle(order.id, 1, 3);
    expect(rows[0]).toMatchObject({ status: "done", fulfillmentId: null, quantity: null });
    expect(rows[0]!.detail).toContain("Nothing fulfilled on order #");
    expect(rows[0]!.detail).toContain("2 plan unit(s) of product");
    expect(fulfilmentLines(inStore)).toEqual([[[planLine, 2]], [[cameraLine, 1]]]);
  });

  it("queues nothing when the merchant fulfils the plan with its product", async () => {
    const order = await placeOrder([
      { variant: variants.camera, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.camera },
    ]);
    const [cameraLine, planLine] = order.lineIds as [string, string];
    await merchantFulfils(order.id, [
      [cameraLine, 1],
      [planLine, 1],
    ]);
    await settle(order.id, 0, 2);
    // Read again once the fulfilment's webhook was handled (settle waits for it).
    expect(await store.db.shopifyAction.count({ where: { shop: SHOP, orderId: order.id } })).toBe(
      0,
    );
  });

  it("leaves a plan on a fulfilment service's fulfilment order, and says why", async () => {
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 1 },
      {
        variant: variants.twoYears,
        quantity: 1,
        protects: variants.laptop,
        service: "Acme Fulfilment",
      },
    ]);
    const [laptopLine] = order.lineIds as [string, string];
    await merchantFulfils(order.id, [[laptopLine, 1]]);
    const { rows, order: inStore } = await settle(order.id, 1, 2);
    expect(rows[0]).toMatchObject({ status: "done", fulfillmentId: null });
    expect(rows[0]!.detail).toContain("Acme Fulfilment");
    expect(rows[0]!.detail).toContain("CREATE_FULFILLMENT");
    expect(fulfilmentLines(inStore)).toEqual([[[laptopLine, 1]]]);
  });

  it("adds nothing for a redelivered fulfillments/create", async () => {
    const order = await placeOrder([
      { variant: variants.camera, quantity: 1 },
      { variant: variants.threeYears, quantity: 1, protects: variants.camera },
    ]);
    const [cameraLine] = order.lineIds as [string, string];
    const { fulfillment, webhookBody } = await merchantFulfils(order.id, [[cameraLine, 1]]);
    const settled = await settle(order.id, 1, 3);

    const deliveries = await store.webhookDeliveries();
    const original = deliveries.find(
      (delivery) =>
        delivery.topic === "fulfillments/create" &&
        delivery.subject === `gid://shopify/Fulfillment/${String(fulfillment.id)}`,
    )!;
    await store.redeliver("fulfillments/create", webhookBody, original);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const again = await settle(order.id, 1, 3);
    expect(again.rows).toEqual(settled.rows);
    expect(fulfilmentLines(again.order)).toEqual(fulfilmentLines(settled.order));
    expect(again.order.fulfillments).toHaveLength(2);
  });

  it("runs a skipped fulfilment when the merchant asks for it, whatever the setting", async () => {
    await setAutoFulfil(false);
    const order = await placeOrder([
      { variant: variants.laptop, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.laptop },
    ]);
    const [laptopLine, planLine] = order.lineIds as [string, string];
    await merchantFulfils(order.id, [[laptopLine, 1]]);
    const skipped = await settle(order.id, 1, 2);
    expect(skipped.rows[0]).toMatchObject({ status: "skipped", detail: OFF });

    // What the admin's button does (built by the admin's part of issue 16): the row runs again.
    await store.db.shopifyAction.update({
      where: { id: skipped.rows[0]!.id },
      data: {
        status: "pending",
        requestedBy: "merchant",
        requestedAt: new Date(),
        completedAt: null,
        nextAttemptAt: new Date(),
      },
    });
    const { rows, order: inStore } = await settle(order.id, 1, 3);
    expect(rows[0]).toMatchObject({ status: "done", quantity: 1 });
    expect(fulfilmentLines(inStore)).toEqual([[[laptopLine, 1]], [[planLine, 1]]]);
  });

  it("sent Shopify only requests its schema accepts, and answered every webhook 200", async () => {
    const requests = await store.graphqlRequests();
    expect(requests.flatMap((request) => request.validation_errors)).toEqual([]);
    const deliveries = await store.webhookDeliveries();
    expect(deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
  });
});

describe(`the plan fulfilment worker (${provider})`, () => {
  const SHOP = `plan-fulfil-worker-${provider}.myshopify.com`;
  let db: AppPrismaClient;
  let sold: ProtectedProduct;

  async function fulfilments(orderId: string) {
    return fulfilmentLines(await orderInStore(SHOP, orderId));
  }

  beforeAll(async () => {
    db = (await import("../../app/db.server")).default;
    sold = await installShopWithPlan(db, SHOP);
    await db.shopConnection.update({ where: { shop: SHOP }, data: { autoFulfilPlans: true } });
  });

  it("does nothing more after a crash between fulfillmentCreate and recording it", async () => {
    const { orderId, productLine, planLine } = await placeProtectedOrder(SHOP, sold, 2);
    await fulfilInStore(SHOP, orderId, productLine, 2);
    const [queued] = await actionsOf(db, SHOP, orderId);
    expect(queued).toMatchObject({ kind: "fulfil_plan_line", status: "pending", attempts: 0 });

    // A worker claims the action, fulfils the plan, and dies before recording what came of it.
    const { runPlanFulfilment } = await import("../../app/plan-actions/fulfil-plan-line.server");
    const { outcome: sent } = await runThenCrash(db, queued!, runPlanFulfilment);
    expect(sent).toMatchObject({ kind: "done", result: { quantity: 2 } });
    const orphan = (await actionsOf(db, SHOP, orderId))[0]!;
    expect(orphan).toMatchObject({ status: "running", claimedBy: "crashed-worker" });
    expect(JSON.parse(orphan.request!)).toMatchObject({ notifyCustomer: false });
    expect(await fulfilments(orderId)).toEqual([[[productLine, 2]], [[planLine, 2]]]);
    await storeWebhooksIdle();

    // Once the lease has run out, another worker takes the action: the read finds the plan
    // fulfilled, and it fulfils nothing more.
    await crashedLeaseRunsOut();
    const before = await operationCount("FulfilPlanLines");
    expect(await (await planActionWorker(db)).drain()).toBe(1);
    const [recovered] = await actionsOf(db, SHOP, orderId);
    expect(recovered).toMatchObject({ status: "done", attempts: 1, fulfillmentId: null });
    expect(recovered!.detail).toContain("2 plan unit(s) of product");
    expect(await fulfilments(orderId)).toEqual([[[productLine, 2]], [[planLine, 2]]]);
    const after = await operationCount("FulfilPlanLines");
    expect(after).toBe(before);
    // The app's own fulfilment queued nothing.
    expect(await actionsOf(db, SHOP, orderId)).toHaveLength(1);
  });

  it("fulfils the plan when the fulfilment came before the app recorded its order", async () => {
    // The order's orders/create is lost: the app knows the fulfilment, not the order's lines.
    expect((await storeControl("webhooks/drop", { count: 1, topic: "orders/create" })).status).toBe(
      200,
    );
    const { orderId, productLine, planLine } = await placeProtectedOrder(SHOP, sold, 1);
    await fulfilInStore(SHOP, orderId, productLine, 1);
    expect(await actionsOf(db, SHOP, orderId)).toMatchObject([
      { status: "pending", planLineId: "" },
    ]);

    expect(await (await planActionWorker(db)).drain()).toBe(1);
    expect((await actionsOf(db, SHOP, orderId))[0]).toMatchObject({ status: "done", quantity: 1 });
    expect(await fulfilments(orderId)).toEqual([[[productLine, 1]], [[planLine, 1]]]);
  });

  /** Shopify refuses the next `times` fulfillmentCreate calls. */
  async function refuseFulfilment(times: number) {
    const { refuseAdminMutation } = await import("../support/admin-graphql");
    refuseAdminMutation(
      "FulfilPlanLines",
      { mutation: "fulfillmentCreate", result: "fulfillment" },
      [{ field: ["fulfillment"], message: "Fulfillment order is not in a fulfillable state" }],
      times,
    );
  }

  it("reads the order again after a refusal, and fulfils what is still due", async () => {
    const { orderId, productLine, planLine } = await placeProtectedOrder(SHOP, sold, 1);
    await fulfilInStore(SHOP, orderId, productLine, 1);
    await refuseFulfilment(1);
    expect(await (await planActionWorker(db)).drain()).toBe(1);
    expect((await actionsOf(db, SHOP, orderId))[0]).toMatchObject({ status: "done", quantity: 1 });
    expect(await fulfilments(orderId)).toEqual([[[productLine, 1]], [[planLine, 1]]]);
  });

  it("ends the action with Shopify's reason when fulfillmentCreate is refused after a fresh read too", async () => {
    const { orderId, productLine } = await placeProtectedOrder(SHOP, sold, 1);
    await fulfilInStore(SHOP, orderId, productLine, 1);
    await refuseFulfilment(2);
    expect(await (await planActionWorker(db)).drain()).toBe(1);
    const [dead] = await actionsOf(db, SHOP, orderId);
    expect(dead).toMatchObject({ status: "dead", fulfillmentId: null });
    expect(dead!.lastError).toContain("Shopify refused the plan fulfilment on #");
    expect(dead!.lastError).toContain(
      "Fulfillment order is not in a fulfillable state (fulfillment)",
    );
    expect(await fulfilments(orderId)).toEqual([[[productLine, 1]]]);
  });
});
