import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "../../emulator/test-support";
import { eventTypeLabel } from "../../app/admin/components/event-log-ui";
import { orderLabel } from "../../app/admin/event-log";
import { idempotencyKeyFor } from "../../app/outbox/idempotency";
import { createTranslator, type Translate } from "../../app/i18n/translate";
import { launchChromium } from "../storefront/browser";
import {
  createStoreProduct,
  gidOf,
  installInStore,
  localStore,
  storeGraphqlLog,
  type StoreProduct,
} from "../support/local-store";
import { orderLifecycle } from "../support/order-lifecycle";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { repoRoot } from "../support/test-env";
import {
  deliverOrderWebhook,
  horizontalOverflow,
  openAdminPage,
  untranslatedKeys,
  waitForHydration,
  type OpenedAdminPage,
  type OpenOptions,
} from "./harness";
import { startAdminServer, type AdminServer } from "./server";

// Every admin page in Debian's Chromium, served by the built app (npm start) on a throwaway
// SQLite database, with App Bridge's CDN script answered by a local test double and Shopify
// played by the local store (the shops installed there, their products made there). Each page
// must render without a console error, show its title in English and German, and leave a
// 1280×900 screenshot in test/artifacts/admin-<page>[-de].png for a person to look at.

const SHOP = "svc-admin-demo.myshopify.com";
const EMPTY_SHOP = "svc-admin-empty.myshopify.com";
const ORDER_IDS = ["5558016491833", "5558016491834", "5558016491835"];
const DEAD_ORDER_ID = "5558016491901";
const FAILED_ORDER_ID = "5558016491902";
const ACCEPTED_ORDER_ID = "5558016491903";
const RECOVERED_ORDER_ID = "5558016491904";
const BACKFILLED_ORDER_ID = "5558016491905";
const DAY_MS = 24 * 60 * 60 * 1000;
const artifacts = path.join(repoRoot, "test/artifacts");

const app = withOutboxApp();
let server: AdminServer;
let browser: Browser;
const opened: BrowserContext[] = [];
const en = createTranslator("en");
const de = createTranslator("de");

/** The merchant's own product in the store, picked in the resource picker. */
let warranty: StoreProduct;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // Both shops installed in the store, with the offline sessions its token exchange gives.
  await connectShop(app.prisma, SHOP);
  await installInStore(app.prisma, SHOP);
  await installInStore(app.prisma, EMPTY_SHOP);
  warranty = await createStoreProduct(SHOP, {
    title: "Extended warranty",
    variants: [
      { title: "2 years", price: "49.00" },
      { title: "3 years", price: "79.90" },
    ],
  });
  server = await startAdminServer({
    shopifyAdminOrigin: localStore().url,
    env: { SVC_BASE_URL: app.emulator.url },
  });

  // Real order webhooks through the app: receipts, outbox events, order summaries, and the
  // embedded worker delivering them to the emulator's sandbox. The first order goes through
  // the whole sample lifecycle; the others are placed only.
  for (const orderId of ORDER_IDS) {
    const lifecycle = orderLifecycle(orderId);
    for (const delivery of orderId === ORDER_IDS[0] ? lifecycle : lifecycle.slice(0, 1)) {
      expect(await deliverOrderWebhook(server, SHOP, delivery.topic, delivery.body)).toBe(200);
    }
  }
  // A payload the app cannot map is kept as unprocessable, not lost.
  const unreadable = JSON.stringify({ id: 5558016491999, line_items: "?" });
  expect(await deliverOrderWebhook(server, SHOP, "orders/create", unreadable)).toBe(200);
  await waitUntil("the worker delivered every event", async () => {
    const open = await app.prisma.outboxEvent.count({
      where: { shop: SHOP, status: { in: ["pending", "delivering", "failed"] } },
    });
    return open === 0;
  });
  await seedFailures(app.prisma);
  await seedOrderActions(app.prisma);
  await seedProtectionItems(app.prisma);
  await seedReconciliation(app.prisma);
  browser = await launchChromium();
}, 120_000);

afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  if (server) expect(await server.stop()).toBe(0);
});

/**
 * A dead event (the service refused it with a 400), one waiting for its next attempt after two
 * 503s and a send cut off between them, and one the service accepted without an event_id.
 */
