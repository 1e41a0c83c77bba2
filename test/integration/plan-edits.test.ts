import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { ShopifyAction } from "../../app/generated/prisma/sqlite/client";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
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

// Plans follow their products through order edits (decision 026): when the merchant edits a
// protected product down in the store, the app lowers its plan lines with an edit of its own,
// then refunds what the paid order owes the customer for them, once. First the built app as a
// process against its own local store and the emulator; then the action worker in this process,
// with crashes after the app's edit was committed.

const provider = testDatabaseProvider();
const NOTE = "svc-protection: plan reduced with its product";

interface StoreLine {
  id: string;
  current_quantity: number;
}

interface StoreRefund {
  id: string;
  note: string | null;
  refund_line_items: unknown[];
  transactions: { amount: string; kind: string }[];
}

interface StoreEdit {
  order_edit: { id: string; staff_note: string; notify_customer: boolean };
}

interface StoreOrder {
  id: string;
  name: string;
  line_items: StoreLine[];
  refunds: StoreRefund[];
  edits: StoreEdit[];
}

const ourNote = (editId: string) => `${NOTE} (edit ${editId})`;

const TERMINAL = new Set(["done", "skipped", "dead"]);

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

describe(`plans follow their products through edits: the built app (${provider})`, () => {
  const SHOP = `plan-edits-${provider}.myshopify.com`;
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

  /** A paid order; `protects` makes the line a plan line of that variant, as the storefront does. */
  async function placeOrder(lines: { variant: string; quantity: number; protects?: string }[]) {
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
        })),
      })
    ).body as unknown as StoreOrder;
    const orderId = String(order.id);
    await serviceEvents(orderId, 1);
    return {
      id: orderId,
      name: order.name,
      lineIds: order.line_items.map((line) => String(line.id)),
    };
  }

  /** The merchant edits quantities in the store's admin; the body is the orders/edited webhook's. */
  async function merchantEdit(orderId: string, quantities: [string, number][]) {
    const answer = await control(`shops/${SHOP}/orders/${orderId}/edits`, {
      set_quantities: quantities.map(([id, quantity]) => ({ line_item_id: id, quantity })),
    });
    const edit = answer.body as unknown as StoreEdit;
    return { editId: String(edit.order_edit.id), webhookBody: answer.text };
  }

  async function storeOrder(orderId: string) {
    return (await control(`shops/${SHOP}/orders/${orderId}`)).body as unknown as StoreOrder;
  }

  async function serviceEvents(orderId: string, count: number) {
    return waitFor(
      `${count} service events for order ${orderId}`,
      async () => {
        const state = await app.service.state("sandbox");
        const types = state.orders.find((order) => order.order_id === orderId)?.events;
        return types && types.length >= count ? types.map((event) => event.type) : undefined;
      },
      explain,
    );
  }

  /** The order's actions once settled, the order in the store and the service's events. */
  async function settle(orderId: string, actions: number, events: number) {
    const rows = await waitFor(
      `${actions} settled actions of order ${orderId}`,
      settledActions(db, SHOP, orderId, actions),
      explain,
    );
    const idle = await control("webhooks/idle?timeout_ms=20000");
    expect(idle.body.idle).toBe(true);
    const types = await serviceEvents(orderId, events);
    expect(types, "no event beyond those expected").toHaveLength(events);
    const order = await storeOrder(orderId);
    return {
      rows,
      types,
      quantities: order.line_items.map((line) => line.current_quantity),
      refunds: order.refunds.map((refund) => ({
        note: refund.note,
        lines: refund.refund_line_items.length,
        amounts: refund.transactions.map((transaction) => transaction.amount),
      })),
      edits: order.edits.map((edit) => edit.order_edit),
    };
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
    const receipts = await db.webhookReceipt.findMany({
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

    const deliveries = (await control("webhooks")).body.deliveries as {
      topic: string;
      subject: string;
      webhook_id: string;
      event_id: string;
      status: number | null;
    }[];
    const merchants = deliveries.find(
      (delivery) =>
        delivery.topic === "orders/edited" &&
        delivery.subject === `gid://shopify/CalculatedOrder/${editId}` &&
        delivery.status === 200,
    );
    expect(merchants).toBeDefined();
    for (const ids of [
      { webhookId: merchants!.webhook_id, eventId: merchants!.event_id },
      { webhookId: crypto.randomUUID(), eventId: crypto.randomUUID() },
    ]) {
      const answer = await fetch(`${app.server.url}/webhooks/orders/edited`, {
        method: "POST",
        headers: shopifyWebhookHeaders({
          topic: "orders/edited",
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
    expect(again.quantities).toEqual([1, 1]);
    expect(again.refunds).toEqual(settled.refunds);
  });

  it("leaves the plan alone, recorded as skipped, when the merchant turned it off", async () => {
    await db.shopConnection.update({ where: { shop: SHOP }, data: { autoEditPlans: false } });
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
      await db.shopConnection.update({ where: { shop: SHOP }, data: { autoEditPlans: true } });
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

  it("leaves a plan alone when an edit adds to its product, and never raises it", async () => {
    const order = await placeOrder([
      { variant: variants.camera, quantity: 1 },
      { variant: variants.twoYears, quantity: 1, protects: variants.camera },
    ]);
    const [cameraLine] = order.lineIds as [string, string];
    await merchantEdit(order.id, [[cameraLine, 2]]);
    await control("webhooks/idle?timeout_ms=20000");
    expect(await db.shopifyAction.count({ where: { shop: SHOP, orderId: order.id } })).toBe(0);

    // Taking the added camera away again leaves one camera for the one plan: nothing to do.
    await merchantEdit(order.id, [[cameraLine, 1]]);
    const settled = await settle(order.id, 1, 2);
    expect(settled.rows).toMatchObject([{ status: "done", quantity: null, refundId: null }]);
    expect(settled.rows[0]!.detail).toContain("Nothing to reduce");
    expect(settled.quantities).toEqual([1, 1]);
    expect(settled.refunds).toEqual([]);
  });

  it("sent Shopify only requests its schema accepts, and answered every webhook 200", async () => {
    const requests = (await control("graphql")).body.requests as {
      operation_name: string | null;
      validation_errors: string[];
    }[];
    expect(requests.flatMap((request) => request.validation_errors)).toEqual([]);
    const commits = requests.filter((request) => request.operation_name === "CommitPlanEdit");
    // One edit of the app's per order it lowered above: no edit twice, none where nothing was due.
    expect(commits).toHaveLength(4);
    const deliveries = (await control("webhooks")).body.deliveries as { status: number | null }[];
    expect(deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
  });
});

describe(`the plan edit worker after a crash (${provider})`, () => {
  const SHOP = `plan-edit-worker-${provider}.myshopify.com`;
  let db: AppPrismaClient;
  let plan: string;
  let product: string;

  async function worker() {
    const { createPlanActionWorker } = await import("../../app/plan-actions/worker.server");
    const { offlineAdminFor } = await import("../../app/workers.server");
    return createPlanActionWorker({ db, adminFor: offlineAdminFor });
  }

  /** An order of two headphones with two plans, and the merchant's edit down to one. */
  async function editedOrder() {
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
    const edited = await storeControl<StoreEdit>(`shops/${SHOP}/orders/${orderId}/edits`, {
      set_quantities: [{ line_item_id: productLine, quantity: 1 }],
    });
    expect(edited.status).toBe(200);
    await storeWebhooksIdle();
    return { orderId, planLine: planLine!, editId: String(edited.body.order_edit.id) };
  }

  async function actionsOf(orderId: string): Promise<ShopifyAction[]> {
    return db.shopifyAction.findMany({ where: { shop: SHOP, orderId }, orderBy: { id: "asc" } });
  }

  async function orderInStore(orderId: string) {
    return (await storeControl<StoreOrder>(`shops/${SHOP}/orders/${orderId}`)).body;
  }

  async function operations(name: string) {
    return (await storeGraphqlLog()).filter((request) => request.operation_name === name).length;
  }

  /** Runs the action as a worker that dies when it is about to send `dieBefore`, or after all. */
  async function crashingRun(row: ShopifyAction, dieBefore: string | null) {
    const { claimDueActions, renewActionClaim } =
      await import("../../app/plan-actions/claim.server");
    const { runPlanEdit } = await import("../../app/plan-actions/edit-plan-lines.server");
    const { offlineAdminFor } = await import("../../app/workers.server");
    const crashed = { workerId: "crashed-worker", leaseMs: 200 };
    expect(await claimDueActions(db, { ...crashed, limit: 10 })).toEqual([row.id]);
    const outcome = await runPlanEdit(
      {
        graphql: (await offlineAdminFor(SHOP))!,
        beforeMutation: async (request) => {
          if (dieBefore && (JSON.parse(request) as { mutation: string }).mutation === dieBefore) {
            return false;
          }
          return (await renewActionClaim(db, { ...crashed, id: row.id, request })) !== null;
        },
      },
      row,
    );
    // The worker dies here: what came of the run is never recorded.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return outcome;
  }

  beforeAll(async () => {
    db = (await import("../../app/db.server")).default;
    await installInStore(db, SHOP);
    await connectShop(db, SHOP);
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

  it("finds the edit and the refund made after a crash that recorded neither, and does nothing", async () => {
    const { orderId, editId } = await editedOrder();
    const [queued] = await actionsOf(orderId);
    expect(queued).toMatchObject({ status: "pending", kind: "edit_plan_line", triggerId: editId });
    const commitsBefore = await operations("CommitPlanEdit");

    expect(await crashingRun(queued!, null)).toMatchObject({ kind: "done" });
    const orphan = (await actionsOf(orderId))[0]!;
    expect(orphan).toMatchObject({ status: "running", claimedBy: "crashed-worker" });

    expect(await (await worker()).drain()).toBe(1);
    const [recovered] = await actionsOf(orderId);
    expect(recovered).toMatchObject({ status: "done", quantity: 1, amount: "29.0" });
    expect(recovered!.detail).toContain("2 → 1 unit(s)");
    const order = await orderInStore(orderId);
    expect(order.line_items.map((line) => line.current_quantity)).toEqual([1, 1]);
    expect(order.refunds.map((refund) => [refund.note, refund.transactions[0]?.amount])).toEqual([
      [ourNote(editId), "29.00"],
    ]);
    expect((await operations("CommitPlanEdit")) - commitsBefore).toBe(1);
  });

  it("refunds once after a crash between the committed edit and its refund", async () => {
    const { orderId, editId } = await editedOrder();
    const [queued] = await actionsOf(orderId);
    const commitsBefore = await operations("CommitPlanEdit");

    // The edit is committed; the worker dies before it sends the refund.
    expect(await crashingRun(queued!, "refundCreate")).toEqual({ kind: "lost_claim" });
    expect((await orderInStore(orderId)).refunds).toEqual([]);
    const orphan = (await actionsOf(orderId))[0]!;
    expect(JSON.parse(orphan.request!)).toMatchObject({
      mutation: "orderEditCommit",
      planEdit: { removedValue: 2900 },
    });

    // The next run reads the lowered order: no edit again, and the refund the edit left owed.
    expect(await (await worker()).drain()).toBe(1);
    const [recovered] = await actionsOf(orderId);
    expect(recovered).toMatchObject({ status: "done", quantity: 1, amount: "29.0" });
    const order = await orderInStore(orderId);
    expect(order.line_items.map((line) => line.current_quantity)).toEqual([1, 1]);
    expect(order.refunds.map((refund) => [refund.note, refund.transactions[0]?.amount])).toEqual([
      [ourNote(editId), "29.00"],
    ]);
    expect((await operations("CommitPlanEdit")) - commitsBefore).toBe(1);
  });
});
