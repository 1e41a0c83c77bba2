import { afterAll, beforeAll, expect } from "vitest";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { ShopifyAction } from "../../app/generated/prisma/sqlite/client";
import type { ActionContext } from "../../app/plan-actions/outcome.server";
import type { PlanActionWorkerOptions } from "../../app/plan-actions/worker.server";
import type { AdminGraphql } from "../../app/services/admin-api.server";
import { startAppAgainstStore, waitFor, type AppAgainstStore } from "./app-against-store";
import {
  createStoreProduct,
  installInStore,
  storeControl,
  storeGraphqlLog,
  storeWebhooksIdle,
  type StoreGraphqlRequest,
} from "./local-store";
import { connectShop } from "./shops";
import { TEST_API_KEY, TEST_API_SECRET } from "./test-env";

/*
 * What the plan action tests share (decisions 022 to 027): the local store's orders as its
 * control API answers them, the built app against a store of its own with the products the plans
 * protect, and the action worker of the test's process against the file's store, crashes
 * included. Each test file keeps its own scenarios and what it expects of them.
 */

export interface StoreRefund {
  id: string;
  note: string | null;
  refund_line_items: { line_item_id: string; quantity: number; restock_type: string }[];
  transactions: { amount: string; kind: string }[];
}

export interface StoreFulfillment {
  id: string;
  status: string;
  line_items: { id: string; quantity: number }[];
}

export interface StoreEdit {
  order_edit: { id: string; staff_note: string; notify_customer: boolean };
}

export interface StoreOrder {
  id: string;
  name: string;
  line_items: { id: string; variant_id: string | null; current_quantity: number }[];
  refunds: StoreRefund[];
  fulfillments: StoreFulfillment[];
  edits: StoreEdit[];
}