async function seedFailures(prisma: typeof app.prisma) {
  const placed = await prisma.outboxEvent.findFirstOrThrow({
    where: { shop: SHOP, orderId: ORDER_IDS[0], eventType: "order_placed" },
  });
  const payloadOf = (orderId: string) => placed.payload.replaceAll(ORDER_IDS[0]!, orderId);
  const now = Date.now();
  const dead = await prisma.outboxEvent.create({
    data: {
      shop: SHOP,
      environment: "sandbox",
      orderId: DEAD_ORDER_ID,
      eventType: "order_placed",
      dedupeKey: `order_placed:${DEAD_ORDER_ID}`,
      payload: payloadOf(DEAD_ORDER_ID),
      status: "dead",
      attempts: 1,
      lastAttemptAt: new Date(now - 3_600_000),
      firstFailedAt: new Date(now - 3_600_000),
      lastError:
        "validation error (400 validation_error), 1 validation error: line_items[0].purchase_price: must be a positive integer",
      lastResponse: JSON.stringify({
        status: 400,
        error: {
          error_code: "validation_error",
          validation_errors: [
            { field: "line_items[0].purchase_price", message: "must be a positive integer" },
          ],
        },
      }),
    },
  });
  const failed = await prisma.outboxEvent.create({
    data: {
      shop: SHOP,
      environment: "sandbox",
      orderId: FAILED_ORDER_ID,
      eventType: "order_placed",
      dedupeKey: `order_placed:${FAILED_ORDER_ID}`,
      payload: payloadOf(FAILED_ORDER_ID),
      status: "failed",
      attempts: 3,
      nextAttemptAt: new Date(now + 3_600_000),
      lastAttemptAt: new Date(now - 60_000),
      firstFailedAt: new Date(now - 600_000),
      lastError: "retryable server_error 503: Service Unavailable",
      lastResponse: JSON.stringify({
        status: 503,
        summary: "retryable server_error 503: Service Unavailable",
      }),
    },
  });
  const accepted = await prisma.outboxEvent.create({
    data: {
      shop: SHOP,
      environment: "sandbox",
      orderId: ACCEPTED_ORDER_ID,
      eventType: "order_placed",
      dedupeKey: `order_placed:${ACCEPTED_ORDER_ID}`,
      payload: payloadOf(ACCEPTED_ORDER_ID),
      status: "delivered",
      attempts: 1,
      lastAttemptAt: new Date(now - 120_000),
      deliveredAt: new Date(now - 119_000),
      lastResponse: JSON.stringify({ status: 202, raw: "queued for processing" }),
    },
  });
  const attempt = (
    event: { id: number; dedupeKey: string },
    number: number,
    startedAt: number,
    outcome: { outcome: string; httpStatus: number; detail?: string },
  ) => ({
    eventId: event.id,
    shop: SHOP,
    attempt: number,
    environment: "sandbox",
    workerId: `svc-admin-demo-worker-${number}`,
    idempotencyKey: idempotencyKeyFor(SHOP, event.dedupeKey),
    startedAt: new Date(startedAt),
    finishedAt: new Date(startedAt + 180 * number),
    ...outcome,
  });
  const unavailable = {
    outcome: "retry",
    httpStatus: 503,
    detail: "retryable server_error 503: Service Unavailable",
  };
  await prisma.outboxAttempt.createMany({
    data: [
      attempt(dead, 1, now - 3_600_000, {
        outcome: "dead",
        httpStatus: 400,
        detail: dead.lastError!,
      }),
      attempt(failed, 1, now - 600_000, unavailable),
      // Attempt 2 was cut off: a worker stopped mid-send.
      attempt(failed, 3, now - 60_000, unavailable),
      attempt(accepted, 1, now - 120_000, { outcome: "delivered", httpStatus: 202 }),
    ],
  });
}

const PLAN_REFUND_ID = "9130000000777";
const REFUSED_PLAN_REFUND =
  "Shopify refused the plan refund on #1002: Line item quantity exceeds the refundable quantity";

const NOT_REFUNDED =
  "Cancelled without refunding its plans: 2 plan unit(s) not refunded on order #1002";

/**
 * The app's actions on the waiting event's order: a plan refunded, one Shopify refused, and the
 * cancel check flagged for the merchant.
 */
async function seedOrderActions(prisma: typeof app.prisma) {
  const action = (planLineId: string) => ({
    shop: SHOP,
    orderId: FAILED_ORDER_ID,
    kind: "refund_plan_line",
    triggerId: "9130000000001",
    planLineId,
    triggerLines: '[{"lineItemId":"13790000000001","quantity":1}]',
    attempts: 1,
    completedAt: new Date(),
  });
  await prisma.shopifyAction.createMany({
    data: [
      {
        ...action("13790000000002"),
        status: "done",
        refundId: PLAN_REFUND_ID,
        amount: "49.0",
        currency: "EUR",
        quantity: 1,
        detail: `Plan refunded with its product on order #1002: 49.0 EUR, 1 unit(s), refund ${PLAN_REFUND_ID}`,
      },
      { ...action("13790000000003"), status: "dead", lastError: REFUSED_PLAN_REFUND },
      {
        ...action(""),
        kind: "check_cancelled_plans",
        triggerId: FAILED_ORDER_ID,
        triggerLines: "[]",
        status: "skipped",
        detail: NOT_REFUNDED,
      },
    ],
  });
}

