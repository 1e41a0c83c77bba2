import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EVENT_LOG_PAGE_SIZE } from "../../app/admin/event-filters";
import type { AppPrismaClient } from "../../app/db/client.server";
import type * as AttemptModel from "../../app/models/OutboxAttempt.server";
import { idempotencyKeyFor } from "../../app/outbox/idempotency";
import type * as DetailRoute from "../../app/routes/app.events.$id/route";
import type * as ReceiptRoute from "../../app/routes/app.events.receipts.$id";
import type * as ListRoute from "../../app/routes/app.events/route";
import type * as ShopRedactRoute from "../../app/routes/webhooks.shop.redact";
import { testDatabaseProvider } from "../support/databases";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { sessionToken } from "../support/session-token";
import { createOfflineSession } from "../support/offline-session";
import { adminRequest, callRoute, routeData, type RouteFunction } from "../support/routes";
import { readShopifyFixture, signedWebhookRequest } from "../support/webhooks";

// The admin's event log through its real loaders and actions, with App Bridge session tokens:
// what a shop sees, how it pages and filters, retries, and that it never reaches another shop.
const provider = testDatabaseProvider();
const SHOP = "events-a.myshopify.com";
const OTHER_SHOP = "events-b.myshopify.com";
/** The one shop connected to the emulator: its events are really sent. */
const SENDING_SHOP = "events-c.myshopify.com";

// The routes read the configuration when they load: after withOutboxApp pointed it at the
// emulator.
const app = withOutboxApp();
let prisma: AppPrismaClient;
let detailLoader: typeof DetailRoute.loader;
let detailAction: typeof DetailRoute.action;
let receiptLoader: typeof ReceiptRoute.loader;
let listLoader: typeof ListRoute.loader;
let listAction: typeof ListRoute.action;
let shopRedact: typeof ShopRedactRoute.action;
let attempts: typeof AttemptModel;

beforeAll(async () => {
  prisma = app.prisma;
  ({ loader: detailLoader, action: detailAction } =
    await import("../../app/routes/app.events.$id/route"));
  ({ loader: receiptLoader } = await import("../../app/routes/app.events.receipts.$id"));
  ({ loader: listLoader, action: listAction } = await import("../../app/routes/app.events/route"));
  ({ action: shopRedact } = await import("../../app/routes/webhooks.shop.redact"));
  attempts = await import("../../app/models/OutboxAttempt.server");
});

const STATUSES = ["delivered", "pending", "failed", "dead", "delivered", "unprocessable"] as const;
const TYPES = [
  "order_placed",
  "order_fulfillment_added",
  "order_refund_added",
  "order_line_items_cancelled",
  "order_cancelled",
] as const;
const TOPICS = ["orders/create", "fulfillments/create", "refunds/create", "orders/cancelled"];
const RECEIPT_STATUSES = ["processed", "processed", "ignored", "unprocessable"] as const;
/** Above 2^53: must come back exactly as stored. */
const BIG_ORDER_ID = "820982911946154508";

