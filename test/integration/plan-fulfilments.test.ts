import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { ShopifyAction } from "../../app/generated/prisma/sqlite/client";
import { startAppAgainstStore, waitFor, type AppAgainstStore } from "../support/app-against-store";
import { testDatabaseProvider } from "../support/databases";
import {
  createStoreProduct,
  installInStore,
  storeControl,
  storeGraphqlLog,
  storeWebhooksIdle,
} from "../support/local-store";
import { connectShop } from "../support/shops";
import { TEST_API_KEY, TEST_API_SECRET } from "../support/test-env";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";

// Plans follow their products (decision 025): with "fulfil plans with their products" on, when
// the merchant fulfils a protected product in the store, the app fulfils the same units of its
// plan line, on the plan's own fulfilment order, without notifying the customer, once. First the
// built app as a process against its own local store and the emulator, end to end; then the
// action worker in this process against the file's store, for a crash after the fulfilment.

const provider = testDatabaseProvider();
const OFF = "Not fulfilled: fulfilling plans with their products is off in the app's settings";

interface StoreFulfillment {
  id: string;
  status: string;
  line_items: { id: string; quantity: number }[];
}

interface StoreOrder {
  id: string;
  name: string;
  line_items: { id: string }[];
  fulfillments: StoreFulfillment[];
}

const TERMINAL = new Set(["done", "skipped", "dead"]);

/** The order's actions once there are `count` and none is open any more. */
function settledActions(db: AppPrismaClient, shop: string, orderId: string, count: number) {
  return async () => {
    const rows = await db.shopifyAction.findMany({
      where: { shop, orderId },
      orderBy: { id: "asc" },
    });
    return rows.length === count && rows.every((row) => TERMINAL.has(row.status))
      ? rows
      : undefined;
  };
}

/** The fulfilments of an order as the tests compare them: [line item, units] of each. */
function fulfilmentLines(order: StoreOrder) {
  return order.fulfillments.map((fulfillment) =>
    fulfillment.line_items.map((line) => [String(line.id), line.quantity]),
  );
}