/** The protection product the app created earlier: in the store, on the Online Store, and as items. */
async function seedProtectionItems(prisma: typeof app.prisma) {
  const items = [
    { title: "2-Year Protection (€300–€500)", price: "49.99" },
    { title: "3-Year Protection (€300–€500)", price: "69.99" },
    { title: "2-Year Protection (€100–€300)", price: "24.99" },
  ];
  const product = await createStoreProduct(SHOP, {
    title: "Protection plans (electronics)",
    status: "UNLISTED",
    variants: items.map(({ title, price }) => ({ title, price, requires_shipping: false })),
  });
  for (const [index, item] of items.entries()) {
    await prisma.protectionItem.create({
      data: {
        shop: SHOP,
        strategy: "one_to_many",
        productId: product.id,
        variantId: product.variants[index]!.id,
        title: item.title,
        priceAmount: Math.round(Number(item.price) * 100),
        currency: "EUR",
        category: "electronics",
        createdByApp: true,
      },
    });
  }
}

/**
 * A scheduled reconciliation run that found one order event whose webhook never came, that
 * event, and an event of an earlier order a backfill reported (issue 17).
 */
async function seedReconciliation(prisma: typeof app.prisma) {
  const placed = await prisma.outboxEvent.findFirstOrThrow({
    where: { shop: SHOP, orderId: ORDER_IDS[0], eventType: "order_placed" },
  });
  const now = Date.now();
  for (const [orderId, recoveredBy] of [
    [RECOVERED_ORDER_ID, "reconciliation"],
    [BACKFILLED_ORDER_ID, "backfill"],
  ] as const) {
    const event = await prisma.outboxEvent.create({
      data: {
        shop: SHOP,
        environment: "sandbox",
        orderId,
        eventType: "order_placed",
        dedupeKey: `order_placed:${orderId}`,
        payload: placed.payload.replaceAll(ORDER_IDS[0]!, orderId),
        status: "delivered",
        attempts: 1,
        createdAt: new Date(now - 301_000),
        lastAttemptAt: new Date(now - 300_000),
        deliveredAt: new Date(now - 299_000),
        serviceEventId: `evt_${orderId}`,
        recoveredBy,
      },
    });
    await prisma.outboxAttempt.create({
      data: {
        eventId: event.id,
        shop: SHOP,
        attempt: 1,
        environment: "sandbox",
        workerId: "svc-admin-demo-worker-1",
        idempotencyKey: idempotencyKeyFor(SHOP, event.dedupeKey),
        startedAt: new Date(now - 300_000),
        finishedAt: new Date(now - 299_000),
        outcome: "delivered",
        httpStatus: 200,
      },
    });
  }
  const startedAt = new Date(now - 6 * 60_000);
  const run = await prisma.reconcileRun.create({
    data: {
      shop: SHOP,
      trigger: "schedule",
      status: "completed",
      since: new Date(startedAt.getTime() - 20 * 60_000),
      until: new Date(startedAt.getTime() - 2 * 60_000),
      ordersChecked: 57,
      eventsRecovered: 1,
      pointsUsed: 412,
      detail: "57 order(s) checked, 1 event(s) recovered",
      startedAt,
      finishedAt: new Date(startedAt.getTime() + 3_200),
    },
  });
  await prisma.reconcileState.create({
    data: {
      shop: SHOP,
      reportFrom: new Date(now - 3 * DAY_MS),
      watermark: run.until!,
      nextRunAt: new Date(now + 9 * 60_000),
      recoveringRunsInARow: 1,
      lastRunId: run.id,
    },
  });
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
  for (const started = Date.now(); !(await check());) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out: ${what}\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function open(options: OpenOptions): Promise<OpenedAdminPage> {
  try {
    const opening = await openAdminPage(browser, server, options);
    opened.push(opening.context);
    return opening;
  } catch (error) {
    throw new Error(`${String(error)}\nThe app's log:\n${server.output().slice(-6000)}`);
  }
}

/** The 1280×900 view; a page taller than that also gets admin-<name>-full.png, all of it. */
async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(artifacts, `admin-${name}.png`) });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > 900) {
    await page.screenshot({ path: path.join(artifacts, `admin-${name}-full.png`), fullPage: true });
  }
}