/** A loader or action called as the admin calls it: with the shop's session token. */
function call<Result>(
  route: RouteFunction<Result>,
  path: string,
  options: { shop?: string; params?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<Result | Response> {
  const request = adminRequest(options.shop ?? SHOP, path, { form: options.form });
  return callRoute(route, request, options.params);
}

type ListData = Awaited<ReturnType<typeof listLoader>>;
type EventsPage = Extract<ListData, { view: "events" }>;
type ReceiptsPage = Extract<ListData, { view: "webhooks" }>;

async function eventsPage(search = "", shop = SHOP): Promise<EventsPage> {
  const result = routeData(await call(listLoader, `/app/events${search}`, { shop }));
  if (result.view !== "events") throw new Error(`Expected the events tab, got ${result.view}`);
  return result;
}

async function receiptsPage(search: string): Promise<ReceiptsPage> {
  const result = routeData(await call(listLoader, `/app/events${search}`));
  if (result.view !== "webhooks") throw new Error(`Expected the webhooks tab, got ${result.view}`);
  return result;
}

interface SeededEvent {
  id: number;
  shop: string;
  status: string;
  eventType: string;
  environment: string;
  orderId: string;
}
interface SeededReceipt {
  id: string;
  shop: string;
  status: string;
  topic: string;
  orderId: string | null;
  receivedAt: Date;
}

let events: SeededEvent[] = [];
let receipts: SeededReceipt[] = [];

const eventsOf = (shop: string, keep: (event: SeededEvent) => boolean = () => true) =>
  events
    .filter((event) => event.shop === shop && keep(event))
    .map((event) => event.id)
    .sort((a, b) => b - a);

/** Newest first by (receivedAt, id), as the log orders them. */
const receiptsOf = (keep: (receipt: SeededReceipt) => boolean = () => true) =>
  receipts
    .filter((receipt) => receipt.shop === SHOP && keep(receipt))
    .sort(
      (a, b) =>
        b.receivedAt.getTime() - a.receivedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    )
    .map((receipt) => receipt.id);

/**
 * 120 events of SHOP and 40 of OTHER_SHOP, interleaved so that the other shop's ids sit between
 * this shop's (every third id); 120 receipts of SHOP that share their receivedAt in threes, so
 * paging must break ties by id.
 */
async function seed() {
  const rows = Array.from({ length: 160 }, (_, i) => {
    const shop = i % 4 === 3 ? OTHER_SHOP : SHOP;
    const order = String(5_558_016_000_000 + Math.floor(i / 3));
    return {
      shop,
      environment: i % 5 === 0 ? "production" : "sandbox",
      orderId: i === 0 ? BIG_ORDER_ID : order,
      eventType: TYPES[i % TYPES.length]!,
      dedupeKey: `${shop}:${i}`,
      payload: `{"type":"${TYPES[i % TYPES.length]}","payload":{"order_id":"${order}","n":${i}}}`,
      status: STATUSES[i % STATUSES.length]!,
      attempts: i % 4,
    };
  });
  // One multi-row insert: ids follow the rows' order, so the shops' ids interleave.
  await prisma.outboxEvent.createMany({ data: rows });
  events = await prisma.outboxEvent.findMany({
    select: {
      id: true,
      shop: true,
      status: true,
      eventType: true,
      environment: true,
      orderId: true,
    },
    orderBy: { id: "asc" },
  });
  expect(new Set(events.slice(0, 8).map((event) => event.shop)).size).toBe(2);

  const base = Date.parse("2026-11-21T08:00:00.000Z");
  const receiptRows = Array.from({ length: 150 }, (_, i) => {
    const shop = i % 5 === 4 ? OTHER_SHOP : SHOP;
    return {
      shop,
      topic: TOPICS[i % TOPICS.length]!,
      webhookId: `webhook-${i}`,
      orderId: i % 10 === 9 ? null : String(5_558_016_000_000 + Math.floor(i / 4)),
      status: RECEIPT_STATUSES[i % RECEIPT_STATUSES.length]!,
      detail: `receipt ${i}`,
      payload: i % RECEIPT_STATUSES.length === 3 ? "{not json" : null,
      receivedAt: new Date(base + Math.floor(i / 3) * 1_000),
    };
  });
  await prisma.webhookReceipt.createMany({ data: receiptRows });
  receipts = await prisma.webhookReceipt.findMany({
    select: { id: true, shop: true, status: true, topic: true, orderId: true, receivedAt: true },
  });
}

beforeEach(async () => {
  await prisma.shopifyAction.deleteMany({});
  await prisma.outboxAttempt.deleteMany({});
  await prisma.outboxEvent.deleteMany({});
  await prisma.webhookReceipt.deleteMany({});
  await prisma.shopConnection.deleteMany({});
  await prisma.session.deleteMany({});
  for (const shop of [SHOP, OTHER_SHOP, SENDING_SHOP]) {
    await createOfflineSession(prisma, shop, `shpat_${shop}`);
  }
  await seed();
});

describe(`admin event log: list (${provider})`, () => {
  it("lists the shop's events newest first, 50 a page, with counts by status", async () => {
    const page = await eventsPage();
    const expected = eventsOf(SHOP);
    expect(expected).toHaveLength(120);
    expect(page.events.map((event) => event.id)).toEqual(expected.slice(0, EVENT_LOG_PAGE_SIZE));
    expect(page.newerCursor).toBeUndefined();
    expect(page.olderCursor).toBe(String(expected[EVENT_LOG_PAGE_SIZE - 1]));
    expect(page.events[0]).not.toHaveProperty("payload");

    const counts: Record<string, number> = {};
    for (const event of events.filter((e) => e.shop === SHOP)) {
      counts[event.status] = (counts[event.status] ?? 0) + 1;
    }
    expect(page.counts).toEqual(counts);
  });

  it("does not read the list when it only frames an event's page", async () => {
    const result = routeData(await call(listLoader, `/app/events/${eventsOf(SHOP)[0]}`));
    expect(result).toEqual({ view: "child" });
  });

  it.each([
    ["status", "?status=dead", (e: SeededEvent) => e.status === "dead"],
    ["type", "?type=order_refund_added", (e: SeededEvent) => e.eventType === "order_refund_added"],
    ["environment", "?env=production", (e: SeededEvent) => e.environment === "production"],
    ["order ID", "?order=5558016000003", (e: SeededEvent) => e.orderId === "5558016000003"],
    [
      "order ID above 2^53",
      `?order=${BIG_ORDER_ID}`,
      (e: SeededEvent) => e.orderId === BIG_ORDER_ID,
    ],
    [
      "status and type together",
      "?status=delivered&type=order_placed",
      (e: SeededEvent) => e.status === "delivered" && e.eventType === "order_placed",
    ],
  ])("filters events by %s", async (_name, search, keep) => {
    const expected = eventsOf(SHOP, keep);
    expect(expected.length).toBeGreaterThan(0);
    const page = await eventsPage(search);
    expect(page.events.map((event) => event.id)).toEqual(expected.slice(0, EVENT_LOG_PAGE_SIZE));
  });

  it("shows each order by its name where a webhook named it, by its ID where none did", async () => {
    await prisma.outboxEvent.updateMany({
      where: { shop: SHOP, orderId: BIG_ORDER_ID },
      data: { orderName: "#1001" },
    });
    const named = receipts.find((receipt) => receipt.shop === SHOP && receipt.orderId)!;
    await prisma.webhookReceipt.update({ where: { id: named.id }, data: { orderName: "#1002" } });

    const page = await eventsPage(`?order=${BIG_ORDER_ID}`);
    expect(page.events.length).toBeGreaterThan(0);
    expect(page.events.every((event) => event.orderName === "#1001")).toBe(true);
    const others = await eventsPage("?order=5558016000003");
    expect(others.events.map((event) => event.orderName)).toEqual(others.events.map(() => null));
    const webhooks = await receiptsPage(`?tab=webhooks&order=${named.orderId}`);
    const row = webhooks.receipts.find((receipt) => receipt.id === named.id);
    expect(row?.orderName).toBe("#1002");

    const detail = routeData(
      await call(detailLoader, `/app/events/${page.events[0]!.id}`, {
        params: { id: String(page.events[0]!.id) },
      }),
    );
    expect(detail.event).toMatchObject({ orderId: BIG_ORDER_ID, orderName: "#1001" });
    const receipt = routeData(
      await call(receiptLoader, `/app/events/receipts/${named.id}`, { params: { id: named.id } }),
    );
    expect(receipt.receipt).toMatchObject({ orderId: named.orderId, orderName: "#1002" });
  });

  it("ignores a filter value that is not valid, and says which", async () => {
    const page = await eventsPage("?status=lost&order=12a");
    expect(page.query.invalid).toEqual(["order", "status"]);
    expect(page.events.map((event) => event.id)).toEqual(
      eventsOf(SHOP).slice(0, EVENT_LOG_PAGE_SIZE),
    );
  });

  it.each([
    ["status", "&status=unprocessable", (r: SeededReceipt) => r.status === "unprocessable"],
    ["topic", "&type=refunds/create", (r: SeededReceipt) => r.topic === "refunds/create"],
    ["order ID", "&order=5558016000005", (r: SeededReceipt) => r.orderId === "5558016000005"],
  ])("filters webhooks by %s", async (_name, search, keep) => {
    const expected = receiptsOf(keep);
    expect(expected.length).toBeGreaterThan(0);
    const page = await receiptsPage(`?tab=webhooks${search}`);
    expect(page.receipts.map((receipt) => receipt.id)).toEqual(expected);
  });

  it("pages through 120 events with no duplicate and no gap, and back", async () => {
    const seen: number[][] = [];
    let search = "";
    for (;;) {
      const page = await eventsPage(search);
      seen.push(page.events.map((event) => event.id));
      if (!page.olderCursor) break;
      search = `?before=${page.olderCursor}`;
    }
    expect(seen.map((ids) => ids.length)).toEqual([50, 50, 20]);
    expect(seen.flat()).toEqual(eventsOf(SHOP));

    // Newer from the last page gives the middle page again, then the first.
    const last = await eventsPage(search);
    const middle = await eventsPage(`?after=${last.newerCursor}`);
    expect(middle.events.map((event) => event.id)).toEqual(seen[1]);
    const first = await eventsPage(`?after=${middle.newerCursor}`);
    expect(first.events.map((event) => event.id)).toEqual(seen[0]);
    expect(first.newerCursor).toBeUndefined();
  });

  it("pages with a filter applied, keeping the filter", async () => {
    const keep = (e: SeededEvent) => e.environment === "sandbox";
    const expected = eventsOf(SHOP, keep);
    const first = await eventsPage("?env=sandbox");
    const second = await eventsPage(`?env=sandbox&before=${first.olderCursor}`);
    expect([...first.events, ...second.events].map((event) => event.id)).toEqual(expected);
    expect(second.olderCursor).toBeUndefined();
  });

  it("pages through the webhooks by (receivedAt, id), ties included, and back", async () => {
    const seen: string[][] = [];
    let search = "?tab=webhooks";
    for (;;) {
      const page = await receiptsPage(search);
      seen.push(page.receipts.map((receipt) => receipt.id));
      if (!page.olderCursor) break;
      search = `?tab=webhooks&before=${page.olderCursor}`;
    }
    expect(seen.map((ids) => ids.length)).toEqual([50, 50, 20]);
    expect(seen.flat()).toEqual(receiptsOf());

    const last = await receiptsPage(search);
    const middle = await receiptsPage(`?tab=webhooks&after=${last.newerCursor}`);
    expect(middle.receipts.map((receipt) => receipt.id)).toEqual(seen[1]);
  });
});

describe(`admin event log: one event (${provider})`, () => {
  it("shows the payload as sent, the service's answer and its validation errors", async () => {
    const answer = {
      status: 400,
      error: {
        error_code: "invalid_request",
        validation_errors: [
          { field: "payload.line_items[0].price_amount", message: "must be greater than 0" },
        ],
      },
    };
    const id = eventsOf(SHOP, (e) => e.orderId === BIG_ORDER_ID)[0]!;
    await prisma.outboxEvent.update({
      where: { id },
      data: {
        status: "dead",
        payload: `{"type":"order_placed","payload":{"order_id":${BIG_ORDER_ID}}}`,
        lastResponse: JSON.stringify(answer),
        lastError: "400 invalid_request",
        attempts: 1,
        lastAttemptAt: new Date("2026-11-21T09:00:00.000Z"),
      },
    });

    const detail = routeData(
      await call(detailLoader, `/app/events/${id}`, { params: { id: String(id) } }),
    );
    expect(detail.event).toMatchObject({
      id,
      status: "dead",
      orderId: BIG_ORDER_ID,
      attempts: 1,
      lastError: "400 invalid_request",
      lastAttemptAt: "2026-11-21T09:00:00.000Z",
    });
    expect(detail.answer).toEqual({
      status: 400,
      errorCode: "invalid_request",
      summary: null,
      validationErrors: [
        { field: "payload.line_items[0].price_amount", message: "must be greater than 0" },
      ],
    });
    expect(detail.payload).toContain(`"order_id": ${BIG_ORDER_ID}`);
    expect(detail.response).toBe(JSON.stringify(answer, null, 2));
    expect(detail.orderEvents.map((event) => event.id)).toEqual(
      [...eventsOf(SHOP, (e) => e.orderId === BIG_ORDER_ID)].reverse(),
    );
  });

  it("shows a webhook received, with the body kept when it could not be read", async () => {
    const receipt = receipts.find((r) => r.shop === SHOP && r.status === "unprocessable")!;
    const detail = routeData(
      await call(receiptLoader, `/app/events/receipts/${receipt.id}`, {
        params: { id: receipt.id },
      }),
    );
    expect(detail.receipt).toMatchObject({ id: receipt.id, topic: receipt.topic });
    expect(detail.payload).toBe("{not json");
  });

  it("answers 404 for an id that is not a number or does not exist", async () => {
    for (const id of ["abc", "999999999"]) {
      const result = await call(detailLoader, `/app/events/${id}`, { params: { id } });
      expect((result as Response).status).toBe(404);
    }
  });
});

describe(`admin event log: the app's actions on the order (${provider})`, () => {
  const action = (shop: string, orderId: string, planLineId: string, fields: object) => ({
    shop,
    orderId,
    kind: "refund_plan_line",
    triggerId: "9130000000001",
    planLineId,
    triggerLines: '[{"lineItemId":"1","quantity":1}]',
    ...fields,
  });

  it("lists the order's actions in order: the refund made, the reasons, the next attempt", async () => {
    const id = eventsOf(SHOP, (e) => e.orderId === BIG_ORDER_ID)[0]!;
    const nextAttemptAt = new Date("2026-11-25T10:00:00.000Z");
    await prisma.shopifyAction.createMany({
      data: [
        action(SHOP, BIG_ORDER_ID, "101", {
          status: "done",
          attempts: 1,
          refundId: "9130000000777",
          amount: "49.0",
          currency: "EUR",
          quantity: 1,
          detail: "Plan refunded with its product on order #1001: 49.0 EUR, 1 unit(s)",
        }),
        action(SHOP, BIG_ORDER_ID, "102", {
          status: "dead",
          attempts: 1,
          lastError: "Shopify refused the plan refund on #1001: Line item is not refundable",
        }),
        action(SHOP, BIG_ORDER_ID, "103", {
          status: "skipped",
          detail: "Not refunded: refunding plans with their products is off in the app's settings",
        }),
        action(SHOP, BIG_ORDER_ID, "104", {
          status: "failed",
          attempts: 2,
          nextAttemptAt,
          lastError: "refundCreate: Shopify answered HTTP 503",
        }),
        // Another order of the shop, and the same order ID in another shop: never shown.
        action(SHOP, "5558016000001", "201", { status: "done", refundId: "1" }),
        action(OTHER_SHOP, BIG_ORDER_ID, "301", { status: "done", refundId: "2" }),
      ],
    });

    const detail = routeData(
      await call(detailLoader, `/app/events/${id}`, { params: { id: String(id) } }),
    );
    expect(detail.orderActions).toEqual([
      expect.objectContaining({
        kind: "refund_plan_line",
        status: "done",
        refundId: "9130000000777",
        amountMinorUnits: 4900,
        currency: "EUR",
      }),
      expect.objectContaining({
        status: "dead",
        reason: "Shopify refused the plan refund on #1001: Line item is not refundable",
      }),
      expect.objectContaining({
        status: "skipped",
        reason: "Not refunded: refunding plans with their products is off in the app's settings",
      }),
      expect.objectContaining({
        status: "failed",
        attempts: 2,
        nextAttemptAt: nextAttemptAt.toISOString(),
        reason: "refundCreate: Shopify answered HTTP 503",
      }),
    ]);
    const ids = detail.orderActions.map((shown) => shown.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("lists the first 50 actions of an order, and none for an order the app did not act on", async () => {
    const id = eventsOf(SHOP, (e) => e.orderId === BIG_ORDER_ID)[0]!;
    const quiet = eventsOf(SHOP, (e) => e.orderId !== BIG_ORDER_ID)[0]!;
    await prisma.shopifyAction.createMany({
      data: Array.from({ length: 52 }, (_, i) =>
        action(SHOP, BIG_ORDER_ID, String(1000 + i), { status: "pending" }),
      ),
    });
    const detail = routeData(
      await call(detailLoader, `/app/events/${id}`, { params: { id: String(id) } }),
    );
    const seeded = await prisma.shopifyAction.findMany({ orderBy: { id: "asc" } });
    expect(detail.orderActions.map((shown) => shown.id)).toEqual(
      seeded.slice(0, 50).map((row) => row.id),
    );

    const none = routeData(
      await call(detailLoader, `/app/events/${quiet}`, { params: { id: String(quiet) } }),
    );
    expect(none.orderActions).toEqual([]);
  });
});

describe(`admin event log: retry (${provider})`, () => {
  it("sends a dead event again from its page: pending now, with a fresh retry window", async () => {
    const id = eventsOf(SHOP, (e) => e.status === "dead")[0]!;
    await prisma.outboxEvent.update({
      where: { id },
      data: { firstFailedAt: new Date("2026-11-18T00:00:00Z"), nextAttemptAt: new Date(0) },
    });
    const before = Date.now();
    const result = routeData(
      await call(detailAction, `/app/events/${id}`, {
        params: { id: String(id) },
        form: { intent: "retry", id: String(id) },
      }),
    );
    expect(result).toEqual({ intent: "retry", outcome: "retried", id, status: "pending" });
    const row = await prisma.outboxEvent.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe("pending");
    expect(row.firstFailedAt).toBeNull();
    expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
  });

  it("sends a failed event again from the list", async () => {
    const id = eventsOf(SHOP, (e) => e.status === "failed")[0]!;
    const result = routeData(
      await call(listAction, "/app/events", { form: { intent: "retry", id: String(id) } }),
    );
    expect(result).toMatchObject({ outcome: "retried", status: "pending" });
    expect((await prisma.outboxEvent.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
  });

  it("leaves a delivered event as it is and says why", async () => {
    const id = eventsOf(SHOP, (e) => e.status === "delivered")[0]!;
    const before = await prisma.outboxEvent.findUniqueOrThrow({ where: { id } });
    const result = routeData(
      await call(detailAction, `/app/events/${id}`, {
        params: { id: String(id) },
        form: { intent: "retry", id: String(id) },
      }),
    );
    expect(result).toEqual({ intent: "retry", outcome: "not_retryable", id, status: "delivered" });
    expect(await prisma.outboxEvent.findUniqueOrThrow({ where: { id } })).toEqual(before);
  });

  it("sends every dead event of the shop again, and none of another shop", async () => {
    const dead = eventsOf(SHOP, (e) => e.status === "dead");
    const otherDead = eventsOf(OTHER_SHOP, (e) => e.status === "dead");
    expect(otherDead.length).toBeGreaterThan(0);
    const result = routeData(
      await call(listAction, "/app/events", { form: { intent: "retry_dead" } }),
    );
    expect(result).toEqual({ intent: "retry_dead", outcome: "retried", count: dead.length });
    expect(await prisma.outboxEvent.count({ where: { shop: SHOP, status: "dead" } })).toBe(0);
    expect(await prisma.outboxEvent.count({ where: { id: { in: dead }, status: "pending" } })).toBe(
      dead.length,
    );
    expect(await prisma.outboxEvent.count({ where: { shop: OTHER_SHOP, status: "dead" } })).toBe(
      otherDead.length,
    );
  });

  it("refuses an unknown intent", async () => {
    const result = await call(listAction, "/app/events", { form: { intent: "delete" } });
    expect((result as Response).status).toBe(400);
  });
});

describe(`admin event log: shop isolation (${provider})`, () => {
  it("never lists another shop's events or webhooks, whatever the filter or cursor", async () => {
    const otherIds = new Set(eventsOf(OTHER_SHOP));
    const otherOrder = events.find((e) => e.shop === OTHER_SHOP)!.orderId;
    const pages = [
      await eventsPage(),
      await eventsPage(`?before=${Math.max(...otherIds) + 1}`),
      await eventsPage("?status=dead"),
    ];
    for (const page of pages) {
      expect(page.events.length).toBeGreaterThan(0);
      for (const event of page.events) expect(otherIds.has(event.id)).toBe(false);
    }
    const byOtherOrder = await eventsPage(`?order=${otherOrder}`);
    expect(byOtherOrder.events.every((event) => !otherIds.has(event.id))).toBe(true);

    const otherReceipts = new Set(receipts.filter((r) => r.shop === OTHER_SHOP).map((r) => r.id));
    const webhooks = await receiptsPage("?tab=webhooks");
    expect(webhooks.receipts.some((receipt) => otherReceipts.has(receipt.id))).toBe(false);
  });

  it("answers 404 for another shop's event and webhook, with none of their data", async () => {
    const id = eventsOf(OTHER_SHOP)[0]!;
    const result = await call(detailLoader, `/app/events/${id}`, { params: { id: String(id) } });
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(404);
    expect(await (result as Response).text()).not.toContain(OTHER_SHOP);

    const receipt = receipts.find((r) => r.shop === OTHER_SHOP)!;
    const receiptResult = await call(receiptLoader, `/app/events/receipts/${receipt.id}`, {
      params: { id: receipt.id },
    });
    expect((receiptResult as Response).status).toBe(404);
  });

  it("answers 404 to a retry of another shop's event and changes nothing", async () => {
    const otherRows = () =>
      prisma.outboxEvent.findMany({ where: { shop: OTHER_SHOP }, orderBy: { id: "asc" } });
    const before = await otherRows();
    const id = eventsOf(OTHER_SHOP, (e) => e.status === "dead")[0]!;

    const fromPage = await call(detailAction, `/app/events/${id}`, {
      params: { id: String(id) },
      form: { intent: "retry", id: String(id) },
    });
    const fromList = await call(listAction, "/app/events", {
      form: { intent: "retry", id: String(id) },
    });
    expect((fromPage as Response).status).toBe(404);
    expect((fromList as Response).status).toBe(404);
    expect(await otherRows()).toEqual(before);

    // The other shop's own session does see and retry it.
    const own = routeData(
      await call(listAction, "/app/events", {
        shop: OTHER_SHOP,
        form: { intent: "retry", id: String(id) },
      }),
    );
    expect(own).toMatchObject({ outcome: "retried" });
  });

  it("refuses a request without a valid session token and changes nothing", async () => {
    const id = eventsOf(SHOP, (e) => e.status === "dead")[0]!;
    const token = sessionToken(SHOP, { secret: "forged" });
    const read = await callRoute(listLoader, adminRequest(SHOP, "/app/events", { token }));
    const form = { intent: "retry", id: String(id) };
    const retry = await callRoute(listAction, adminRequest(SHOP, "/app/events", { form, token }));
    expect((read as Response).status).toBe(401);
    expect((retry as Response).status).toBe(401);
    expect((await prisma.outboxEvent.findUniqueOrThrow({ where: { id } })).status).toBe("dead");
  });
});

describe(`admin event log: each attempt (${provider})`, () => {
  const ORDER_ID = "5558016491833";

  type Detail = Exclude<Awaited<ReturnType<typeof detailLoader>>, Response>;

  async function detailOf(id: number, shop = SENDING_SHOP): Promise<Detail> {
    return routeData(
      await call(detailLoader, `/app/events/${id}`, { shop, params: { id: String(id) } }),
    );
  }

  /** orders/create of the sample lifecycle, through the signed webhook route: one event. */
  async function placeOrder() {
    const body = app.webhooks.readLifecycleFixture("orders-create.json");
    const answer = await app.webhooks.sendOrderWebhook({
      topic: "orders/create",
      shop: SENDING_SHOP,
      body,
    });
    expect(answer.status).toBe(200);
    return prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SENDING_SHOP, orderId: ORDER_ID, eventType: "order_placed" },
    });
  }

  async function sentKeys() {
    const requests = await app.control.requests();
    return requests
      .filter((request) => request.path.endsWith("/events"))
      .map((request) => request.headers["idempotency-key"]);
  }

  const drain = (workerId: string) =>
    app.worker.createOutboxWorker({ db: prisma, workerId }).drain();

  beforeEach(async () => {
    await app.control.reset();
    await connectShop(app.prisma, SENDING_SHOP);
  });

  it("lists a send cut off by a crash, a 503 and the delivery, in order, with the one key", async () => {
    const event = await placeOrder();
    const key = idempotencyKeyFor(SENDING_SHOP, event.dedupeKey);

    // A worker claims the event, starts its send and dies before the request goes out.
    const claimed = await app.claim.claimDueEvents(prisma, {
      workerId: "crashed",
      limit: 10,
      leaseMs: 1,
    });
    expect(claimed).toEqual([event.id]);
    expect(
      await app.claim.startSend(prisma, { id: event.id, workerId: "crashed", leaseMs: 1 }),
    ).toMatchObject({ attempt: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));

    // The next worker takes it over once the lease ran out; the service answers 503.
    await app.control.control("faults", {
      method: "POST",
      body: { count: 1, status: 503, match: { path: "/sandbox/events" } },
    });
    await drain("second");
    expect(await prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({
      status: "failed",
      attempts: 2,
    });
    await prisma.outboxEvent.update({
      where: { id: event.id },
      data: { nextAttemptAt: new Date(0) },
    });
    await drain("third");

    const detail = await detailOf(event.id);
    expect(detail.event).toMatchObject({ status: "delivered", attempts: 3 });
    expect(detail.attemptLog.idempotencyKey).toBe(key);
    expect(detail.attemptLog.cutOff).toBe(1);
    expect(detail.attemptLog.loggedTotal).toBe(2);
    expect(
      detail.attemptLog.entries.map((entry) =>
        entry.kind === "logged"
          ? [entry.attempt.attempt, entry.attempt.outcome, entry.attempt.httpStatus]
          : [entry.kind],
      ),
    ).toEqual([["cut_off"], [2, "retry", 503], [3, "delivered", 200]]);
    const logged = detail.attemptLog.entries.flatMap((entry) =>
      entry.kind === "logged" ? [entry.attempt] : [],
    );
    expect(logged.map((attempt) => attempt.workerId)).toEqual(["second", "third"]);
    expect(logged.every((attempt) => attempt.otherKey === null)).toBe(true);
    expect(logged[0]!.detail).toContain("503");
    for (const attempt of logged) {
      expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(attempt.startedAt)).not.toBeNaN();
    }
    // Both sends that reached the service carried the key the page shows.
    expect(await sentKeys()).toEqual([key, key]);
    expect(detail.accepted).toBeNull();
  });

  it("shows an event accepted by a 2xx without event_id, with the answer as received", async () => {
    const event = await placeOrder();
    await app.control.control("faults", {
      method: "POST",
      body: { count: 1, status: 202, raw_body: "queued", match: { path: "/sandbox/events" } },
    });
    await drain("only");

    const detail = await detailOf(event.id);
    expect(detail.event).toMatchObject({ status: "delivered", serviceEventId: null });
    expect(detail.accepted).toEqual({ httpStatus: 202, raw: "queued" });
    expect(detail.attemptLog.entries).toMatchObject([
      { kind: "logged", attempt: { attempt: 1, outcome: "delivered", httpStatus: 202 } },
    ]);
    expect(detail.attemptLog.cutOff).toBe(0);
  });

  it("shows none of another shop's attempts, and 404s its event", async () => {
    const event = await placeOrder();
    await drain("only");
    expect(await attempts.listEventAttempts(prisma, SENDING_SHOP, event.id)).toHaveLength(1);

    expect(await attempts.listEventAttempts(prisma, SHOP, event.id)).toEqual([]);
    const result = await call(detailLoader, `/app/events/${event.id}`, {
      shop: SHOP,
      params: { id: String(event.id) },
    });
    expect((result as Response).status).toBe(404);
    expect(await (result as Response).text()).not.toContain(SENDING_SHOP);
  });

  it("shows the latest sends of an event retried for days, oldest of them first", async () => {
    const event = await placeOrder();
    const key = idempotencyKeyFor(SENDING_SHOP, event.dedupeKey);
    const started = Date.parse("2026-11-21T08:00:00.000Z");
    // 130 logged sends, with send 120 cut off; the counter says 131 were started.
    const numbers = Array.from({ length: 131 }, (_, index) => index + 1).filter((n) => n !== 120);
    await prisma.outboxAttempt.createMany({
      data: numbers.map((attempt) => ({
        eventId: event.id,
        shop: SENDING_SHOP,
        attempt,
        environment: "sandbox",
        workerId: `worker-${attempt % 3}`,
        idempotencyKey: key,
        startedAt: new Date(started + attempt * 60_000),
        finishedAt: new Date(started + attempt * 60_000 + 250),
        outcome: "retry",
        httpStatus: 503,
        detail: `retryable server_error 503 (send ${attempt})`,
      })),
    });
    await prisma.outboxEvent.update({
      where: { id: event.id },
      data: { status: "failed", attempts: 131 },
    });

    const { attemptLog } = await detailOf(event.id);
    expect(attemptLog.loggedTotal).toBe(130);
    expect(attemptLog.earlierLogged).toBe(30);
    expect(attemptLog.cutOff).toBe(1);
    const shown = attemptLog.entries.map((entry) =>
      entry.kind === "logged" ? entry.attempt.attempt : entry.kind,
    );
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) => from + index);
    expect(shown).toEqual([...range(31, 119), "cut_off", ...range(121, 131)]);
    expect(attemptLog.entries[0]).toMatchObject({ attempt: { durationMs: 250 } });
  });

  it("erases the shop's attempts on shop/redact, and no other shop's", async () => {
    const event = await placeOrder();
    await drain("only");
    const other = events.find((seeded) => seeded.shop === OTHER_SHOP)!;
    await prisma.outboxAttempt.create({
      data: {
        eventId: other.id,
        shop: OTHER_SHOP,
        attempt: 1,
        environment: "sandbox",
        workerId: "w",
        idempotencyKey: "k",
        startedAt: new Date(),
        finishedAt: new Date(),
        outcome: "delivered",
        httpStatus: 200,
      },
    });
    expect(await prisma.outboxAttempt.count({ where: { eventId: event.id } })).toBe(1);
    // Shopify sends shop/redact 48 hours after the uninstall (decision 045).
    await prisma.session.deleteMany({ where: { shop: SENDING_SHOP } });
    await prisma.shopConnection.update({
      where: { shop: SENDING_SHOP },
      data: { status: "uninstalled", uninstalledAt: new Date(Date.now() - 48 * 60 * 60 * 1_000) },
    });

    const body = readShopifyFixture("shop_redact", "shopify-docs-2026-04_gadget.json").replace(
      "{shop}.myshopify.com",
      SENDING_SHOP,
    );
    const response = await callRoute(
      shopRedact,
      signedWebhookRequest({ topic: "shop/redact", shop: SENDING_SHOP, body }),
    );
    expect(response.status).toBe(200);
    expect(await prisma.outboxAttempt.count({ where: { shop: SENDING_SHOP } })).toBe(0);
    expect(await prisma.outboxAttempt.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });
});