describe(`plans fulfilled with their products: the built app against the local store (${provider})`, () => {
  const SHOP = `plan-fulfil-${provider}.myshopify.com`;
  let app: AppAgainstStore;
  let db: AppPrismaClient;
  const variants = { laptop: "", camera: "", twoYears: "", threeYears: "" };
  const explain = () => app.explain();

  async function control(path: string, body?: unknown) {
    const answer = await app.control(path, body);
    expect(answer.status, answer.text).toBeLessThan(300);
    return answer;
  }

  async function addProduct(title: string, prices: [string, string][], requiresShipping = true) {
    const created = await control(`shops/${SHOP}/products`, {
      title,
      variants: prices.map(([variant, price]) => ({
        title: variant,
        price,
        requires_shipping: requiresShipping,
      })),
    });
    return (created.body.variants as { id: string }[]).map((variant) => String(variant.id));
  }

  /**
   * A paid order; `protects` makes the line a plan line of that variant, as the storefront does.
   * A plan needs no shipping: it sits on a fulfilment order of its own, apart from its product's;
   * `service` puts a line on a fulfilment service's fulfilment order instead.
   */
  async function placeOrder(
    lines: { variant: string; quantity: number; protects?: string; service?: string }[],
  ) {
    const order = (
      await control(`shops/${SHOP}/orders`, {
        line_items: lines.map((line) => ({
          variant_id: line.variant,
          quantity: line.quantity,
          ...(line.protects
            ? {
                requires_shipping: false,
                properties: [{ name: "_svc_protected_product_ref", value: line.protects }],
              }
            : {}),
          ...(line.service ? { fulfillment_service: line.service } : {}),
        })),
      })
    ).body as unknown as StoreOrder;
    const orderId = String(order.id);
    await serviceEvents(orderId, 1);
    return { ...order, id: orderId, lineIds: order.line_items.map((line) => String(line.id)) };
  }

  /** The merchant fulfils in the store's admin; the body is the fulfillments/create webhook's. */
  async function merchantFulfils(orderId: string, lines: [string, number][]) {
    const answer = await control(`shops/${SHOP}/orders/${orderId}/fulfillments`, {
      line_items: lines.map(([id, quantity]) => ({ id, quantity })),
    });
    return { fulfillment: answer.body as unknown as StoreFulfillment, webhookBody: answer.text };
  }

  async function storeOrder(orderId: string) {
    return (await control(`shops/${SHOP}/orders/${orderId}`)).body as unknown as StoreOrder;
  }

  async function serviceEvents(orderId: string, count: number) {
    return waitFor(
      `${count} service events for order ${orderId}`,
      async () => {
        const state = await app.service.state("sandbox");
        const events = state.orders.find((order) => order.order_id === orderId)?.events;
        return events && events.length >= count ? events : undefined;
      },
      explain,
    );
  }

  /** The order's actions once settled, its fulfilments in the store and the service's events. */
  async function settle(orderId: string, actions: number, events: number) {
    const rows = await waitFor(
      `${actions} settled actions of order ${orderId}`,
      settledActions(db, SHOP, orderId, actions),
      explain,
    );
    const idle = await control("webhooks/idle?timeout_ms=20000");
    expect(idle.body.idle).toBe(true);
    const received = await serviceEvents(orderId, events);
    expect(received, "no event beyond those expected").toHaveLength(events);
    return { rows, order: await storeOrder(orderId), events: received };
  }

  async function fulfilRequests() {
    const requests = (await control("graphql")).body.requests as {
      operation_name: string | null;
      variables: { fulfillment?: { notifyCustomer?: boolean } };
    }[];
    return requests.filter((request) => request.operation_name === "FulfilPlanLines");
  }

  async function setAutoFulfil(on: boolean) {
    await db.shopConnection.update({ where: { shop: SHOP }, data: { autoFulfilPlans: on } });
  }

  beforeAll(async () => {
    app = await startAppAgainstStore();
    db = (await import("../../app/db.server")).default;
    await control("shops", {
      shop: SHOP,
      app_url: app.server.url,
      api_key: TEST_API_KEY,
      api_secret: TEST_API_SECRET,
    });
    await control(`shops/${SHOP}/install`, {});
    await connectShop(db, SHOP);
    variants.laptop = (await addProduct("Laptop", [["Default Title", "999.00"]]))[0]!;
    variants.camera = (await addProduct("Camera", [["Default Title", "499.00"]]))[0]!;
    const plans = await addProduct(
      "Accident protection",
      [
        ["2 years", "49.00"],
        ["3 years", "79.00"],
      ],
      false,
    );
    variants.twoYears = plans[0]!;
    variants.threeYears = plans[1]!;
  }, 90_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("leaves the plan alone, recorded as skipped, while the setting is off (its default)", async () => {
    const connection = await db.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
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
    const receipts = await db.webhookReceipt.findMany({
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
    expect(await db.shopifyAction.count({ where: { shop: SHOP, orderId: order.id } })).toBe(0);
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

    const deliveries = (await control("webhooks")).body.deliveries as {
      topic: string;
      subject: string;
      webhook_id: string;
      event_id: string;
      status: number | null;
    }[];
    const original = deliveries.find(
      (delivery) =>
        delivery.topic === "fulfillments/create" &&
        delivery.subject === `gid://shopify/Fulfillment/${String(fulfillment.id)}`,
    )!;
    for (const ids of [
      { webhookId: original.webhook_id, eventId: original.event_id },
      { webhookId: crypto.randomUUID(), eventId: crypto.randomUUID() },
    ]) {
      const answer = await fetch(`${app.server.url}/webhooks/fulfillments/create`, {
        method: "POST",
        headers: shopifyWebhookHeaders({
          topic: "fulfillments/create",
          shop: SHOP,
          body: webhookBody,
          secret: TEST_API_SECRET,
          ...ids,
        }),
        body: webhookBody,
      });
      expect(answer.status).toBe(200);
    }
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
    await db.shopifyAction.update({
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
    const requests = (await control("graphql")).body.requests as {
      operation_name: string | null;
      validation_errors: string[];
    }[];
    expect(requests.flatMap((request) => request.validation_errors)).toEqual([]);
    const deliveries = (await control("webhooks")).body.deliveries as { status: number | null }[];
    expect(deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
  });
});

describe(`the plan fulfilment worker (${provider})`, () => {
  const SHOP = `plan-fulfil-worker-${provider}.myshopify.com`;
  let db: AppPrismaClient;
  let plan: string;
  let product: string;

  async function worker() {
    const { createPlanActionWorker } = await import("../../app/plan-actions/worker.server");
    const { offlineAdminFor } = await import("../../app/workers.server");
    return createPlanActionWorker({ db, adminFor: offlineAdminFor });
  }

  async function actionsOf(orderId: string): Promise<ShopifyAction[]> {
    return db.shopifyAction.findMany({ where: { shop: SHOP, orderId }, orderBy: { id: "asc" } });
  }

  async function fulfilments(orderId: string) {
    const order = await storeControl<StoreOrder>(`shops/${SHOP}/orders/${orderId}`);
    return fulfilmentLines(order.body);
  }

  beforeAll(async () => {
    db = (await import("../../app/db.server")).default;
    await installInStore(db, SHOP);
    await connectShop(db, SHOP);
    await db.shopConnection.update({ where: { shop: SHOP }, data: { autoFulfilPlans: true } });
    product = (
      await createStoreProduct(SHOP, {
        title: "Headphones",
        variants: [{ title: "Default Title", price: "199.00" }],
      })
    ).variants[0]!.id;
    plan = (
      await createStoreProduct(SHOP, {
        title: "Accident protection",
        variants: [{ title: "2 years", price: "29.00", requires_shipping: false }],
      })
    ).variants[0]!.id;
  });

  it("does nothing more after a crash between fulfillmentCreate and recording it", async () => {
    const placed = await storeControl<StoreOrder>(`shops/${SHOP}/orders`, {
      line_items: [
        { variant_id: product, quantity: 2 },
        {
          variant_id: plan,
          quantity: 2,
          requires_shipping: false,
          properties: [{ name: "_svc_protected_product_ref", value: product }],
        },
      ],
    });
    expect(placed.status).toBe(201);
    const orderId = String(placed.body.id);
    const [productLine, planLine] = placed.body.line_items.map((line) => String(line.id));
    await storeWebhooksIdle();
    const fulfilled = await storeControl(`shops/${SHOP}/orders/${orderId}/fulfillments`, {
      line_items: [{ id: productLine, quantity: 2 }],
    });
    expect(fulfilled.status).toBe(201);
    await storeWebhooksIdle();
    const [queued] = await actionsOf(orderId);
    expect(queued).toMatchObject({ kind: "fulfil_plan_line", status: "pending", attempts: 0 });

    // A worker claims the action, fulfils the plan, and dies before recording what came of it.
    const { claimDueActions, renewActionClaim } =
      await import("../../app/plan-actions/claim.server");
    const { runPlanFulfilment } = await import("../../app/plan-actions/fulfil-plan-line.server");
    const { offlineAdminFor } = await import("../../app/workers.server");
    const crashed = { workerId: "crashed-worker", leaseMs: 200 };
    expect(await claimDueActions(db, { ...crashed, limit: 10 })).toEqual([queued!.id]);
    const sent = await runPlanFulfilment(
      {
        graphql: (await offlineAdminFor(SHOP))!,
        beforeMutation: async (request) =>
          (await renewActionClaim(db, { ...crashed, id: queued!.id, request })) !== null,
      },
      queued!,
    );
    expect(sent).toMatchObject({ kind: "done", result: { quantity: 2 } });
    const orphan = (await actionsOf(orderId))[0]!;
    expect(orphan).toMatchObject({ status: "running", claimedBy: "crashed-worker" });
    expect(JSON.parse(orphan.request!)).toMatchObject({ notifyCustomer: false });
    expect(await fulfilments(orderId)).toEqual([[[productLine, 2]], [[planLine, 2]]]);
    await storeWebhooksIdle();

    // Once the lease has run out, another worker takes the action: the read finds the plan
    // fulfilled, and it fulfils nothing more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = (await storeGraphqlLog()).filter(
      (request) => request.operation_name === "FulfilPlanLines",
    ).length;
    expect(await (await worker()).drain()).toBe(1);
    const [recovered] = await actionsOf(orderId);
    expect(recovered).toMatchObject({ status: "done", attempts: 1, fulfillmentId: null });
    expect(recovered!.detail).toContain("2 plan unit(s) of product");
    expect(await fulfilments(orderId)).toEqual([[[productLine, 2]], [[planLine, 2]]]);
    const after = (await storeGraphqlLog()).filter(
      (request) => request.operation_name === "FulfilPlanLines",
    ).length;
    expect(after).toBe(before);
    // The app's own fulfilment queued nothing.
    expect(await actionsOf(orderId)).toHaveLength(1);
  });

  it("fulfils the plan when the fulfilment came before the app recorded its order", async () => {
    // The order's orders/create is lost: the app knows the fulfilment, not the order's lines.
    expect((await storeControl("webhooks/drop", { count: 1, topic: "orders/create" })).status).toBe(
      200,
    );
    const placed = await storeControl<StoreOrder>(`shops/${SHOP}/orders`, {
      line_items: [
        { variant_id: product, quantity: 1 },
        {
          variant_id: plan,
          quantity: 1,
          requires_shipping: false,
          properties: [{ name: "_svc_protected_product_ref", value: product }],
        },
      ],
    });
    const orderId = String(placed.body.id);
    const [productLine, planLine] = placed.body.line_items.map((line) => String(line.id));
    await storeWebhooksIdle();
    await storeControl(`shops/${SHOP}/orders/${orderId}/fulfillments`, {
      line_items: [{ id: productLine, quantity: 1 }],
    });
    await storeWebhooksIdle();
    expect(await actionsOf(orderId)).toMatchObject([{ status: "pending", planLineId: "" }]);

    expect(await (await worker()).drain()).toBe(1);
    expect((await actionsOf(orderId))[0]).toMatchObject({ status: "done", quantity: 1 });
    expect(await fulfilments(orderId)).toEqual([[[productLine, 1]], [[planLine, 1]]]);
  });

  it("ends the action with Shopify's reason when fulfillmentCreate is refused", async () => {
    const placed = await storeControl<StoreOrder>(`shops/${SHOP}/orders`, {
      line_items: [
        { variant_id: product, quantity: 1 },
        {
          variant_id: plan,
          quantity: 1,
          requires_shipping: false,
          properties: [{ name: "_svc_protected_product_ref", value: product }],
        },
      ],
    });
    const orderId = String(placed.body.id);
    const [productLine] = placed.body.line_items.map((line) => String(line.id));
    await storeWebhooksIdle();
    await storeControl(`shops/${SHOP}/orders/${orderId}/fulfillments`, {
      line_items: [{ id: productLine, quantity: 1 }],
    });
    await storeWebhooksIdle();
    const { expectAdminGraphql } = await import("../support/admin-graphql");
    expectAdminGraphql("FulfilPlanLines", {
      data: {
        fulfillmentCreate: {
          fulfillment: null,
          userErrors: [
            { field: ["fulfillment"], message: "Fulfillment order is not in a fulfillable state" },
          ],
        },
      },
    });
    expect(await (await worker()).drain()).toBe(1);
    const [dead] = await actionsOf(orderId);
    expect(dead).toMatchObject({ status: "dead", fulfillmentId: null });
    expect(dead!.lastError).toContain("Shopify refused the plan fulfilment on #");
    expect(dead!.lastError).toContain(
      "Fulfillment order is not in a fulfillable state (fulfillment)",
    );
  });
});