/** What every page must do: no problem in the browser, its title, no raw key, no overflow. */
async function expectHealthyPage(opening: OpenedAdminPage, title: string) {
  const { page } = opening;
  await expect.poll(() => page.getByRole("heading", { level: 1 }).first().innerText()).toBe(title);
  expect(await untranslatedKeys(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(opening.problems).toEqual([]);
}

/** Opens a page in English, then German: checked and saved as admin-<name>[-de].png. */
async function screenshotsOf(name: string, pathname: string, title: (t: Translate) => string) {
  const english = await open({ shop: SHOP, pathname });
  await expectHealthyPage(english, title(en));
  await screenshot(english.page, name);
  const german = await open({ shop: SHOP, pathname, locale: "de" });
  await expectHealthyPage(german, title(de));
  await screenshot(german.page, `${name}-de`);
  return english;
}

/** Waits for a client-side navigation to settle on the path. */
async function settledOn(page: Page, pathname: string) {
  await page.waitForURL((url) => url.pathname === pathname);
  await waitForHydration(page);
}

function bodyText(page: Page) {
  return page.locator("body").innerText();
}

describe("admin pages in Chromium", { timeout: 90_000 }, () => {
  it("App Bridge is the local store's stand-in, and data requests carry the session token", async () => {
    const home = await open({ shop: SHOP, pathname: "/app" });
    // Against a local store, the app asks the store for App Bridge, not Shopify's CDN (decision 030).
    expect(
      await home.page.evaluate(() =>
        Array.from(document.querySelectorAll("script[data-api-key]"), (script) =>
          script.getAttribute("src"),
        ),
      ),
    ).toEqual([`${localStore().url}/cdn/shopifycloud/app-bridge.js`]);
    // Typed here: which global `shopify` the program sees (App Bridge's or a UI extension
    // surface's) depends on the order tsc meets their declarations.
    expect(
      await home.page.evaluate(
        () => typeof (window as { shopify?: { idToken?: unknown } }).shopify?.idToken,
      ),
    ).toBe("function");
    expect(
      await home.page.evaluate(() =>
        Array.isArray((window as { __svcAppBridgeCalls?: unknown[] }).__svcAppBridgeCalls),
      ),
    ).toBe(true);
    await waitForHydration(home.page);
    await home.page.evaluate(() =>
      (
        window as unknown as { __remixRouter: { revalidate(): Promise<void> } }
      ).__remixRouter.revalidate(),
    );
    const dataRequestsOf = () =>
      home.appRequests.filter((request) => new URL(request.url).searchParams.has("_data"));
    // Playwright reports requests as events; the revalidation's may arrive after it settles.
    await expect.poll(() => dataRequestsOf().length, { timeout: 10_000 }).toBeGreaterThan(0);
    const dataRequests = dataRequestsOf();
    for (const request of dataRequests)
      expect(request.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(home.problems).toEqual([]);
  });

  it("Home: the go-live checklist and the connection; Manage goes to Connection", async () => {
    const home = await screenshotsOf("home", "/app", (t) => t("home.title"));
    expect(await bodyText(home.page)).toContain(`•••• ${SANDBOX_KEY.slice(-4)}`);

    await home.page.getByRole("link", { name: en("home.connection.manage") }).click();
    await settledOn(home.page, "/app/connection");
    await expectHealthyPage(home, en("connection.title"));

    // The German choice outlives Shopify's first URL: a navigation inside the app keeps it.
    const german = await open({ shop: SHOP, pathname: "/app", locale: "de" });
    await german.page.getByRole("link", { name: de("home.connection.manage") }).click();
    await settledOn(german.page, "/app/connection");
    await expectHealthyPage(german, de("connection.title"));

    const empty = await open({ shop: EMPTY_SHOP, pathname: "/app" });
    await expectHealthyPage(empty, en("home.title"));
    expect(await bodyText(empty.page)).toContain(en("common.status.not_connected"));
    await screenshot(empty.page, "home-empty");
  });

  it("Home: the reconciliation card; Reconcile now asks once; lost webhooks are warned of", async () => {
    const home = await open({ shop: SHOP, pathname: "/app" });
    await expectHealthyPage(home, en("home.title"));
    const card = home.page.getByRole("region", { name: en("home.reconciliation.heading") });
    const cardText = await card.innerText();
    expect(cardText).toContain(en("home.reconciliation.lastRun"));
    expect(cardText).toMatch(/API points used\s+412/);
    expect(cardText).toMatch(/Events recovered\s+1/);
    expect(cardText).toContain(en("home.reconciliation.every", { minutes: 15 }));
    expect(await bodyText(home.page)).not.toContain(en("home.reconciliation.warning.title"));
    await card.screenshot({ path: path.join(artifacts, "admin-home-reconciliation.png") });

    // A double click asks once: one request, the card says the run is queued.
    await card.getByRole("button", { name: en("home.reconciliation.action") }).dblclick();
    await expect
      .poll(() => home.page.locator(".svc-ab-toast").allInnerTexts(), { timeout: 10_000 })
      .toContain(en("home.reconciliation.done.queued"));
    await expect.poll(() => card.innerText()).toContain(en("home.reconciliation.queuedNote"));
    expect(home.appRequests.filter((request) => request.method === "POST")).toHaveLength(1);
    expect(
      await card.getByRole("button", { name: en("home.reconciliation.action") }).isDisabled(),
    ).toBe(true);
    const state = await app.prisma.reconcileState.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(state.requestedAt).not.toBeNull();
    await card.screenshot({ path: path.join(artifacts, "admin-home-reconciliation-queued.png") });
    expect(home.problems).toEqual([]);

    // Runs in a row that recovered events: Shopify's webhooks are being lost.
    await app.prisma.reconcileState.update({
      where: { shop: SHOP },
      data: { recoveringRunsInARow: 3, requestedAt: null },
    });
    const warned = await screenshotsOf("home-webhooks-missing", "/app", (t) => t("home.title"));
    const warning = warned.page.locator(".Polaris-Banner").filter({
      hasText: en("home.reconciliation.warning.title"),
    });
    expect(await warning.innerText()).toContain(
      en("home.reconciliation.warning.body", { count: 3 }),
    );
    await app.prisma.reconcileState.update({
      where: { shop: SHOP },
      data: { recoveringRunsInARow: 1 },
    });
  });

  it("Connection: a key the service does not know is refused inline, and nothing is saved", async () => {
    const connection = await screenshotsOf("connection", "/app/connection", (t) =>
      t("connection.title"),
    );
    const before = await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });

    const sandboxCard = connection.page.locator("form").filter({
      has: connection.page.getByRole("heading", { name: en("connection.keys.sandboxTitle") }),
    });
    await sandboxCard
      .getByLabel(en("connection.keys.secretKey"))
      .fill("sk_test_not_a_key_the_service_knows");
    await sandboxCard.getByRole("button", { name: en("connection.keys.save") }).click();
    await expect
      .poll(() => sandboxCard.locator(".Polaris-InlineError").innerText(), { timeout: 10_000 })
      .not.toBe("");
    const field = sandboxCard.getByLabel(en("connection.keys.secretKey"));
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    await screenshot(connection.page, "connection-wrong-key");
    const after = await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(after.sandboxSecretKeySealed).toBe(before.sandboxSecretKeySealed);
    expect(after.sandboxSecretKeyLast4).toBe(SANDBOX_KEY.slice(-4));
    expect(connection.problems.filter((problem) => !/^4\d\d from POST/.test(problem))).toEqual([]);
  });

  it("Connection: earlier orders are reported from a date; a day too old is refused inline", async () => {
    const connection = await open({ shop: SHOP, pathname: "/app/connection" });
    await expectHealthyPage(connection, en("connection.title"));
    const card = connection.page.getByRole("region", { name: en("connection.backfill.title") });
    expect(await card.innerText()).toContain(en("connection.backfill.scopeNote", { days: 60 }));
    const field = card.getByLabel(en("connection.backfill.since"));
    const earliest = new Date(Date.now() - 60 * DAY_MS).toISOString().slice(0, 10);
    expect(await field.inputValue()).toBe(earliest);

    await field.fill(new Date(Date.now() - 90 * DAY_MS).toISOString().slice(0, 10));
    await card.getByRole("button", { name: en("connection.backfill.submit") }).click();
    await expect
      .poll(() => card.locator(".Polaris-InlineError").innerText(), { timeout: 10_000 })
      .toContain("Shopify lets the app read only the orders of the last 60 days");
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    await card.screenshot({ path: path.join(artifacts, "admin-connection-backfill-refused.png") });
    expect(
      (await app.prisma.reconcileState.findUniqueOrThrow({ where: { shop: SHOP } })).backfillStatus,
    ).toBeNull();

    await field.fill(earliest);
    await card.getByRole("button", { name: en("connection.backfill.submit") }).click();
    await expect
      .poll(() => card.innerText(), { timeout: 10_000 })
      .toContain(en("connection.backfill.requestedTitle"));
    expect(await card.innerText()).toContain(en("connection.backfill.resumes"));
    const requested = await app.prisma.reconcileState.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(requested.backfillStatus).toBe("requested");
    expect(requested.backfillSince?.toISOString().slice(0, 10)).toBe(earliest);
    expect(connection.problems).toEqual([]);

    // The worker's progress, as it records it, once it knows the total.
    await app.prisma.reconcileState.update({
      where: { shop: SHOP },
      data: {
        backfillStatus: "running",
        backfillOrdersDone: 120,
        backfillOrdersTotal: 480,
        backfillEventsRecovered: 7,
      },
    });
    const running = await screenshotsOf("connection-backfill", "/app/connection", (t) =>
      t("connection.title"),
    );
    expect(await bodyText(running.page)).toContain(
      en("connection.backfill.progress", { done: 120, total: 480, events: 7 }),
    );
  });

  it("Protection items: the table; variants picked in the resource picker become items", async () => {
    const items = await screenshotsOf("items", "/app/items", (t) => t("items.title"));
    expect(await bodyText(items.page)).toContain("2-Year Protection (€300–€500)");

    const picker = await open({
      shop: SHOP,
      pathname: "/app/items",
      resourcePickerSelection: warranty.variants.map((variant) => ({
        id: gidOf("ProductVariant", variant.id),
      })),
    });
    await picker.page.getByRole("button", { name: en("items.map.pickVariants") }).click();
    await expect
      .poll(() => bodyText(picker.page), { timeout: 10_000 })
      .toContain(en("items.results.mapped", { count: 2 }));
    await expect
      .poll(() => bodyText(picker.page), { timeout: 10_000 })
      .toContain("Extended warranty - 2 years");
    await screenshot(picker.page, "items-mapped");
    const calls = await picker.page.evaluate(
      () => (window as unknown as { __svcAppBridgeCalls: { api: string }[] }).__svcAppBridgeCalls,
    );
    expect(calls.map((call) => call.api)).toContain("resourcePicker");
    // The app read the picked variants from Shopify with the shop's offline token.
    expect(
      (await storeGraphqlLog()).filter(
        (request) => request.operation_name === "ProtectionItemCandidates",
      ),
    ).toEqual([expect.objectContaining({ shop: SHOP, token: "offline", status: 200, errors: [] })]);
    expect(
      await app.prisma.protectionItem.count({ where: { shop: SHOP, productId: warranty.id } }),
    ).toBe(2);
    expect(picker.problems).toEqual([]);

    const empty = await open({ shop: EMPTY_SHOP, pathname: "/app/items" });
    await expectHealthyPage(empty, en("items.title"));
    await screenshot(empty.page, "items-empty");
  });

  it("New protection product: created in Shopify and listed as items", async () => {
    const form = await screenshotsOf("items-new", "/app/items/new", (t) => t("items.new.title"));
    await form.page.getByLabel(en("items.new.fields.prices")).fill("19.99, 29.99, 59.99");
    await form.page.getByRole("button", { name: en("items.new.submit") }).click();
    await settledOn(form.page, "/app/items");
    await expect
      .poll(() => bodyText(form.page), { timeout: 10_000 })
      .toContain(en("items.results.created", { count: 3 }));
    await screenshot(form.page, "items-created");
    expect(form.problems).toEqual([]);
    // Shopify holds the product, on the Online Store, with the three plans as variants.
    const { state } = localStore();
    const created = state
      .products(SHOP)
      .find((product) => product.tags.includes("svc-protection") && product.variants.length === 3);
    expect(created?.variants.map((variant) => variant.price)).toEqual([1999, 2999, 5999]);
    expect(created?.publicationIds).toEqual([state.shop(SHOP)?.onlineStorePublicationId]);
  });

  it("Event log: the list; an event opens with its payload; dead events are retried after a confirmation", async () => {
    const log = await screenshotsOf("events", "/app/events", (t) => t("events.title"));
    const dead = await app.prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SHOP, orderId: DEAD_ORDER_ID },
    });

    await log.page.getByRole("link", { name: `#${dead.id}` }).click();
    await settledOn(log.page, `/app/events/${dead.id}`);
    await expectHealthyPage(log, eventTitle(en, dead));
    const payload = await log.page.locator("pre").first().innerText();
    expect(payload).toContain(`"order_id": "${DEAD_ORDER_ID}"`);
    expect(await bodyText(log.page)).toContain("line_items[0].purchase_price");

    const retry = await open({ shop: SHOP, pathname: "/app/events" });
    await retry.page
      .getByRole("button", { name: en("events.retryDead.action", { count: 1 }) })
      .click();
    const dialog = retry.page.getByRole("dialog", { name: en("events.retryDead.title") });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await screenshot(retry.page, "events-retry-dead");
    await dialog
      .getByRole("button", { name: en("events.retryDead.confirm", { count: 1 }) })
      .click();
    await expect
      .poll(() => retry.page.locator(".svc-ab-toast").allInnerTexts(), { timeout: 10_000 })
      .toContain(en("events.retryDead.done", { count: 1 }));
    await expect
      .poll(
        async () =>
          (await app.prisma.outboxEvent.findUniqueOrThrow({ where: { id: dead.id } })).status,
      )
      .not.toBe("dead");
    expect(retry.problems).toEqual([]);

    const empty = await open({ shop: EMPTY_SHOP, pathname: "/app/events" });
    await expectHealthyPage(empty, en("events.title"));
    await screenshot(empty.page, "events-empty");
  });

  it("Event log: recovered and backfilled events carry their badge, and a filter lists them", async () => {
    const recovered = await app.prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SHOP, orderId: RECOVERED_ORDER_ID },
    });
    const log = await open({ shop: SHOP, pathname: "/app/events?recovered=reconciliation" });
    await expectHealthyPage(log, en("events.title"));
    const rows = await log.page.locator(".Polaris-IndexTable__TableRow").allInnerTexts();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`#${recovered.id}`);
    expect(rows[0]).toContain(en("events.recovery.reconciliation"));
    await screenshot(log.page, "events-recovered");

    const detail = await screenshotsOf("event-recovered", `/app/events/${recovered.id}`, (t) =>
      eventTitle(t, recovered),
    );
    const text = await bodyText(detail.page);
    expect(text).toContain(en("events.recovery.reconciliationHelp"));
    expect(text).toContain(en("events.recovery.reconciliation"));
  });

  it("Event and webhook pages: the payload, the service's answer and the order's timeline", async () => {
    const failed = await app.prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SHOP, orderId: FAILED_ORDER_ID },
    });
    const event = await screenshotsOf("event", `/app/events/${failed.id}`, (t) =>
      eventTitle(t, failed),
    );
    // The attempt log: both 503s in order, the send cut off between them, and the one key.
    const attempts = event.page.getByRole("region", { name: en("events.attemptLog.title") });
    const attemptText = await attempts.innerText();
    expect(attemptText).toContain(idempotencyKeyFor(SHOP, failed.dedupeKey));
    expect(attemptText).toContain(en("events.attemptLog.cutOffSummaryOne"));
    const lines = await attempts.locator("li").allInnerTexts();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain(en("events.attemptLog.number", { number: 1 }));
    expect(lines[0]).toContain(en("events.attemptLog.outcome.retry"));
    expect(lines[0]).toContain("HTTP 503");
    expect(lines[0]).toContain("svc-admin-demo-worker-1");
    expect(lines[1]).toBe(en("events.attemptLog.cutOffOne", { number: 2 }));
    expect(lines[2]).toContain(en("events.attemptLog.number", { number: 3 }));
    expect(lines[2]).toContain("retryable server_error 503: Service Unavailable");
    // The app's actions on the order: the plan refunded, with its amount, and the one refused.
    const actions = await event.page.getByTestId("order-action").allInnerTexts();
    expect(actions).toHaveLength(3);
    expect(actions[0]).toContain(
      en("events.orderActions.refunded", { amount: "€49.00", refundId: PLAN_REFUND_ID }),
    );
    expect(actions[0]).toContain(en("events.orderActions.status.done"));
    expect(actions[1]).toContain(REFUSED_PLAN_REFUND);
    expect(actions[1]).toContain(en("events.orderActions.status.dead"));

    const accepted = await app.prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SHOP, orderId: ACCEPTED_ORDER_ID },
    });
    const acceptedPage = await screenshotsOf("event-accepted", `/app/events/${accepted.id}`, (t) =>
      eventTitle(t, accepted),
    );
    const acceptedText = await bodyText(acceptedPage.page);
    expect(acceptedText).toContain(en("events.accepted.title"));
    expect(acceptedText).toContain("queued for processing");
    expect(acceptedText).toContain("HTTP 202");

    // A real delivery by the app's worker logs its send too.
    const delivered = await app.prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SHOP, orderId: ORDER_IDS[1], status: "delivered" },
    });
    const deliveredPage = await open({ shop: SHOP, pathname: `/app/events/${delivered.id}` });
    await expectHealthyPage(deliveredPage, eventTitle(en, delivered));
    const deliveredLines = await deliveredPage.page
      .getByRole("region", { name: en("events.attemptLog.title") })
      .locator("li")
      .allInnerTexts();
    expect(deliveredLines).toHaveLength(1);
    expect(deliveredLines[0]).toContain(en("events.attemptLog.outcome.delivered"));
    expect(deliveredLines[0]).toContain("HTTP 200");
    const receipt = await app.prisma.webhookReceipt.findFirstOrThrow({
      where: { shop: SHOP, status: "unprocessable" },
    });
    const page = await screenshotsOf("receipt", `/app/events/receipts/${receipt.id}`, (t) =>
      t("events.detail.receiptTitle", { topic: receipt.topic }),
    );
    expect(await bodyText(page.page)).toContain('"line_items": "?"');

    // Another shop's event is not found, exactly like one that does not exist.
    const other = await open({ shop: EMPTY_SHOP, pathname: `/app/events/${failed.id}` });
    expect(other.problems.join("\n")).toContain("404 from GET");
  });

  it("Event page: the app's actions offer Retry on a dead one and the refund on a flagged one", async () => {
    const failed = await app.prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SHOP, orderId: FAILED_ORDER_ID },
    });
    for (const [locale, t] of [
      ["en", en],
      ["de", de],
    ] as const) {
      const opening = await open({ shop: SHOP, pathname: `/app/events/${failed.id}`, locale });
      await expectHealthyPage(opening, eventTitle(t, failed));
      // The card is a region named by its title; each button has its name, and the stored
      // English reasons are labelled in the admin's language.
      const card = opening.page.getByRole("region", {
        name: t("events.orderActions.title", { order: orderLabel(failed) }),
      });
      await expect.poll(() => card.count()).toBe(1);
      const retry = card.getByRole("button", { name: t("events.orderActions.retry") });
      const refund = card.getByRole("button", { name: t("events.orderActions.refundPlans") });
      expect(await retry.count()).toBe(1);
      expect(await refund.count()).toBe(1);
      expect(await card.innerText()).toContain(
        t("events.orderActions.reason", { reason: NOT_REFUNDED }),
      );
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({
        path: path.join(artifacts, `admin-event-actions${locale === "de" ? "-de" : ""}.png`),
      });
    }

    // The merchant retries the dead refund: it runs again, at the merchant's request.
    const opening = await open({ shop: SHOP, pathname: `/app/events/${failed.id}` });
    const card = opening.page.getByRole("region", {
      name: en("events.orderActions.title", { order: orderLabel(failed) }),
    });
    await expect.poll(() => card.count()).toBe(1);
    await card.getByRole("button", { name: en("events.orderActions.retry") }).click();
    await waitUntil("the retry is recorded", async () => {
      const row = await app.prisma.shopifyAction.findFirst({
        where: { shop: SHOP, orderId: FAILED_ORDER_ID, planLineId: "13790000000003" },
      });
      return row?.requestedBy === "merchant" && row.requestedAt !== null;
    });
    await expect
      .poll(() => card.innerText(), { timeout: 10_000 })
      .toMatch(/Run at the merchant's request/);
    expect(opening.problems).toEqual([]);
  });

  it("Settings: saved, and shown again after a reload", async () => {
    const settings = await screenshotsOf("settings", "/app/settings", (t) => t("settings.title"));
    await settings.page.getByLabel(en("settings.offer.heading")).fill("Protect your purchase");
    await settings.page.getByRole("button", { name: en("settings.save") }).click();
    await expect
      .poll(() => bodyText(settings.page), { timeout: 10_000 })
      .toContain(en("settings.saved"));
    await screenshot(settings.page, "settings-saved");
    const stored = await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(stored.offerOptions).toContain("Protect your purchase");
    expect(settings.problems).toEqual([]);

    const reopened = await open({ shop: SHOP, pathname: "/app/settings" });
    await expectHealthyPage(reopened, en("settings.title"));
    expect(await reopened.page.getByLabel(en("settings.offer.heading")).inputValue()).toBe(
      "Protect your purchase",
    );
  });
});

function eventTitle(t: Translate, event: { id: number; eventType: string }) {
  return t("events.detail.title", { type: eventTypeLabel(t, event.eventType), id: event.id });
}