/** A refund's lines as the tests compare them: [line item, units, restock type] of each. */
export function refundLines(refund: StoreRefund): [string, number, string][] {
  return refund.refund_line_items.map((line) => [
    String(line.line_item_id),
    line.quantity,
    line.restock_type,
  ]);
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

/** An order line; `protects` makes it a plan line of that variant, as the storefront does. */
export interface PlanOrderLine {
  variant: string;
  quantity: number;
  protects?: string;
  /** Puts the line on that fulfilment service's fulfilment order instead of the shop's. */
  service?: string;
}

/** A webhook the store sent, as its control API lists them. */
export interface StoreWebhookDelivery {
  topic: string;
  subject: string;
  webhook_id: string;
  event_id: string;
  status: number | null;
}

/**
 * The built app as a process against its own local store (startAppAgainstStore), with `shop`
 * installed and connected, and a laptop, a camera and a plan of 2 or 3 years to protect them.
 * Call it inside a describe block: it starts all in that block's beforeAll and stops it after.
 */
export function builtAppWithPlans(shop: string) {
  let app: AppAgainstStore;
  let db: AppPrismaClient;
  const variants = { laptop: "", camera: "", twoYears: "", threeYears: "" };
  const explain = () => app.explain();

  /** A control call that must succeed. */
  async function control(path: string, body?: unknown) {
    const answer = await app.control(path, body);
    expect(answer.status, answer.text).toBeLessThan(300);
    return answer;
  }

  async function addProduct(title: string, prices: [string, string][], requiresShipping = true) {
    const created = await control(`shops/${shop}/products`, {
      title,
      variants: prices.map(([variant, price]) => ({
        title: variant,
        price,
        requires_shipping: requiresShipping,
      })),
    });
    return (created.body.variants as { id: string }[]).map((variant) => String(variant.id));
  }

  /** The service's events of the order once there are at least `count`. */
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

  /**
   * A paid order. A plan needs no shipping: it sits on a fulfilment order of its own, apart from
   * its product's. Returns once the service has the order_placed, so that what follows comes
   * after it.
   */
  async function placeOrder(lines: PlanOrderLine[]) {
    const order = (
      await control(`shops/${shop}/orders`, {
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

  async function storeOrder(orderId: string) {
    return (await control(`shops/${shop}/orders/${orderId}`)).body as unknown as StoreOrder;
  }

  /**
   * The order's actions once there are `actions` and all are settled, with the store's webhooks
   * idle, and the service's events: `events` of them, none beyond.
   */
  async function settleActions(orderId: string, actions: number, events: number) {
    const rows = await waitFor(
      `${actions} settled actions of order ${orderId}`,
      settledActions(db, shop, orderId, actions),
      explain,
    );
    const idle = await control("webhooks/idle?timeout_ms=20000");
    expect(idle.body.idle).toBe(true);
    const received = await serviceEvents(orderId, events);
    expect(received, "no event beyond those expected").toHaveLength(events);
    return { rows, events: received };
  }

  async function webhookDeliveries() {
    return (await control("webhooks")).body.deliveries as StoreWebhookDelivery[];
  }

  /** The store's log of the app's Admin GraphQL requests. */
  async function graphqlRequests() {
    return (await control("graphql")).body.requests as (StoreGraphqlRequest & {
      idempotency_key: string | null;
    })[];
  }

  /**
   * A webhook's body sent to the app again, signed, once with each pair of IDs: the same IDs as
   * Shopify's retry, new ones as a replay. The app must answer each 200.
   */
  async function redeliver(topic: string, body: string, ids: StoreWebhookDelivery) {
    for (const headerIds of [
      { webhookId: ids.webhook_id, eventId: ids.event_id },
      { webhookId: crypto.randomUUID(), eventId: crypto.randomUUID() },
    ]) {
      const answer = await fetch(`${app.server.url}/webhooks/${topic}`, {
        method: "POST",
        headers: shopifyWebhookHeaders({
          topic,
          shop,
          body,
          secret: TEST_API_SECRET,
          ...headerIds,
        }),
        body,
      });
      expect(answer.status).toBe(200);
    }
  }

  beforeAll(async () => {
    app = await startAppAgainstStore();
    db = (await import("../../app/db.server")).default;
    await control("shops", {
      shop,
      app_url: app.server.url,
      api_key: TEST_API_KEY,
      api_secret: TEST_API_SECRET,
    });
    await control(`shops/${shop}/install`, {});
    await connectShop(db, shop);
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

  return {
    get app() {
      return app;
    },
    get db() {
      return db;
    },
    variants,
    control,
    placeOrder,
    storeOrder,
    settleActions,
    webhookDeliveries,
    graphqlRequests,
    redeliver,
  };
}

/** A product and the plan that protects it, sold by a shop of the file's store. */
export interface ProtectedProduct {
  product: string;
  plan: string;
}

/**
 * `shop` installed in the file's store and connected, selling a product and its plan ("Accident
 * protection", 2 years): headphones at 199.00 with a plan at 29.00 unless told otherwise.
 */
export async function installShopWithPlan(
  db: AppPrismaClient,
  shop: string,
  sells: { product: string; price: string; planPrice: string } = {
    product: "Headphones",
    price: "199.00",
    planPrice: "29.00",
  },
): Promise<ProtectedProduct & { accessToken: string }> {
  const { accessToken } = await installInStore(db, shop);
  await connectShop(db, shop);
  const product = await createStoreProduct(shop, {
    title: sells.product,
    variants: [{ title: "Default Title", price: sells.price }],
  });
  const plan = await createStoreProduct(shop, {
    title: "Accident protection",
    variants: [{ title: "2 years", price: sells.planPrice, requires_shipping: false }],
  });
  return { product: product.variants[0]!.id, plan: plan.variants[0]!.id, accessToken };
}

/** A paid order of `quantity` units of the product and as many of its plan; webhooks handled. */
export async function placeProtectedOrder(
  shop: string,
  { product, plan }: ProtectedProduct,
  quantity: number,
) {
  const placed = await storeControl<StoreOrder>(`shops/${shop}/orders`, {
    line_items: [
      { variant_id: product, quantity },
      {
        variant_id: plan,
        quantity,
        requires_shipping: false,
        properties: [{ name: "_svc_protected_product_ref", value: product }],
      },
    ],
  });
  expect(placed.status).toBe(201);
  await storeWebhooksIdle();
  const [productLine, planLine] = placed.body.line_items.map((line) => String(line.id));
  return {
    orderId: String(placed.body.id),
    name: placed.body.name,
    productLine: productLine!,
    planLine: planLine!,
  };
}

/** The merchant cancels `quantity` units of a line in a refund; webhooks handled. */
export async function refundInStore(
  shop: string,
  orderId: string,
  lineId: string,
  quantity: number,
): Promise<StoreRefund> {
  const refunded = await storeControl<StoreRefund>(`shops/${shop}/orders/${orderId}/refunds`, {
    refund_line_items: [{ line_item_id: lineId, quantity, restock_type: "cancel" }],
  });
  expect(refunded.status).toBe(201);
  await storeWebhooksIdle();
  return refunded.body;
}

/** The merchant fulfils `quantity` units of a line; webhooks handled. */
export async function fulfilInStore(
  shop: string,
  orderId: string,
  lineId: string,
  quantity: number,
): Promise<void> {
  const fulfilled = await storeControl(`shops/${shop}/orders/${orderId}/fulfillments`, {
    line_items: [{ id: lineId, quantity }],
  });
  expect(fulfilled.status).toBe(201);
  await storeWebhooksIdle();
}

export async function orderInStore(shop: string, orderId: string): Promise<StoreOrder> {
  return (await storeControl<StoreOrder>(`shops/${shop}/orders/${orderId}`)).body;
}

/** How many requests of the operation the store's log holds. */
export async function operationCount(name: string): Promise<number> {
  return (await storeGraphqlLog()).filter((request) => request.operation_name === name).length;
}

export function actionsOf(
  db: AppPrismaClient,
  shop: string,
  orderId: string,
): Promise<ShopifyAction[]> {
  return db.shopifyAction.findMany({ where: { shop, orderId }, orderBy: { id: "asc" } });
}

/** An action worker of this process, with the shops' offline clients unless `adminFor` is given. */
export async function planActionWorker(
  db: AppPrismaClient,
  options: Omit<Partial<PlanActionWorkerOptions>, "db"> = {},
) {
  const { createPlanActionWorker } = await import("../../app/plan-actions/worker.server");
  const { offlineAdminFor } = await import("../../app/workers.server");
  return createPlanActionWorker({ db, adminFor: offlineAdminFor, ...options });
}

/** The lease of a worker made by `runThenCrash`. */
const CRASHED_WORKER = { workerId: "crashed-worker", leaseMs: 200 };

/**
 * Runs the queued `row` as a worker that claims it, renews its claim and records each mutation
 * before sending it, as the worker does, then dies: what came of the run is never recorded.
 * `dieBefore` makes it die as it is about to send the mutation it names, sending nothing.
 * Returns the run's outcome and the shop's client the run used.
 */
export async function runThenCrash<Outcome>(
  db: AppPrismaClient,
  row: ShopifyAction,
  run: (context: ActionContext, row: ShopifyAction) => Promise<Outcome>,
  dieBefore?: (request: string) => boolean,
): Promise<{ outcome: Outcome; graphql: AdminGraphql }> {
  const { claimDueActions, renewActionClaim } = await import("../../app/plan-actions/claim.server");
  const { offlineAdminFor } = await import("../../app/workers.server");
  expect(await claimDueActions(db, { ...CRASHED_WORKER, limit: 10 })).toEqual([row.id]);
  const graphql = (await offlineAdminFor(row.shop))!;
  const outcome = await run(
    {
      graphql,
      beforeMutation: async (request) => {
        if (dieBefore?.(request)) return false;
        return (await renewActionClaim(db, { ...CRASHED_WORKER, id: row.id, request })) !== null;
      },
    },
    row,
  );
  return { outcome, graphql };
}

/** Waits until the lease of a worker made by `runThenCrash` has run out. */
export async function crashedLeaseRunsOut(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, CRASHED_WORKER.leaseMs + 100));
}
