import { AppProvider } from "@shopify/shopify-app-remix/react";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { loadReconciliationCard } from "../../app/admin/reconciliation.server";
import prisma from "../../app/db.server";
import { createTranslator } from "../../app/i18n/translate";
import {
  loader as connectionLoader,
  action as connectionAction,
} from "../../app/routes/app.connection/route";
import Home, {
  action as homeAction,
  loader as homeLoader,
} from "../../app/routes/app._index/route";
import { loader as eventLoader } from "../../app/routes/app.events.$id/route";
import { loader as eventListLoader } from "../../app/routes/app.events/route";
import { testDatabaseProvider } from "../support/databases";
import { createOfflineSession } from "../support/offline-session";
import { adminRequest, callRoute, routeData } from "../support/routes";
import { sessionToken } from "../support/session-token";
import { TEST_API_KEY } from "../support/test-env";

// Reconciliation in the admin (issue 17) through the real routes, with App Bridge session
// tokens: the home page's card, its warning and "Reconcile now", the Connection page's
// backfill, and the event log's recovered events. The rows the reconciliation worker would
// write are seeded directly.

const provider = testDatabaseProvider();
const SHOP = "recon-a.myshopify.com";
const OTHER_SHOP = "recon-b.myshopify.com";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const en = createTranslator("en");
const de = createTranslator("de");

type HomeData = Awaited<ReturnType<typeof homeLoader>>;
type ConnectionData = Awaited<ReturnType<typeof connectionLoader>>;
type ConnectionAnswer = Awaited<ReturnType<typeof connectionAction>>;

async function loadHome(shop = SHOP): Promise<HomeData> {
  return routeData(await callRoute(homeLoader, adminRequest(shop, "/app")));
}

async function reconcileNow(shop = SHOP) {
  const form = { intent: "reconcile_now" };
  return routeData(await callRoute(homeAction, adminRequest(shop, "/app?index", { form })));
}

async function loadConnection(shop = SHOP): Promise<ConnectionData> {
  return routeData(await callRoute(connectionLoader, adminRequest(shop, "/app/connection")));
}

async function requestBackfill(since: string, shop = SHOP): Promise<ConnectionAnswer> {
  const form = { intent: "request_backfill", since };
  return routeData(
    await callRoute(connectionAction, adminRequest(shop, "/app/connection", { form })),
  );
}

function state(shop = SHOP) {
  return prisma.reconcileState.findUnique({ where: { shop } });
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The home page as the admin renders it, in a router holding the app's locale. */
function renderHome(data: HomeData, locale: "en" | "de") {
  // Polaris warns that its layout effects do nothing on the server; the browser runs them.
  const consoleError = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes("useLayoutEffect does nothing on the server")) {
      process.stderr.write(`${args.map(String).join(" ")}\n`);
    }
  });
  try {
    const router = createMemoryRouter(
      [
        {
          id: "routes/app",
          path: "/app",
          loader: () => null,
          element: h(AppProvider, { isEmbeddedApp: true, apiKey: TEST_API_KEY }, h(Outlet)),
          children: [
            { id: "routes/app._index", index: true, loader: () => null, element: h(Home) },
          ],
        },
      ],
      {
        initialEntries: ["/app"],
        hydrationData: {
          loaderData: {
            "routes/app": { locale, apiKey: TEST_API_KEY },
            "routes/app._index": data,
          },
        },
      },
    );
    return textOf(renderToString(h(RouterProvider, { router })));
  } finally {
    consoleError.mockRestore();
  }
}

function textOf(html: string) {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/[\s\u00a0\u202f]+/g, " ");
}

async function connect(shop: string, status = "connected", grantedScopes = "read_orders") {
  await prisma.shopConnection.create({
    data: { shop, status, grantedScopes, installedAt: new Date(Date.now() - 10 * DAY) },
  });
}

/** A finished run of the shop, as the worker records it, and the state pointing at it. */
async function seedRun(
  shop: string,
  run: { status: string; trigger: string; eventsRecovered: number; detail: string },
  stateData: { recoveringRunsInARow?: number; nextRunAt?: Date } = {},
) {
  const startedAt = new Date(Date.now() - 20 * MINUTE);
  const row = await prisma.reconcileRun.create({
    data: {
      shop,
      since: new Date(startedAt.getTime() - 20 * MINUTE),
      startedAt,
      finishedAt: new Date(startedAt.getTime() + 4_000),
      ordersChecked: 42,
      pointsUsed: 318,
      ...run,
    },
  });
  await prisma.reconcileState.create({
    data: {
      shop,
      reportFrom: new Date(Date.now() - 10 * DAY),
      watermark: startedAt,
      lastRunId: row.id,
      nextRunAt: stateData.nextRunAt ?? new Date(Date.now() + 10 * MINUTE),
      recoveringRunsInARow: stateData.recoveringRunsInARow ?? 0,
    },
  });
  return row;
}

beforeEach(async () => {
  await prisma.session.deleteMany({});
  await prisma.shopConnection.deleteMany({});
  await prisma.reconcileState.deleteMany({});
  await prisma.reconcileRun.deleteMany({});
  await prisma.outboxEvent.deleteMany({});
  for (const shop of [SHOP, OTHER_SHOP]) {
    await createOfflineSession(prisma, shop, `shpat_${shop}`);
  }
});

describe(`admin reconciliation: the home page's card (${provider})`, () => {
  it("says it starts once the keys are connected, for a shop not connected", async () => {
    await connect(SHOP, "not_connected");
    const data = await loadHome();
    expect(data.reconciliation).toEqual({ applies: false });
    const text = renderHome(data, "en");
    expect(text).toContain(en("home.reconciliation.notConnected"));
    expect(text).not.toContain(en("home.reconciliation.action"));
  });

  it("says what reconciliation does before its first run, and that the first run is due", async () => {
    await connect(SHOP);
    const data = await loadHome();
    expect(data.reconciliation).toEqual({
      applies: true,
      activity: "idle",
      intervalMinutes: 15,
      nextRun: { kind: "due" },
      lastRun: null,
      recoveringRunsInARow: 0,
      webhooksMissing: false,
    });
    const text = renderHome(data, "en");
    expect(text).toContain(en("home.reconciliation.intro"));
    expect(text).toContain(en("home.reconciliation.nextRunDue"));
    expect(text).toContain(en("home.reconciliation.action"));
    // Reading the page writes nothing: the worker creates the state on its first run.
    expect(await state()).toBeNull();
  });

  it("shows the last run's figures and the next run, and no warning below the threshold", async () => {
    await connect(SHOP, "key_rejected");
    const nextRunAt = new Date(Date.now() + 11 * MINUTE);
    const run = await seedRun(
      SHOP,
      {
        status: "completed",
        trigger: "schedule",
        eventsRecovered: 2,
        detail: "42 order(s) checked, 2 event(s) recovered",
      },
      { recoveringRunsInARow: 2, nextRunAt },
    );
    const data = await loadHome();
    expect(data.reconciliation).toEqual({
      applies: true,
      activity: "idle",
      intervalMinutes: 15,
      nextRun: { kind: "at", at: nextRunAt.toISOString() },
      lastRun: {
        trigger: "schedule",
        status: "completed",
        startedAt: run.startedAt.toISOString(),
        finishedAt: run.finishedAt!.toISOString(),
        ordersChecked: 42,
        eventsRecovered: 2,
        pointsUsed: 318,
        detail: "42 order(s) checked, 2 event(s) recovered",
      },
      recoveringRunsInARow: 2,
      webhooksMissing: false,
    });
    const text = renderHome(data, "en");
    for (const words of [
      "Last run",
      "Started by Schedule",
      "Orders checked 42",
      "Events recovered 2",
      "API points used 318",
      "Result: 42 order(s) checked, 2 event(s) recovered",
      "Every 15 minutes",
    ]) {
      expect(text).toContain(words);
    }
    // The status badge carries its tone for screen readers before its word.
    expect(text).toMatch(/Status (Success )?Completed/);
    expect(text).not.toContain(en("home.reconciliation.warning.title"));
    expect(text).not.toContain(en("home.reconciliation.intro"));
  });

  it("warns of lost webhooks from the configured number of recovering runs, saying nothing was lost", async () => {
    await connect(SHOP);
    await seedRun(
      SHOP,
      { status: "completed", trigger: "schedule", eventsRecovered: 1, detail: "1 recovered" },
      { recoveringRunsInARow: 3 },
    );
    const data = await loadHome();
    expect(data.reconciliation).toMatchObject({ recoveringRunsInARow: 3, webhooksMissing: true });
    const english = renderHome(data, "en");
    expect(english).toContain(en("home.reconciliation.warning.title"));
    expect(english).toContain(en("home.reconciliation.warning.body", { count: 3 }));
    expect(english).toContain("so nothing was lost");
    expect(english).toContain("Dev Dashboard, under Apps → the app → Monitoring");
    expect(english).toContain(en("home.reconciliation.webhooksMissing"));
    const german = renderHome(data, "de");
    expect(german).toContain(de("home.reconciliation.warning.title"));
    expect(german).toContain("es ging also nichts verloren");
    expect(german).toContain("Ausgelöst von Zeitplan");
    expect(german).not.toMatch(/\bhome\.reconciliation\.[\w.]+/);

    // The other shop's state is its own.
    await connect(OTHER_SHOP);
    expect((await loadHome(OTHER_SHOP)).reconciliation).toMatchObject({
      lastRun: null,
      webhooksMissing: false,
    });
  });

  it("shows a failed run with its reason, and a run in progress or asked for", async () => {
    await connect(SHOP);
    await seedRun(SHOP, {
      status: "failed",
      trigger: "merchant",
      eventsRecovered: 0,
      detail: "Stopped: Shopify answered 503 three times",
    });
    let text = renderHome(await loadHome(), "en");
    expect(text).toMatch(/Status (Critical )?Failed/);
    expect(text).toContain("Started by You");
    expect(text).toContain("Result: Stopped: Shopify answered 503 three times");

    await prisma.reconcileState.update({
      where: { shop: SHOP },
      data: { leaseOwner: "worker-1", leaseExpiresAt: new Date(Date.now() + 5 * MINUTE) },
    });
    let data = await loadHome();
    expect(data.reconciliation).toMatchObject({ activity: "running" });
    text = renderHome(data, "en");
    expect(text).toContain(en("home.reconciliation.runningNote"));

    // A lease left behind by a run that stopped holds nothing: the request waits.
    await prisma.reconcileState.update({
      where: { shop: SHOP },
      data: { leaseExpiresAt: new Date(Date.now() - MINUTE), requestedAt: new Date() },
    });
    data = await loadHome();
    expect(data.reconciliation).toMatchObject({ activity: "queued" });
    expect(renderHome(data, "en")).toContain(en("home.reconciliation.queuedNote"));
  });

  it("shows the schedule as off when its interval is 0", async () => {
    await connect(SHOP);
    await seedRun(SHOP, { status: "completed", trigger: "cli", eventsRecovered: 0, detail: "ok" });
    const card = await loadReconciliationCard(
      prisma,
      SHOP,
      { intervalMinutes: 0, warnAfterRuns: 3 },
      new Date(),
    );
    expect(card).toMatchObject({ applies: true, intervalMinutes: 0, nextRun: { kind: "off" } });
  });
});

describe(`admin reconciliation: Reconcile now (${provider})`, () => {
  it("queues one run, however often it is asked, and the card says so", async () => {
    await connect(SHOP);
    expect(await reconcileNow()).toEqual({ intent: "reconcile_now", outcome: "queued" });
    const asked = (await state())!.requestedAt;
    expect(asked).toBeInstanceOf(Date);
    expect(await reconcileNow()).toEqual({ intent: "reconcile_now", outcome: "already_queued" });
    expect((await state())!.requestedAt).toEqual(asked);
    const data = await loadHome();
    expect(data.reconciliation).toMatchObject({ activity: "queued" });
    expect(renderHome(data, "en")).toContain(en("home.reconciliation.queuedNote"));
    expect(await state(OTHER_SHOP)).toBeNull();
  });

  it("asks nothing while a run holds the lease: that run would clear the request", async () => {
    await connect(SHOP);
    await seedRun(SHOP, {
      status: "completed",
      trigger: "schedule",
      eventsRecovered: 0,
      detail: "",
    });
    await prisma.reconcileState.update({
      where: { shop: SHOP },
      data: { leaseOwner: "worker-1", leaseExpiresAt: new Date(Date.now() + 5 * MINUTE) },
    });
    expect(await reconcileNow()).toEqual({ intent: "reconcile_now", outcome: "running" });
    expect((await state())!.requestedAt).toBeNull();
  });

  it("asks nothing for a shop whose orders are not reconciled", async () => {
    await connect(SHOP, "uninstalled");
    expect(await reconcileNow()).toEqual({ intent: "reconcile_now", outcome: "not_reconciled" });
    expect(await state()).toBeNull();
  });

  it("refuses another form and a request without a valid session token", async () => {
    await connect(SHOP);
    const other = await callRoute(
      homeAction,
      adminRequest(SHOP, "/app?index", { form: { intent: "retry_dead" } }),
    );
    expect((other as Response).status).toBe(400);
    const token = sessionToken(SHOP, { secret: "forged" });
    const forged = await callRoute(
      homeAction,
      adminRequest(SHOP, "/app?index", { form: { intent: "reconcile_now" }, token }),
    );
    expect((forged as Response).status).toBe(401);
    expect(await state()).toBeNull();
  });
});

describe(`admin reconciliation: the backfill on the Connection page (${provider})`, () => {
  it("offers the earliest day Shopify allows, and where the shop's reports start", async () => {
    await connect(SHOP);
    const installedAt = (await prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } }))
      .installedAt;
    const earliest = dayOf(new Date(Date.now() - 60 * DAY));
    const { backfill } = await loadConnection();
    expect(backfill).toEqual({
      applies: true,
      recentOrdersDays: 60,
      earliestDay: earliest,
      defaultDay: earliest,
      today: dayOf(new Date()),
      reportFrom: installedAt.toISOString(),
      backfill: null,
    });

    // With read_all_orders any past day may be asked for.
    await prisma.shopConnection.update({
      where: { shop: SHOP },
      data: { grantedScopes: "read_orders,read_all_orders" },
    });
    expect((await loadConnection()).backfill).toMatchObject({ earliestDay: null });

    await connect(OTHER_SHOP, "not_connected");
    expect((await loadConnection(OTHER_SHOP)).backfill).toEqual({ applies: false });
  });

  it("refuses a day too old, in the future or not a date as an error of the field", async () => {
    await connect(SHOP);
    const refusal = (since: string) => requestBackfill(since);
    expect(await refusal(dayOf(new Date(Date.now() - 61 * DAY)))).toEqual({
      ok: false,
      intent: "request_backfill",
      environment: null,
      errors: { since: "connection.backfill.errors.tooOld" },
    });
    expect((await refusal(dayOf(new Date(Date.now() + 2 * DAY)))).ok).toBe(false);
    expect(await refusal(dayOf(new Date(Date.now() + 2 * DAY)))).toMatchObject({
      errors: { since: "connection.backfill.errors.inFuture" },
    });
    expect(await refusal("2025-02-30")).toMatchObject({
      errors: { since: "connection.backfill.errors.invalidDate" },
    });
    expect((await state())?.backfillStatus ?? null).toBeNull();
  });

  it("asks for the backfill from the earliest day offered, then refuses a second one while it runs", async () => {
    await connect(SHOP);
    const offered = (await loadConnection()).backfill;
    if (!offered.applies) throw new Error("Expected a backfill offer");
    expect(await requestBackfill(offered.defaultDay)).toEqual({
      ok: true,
      intent: "request_backfill",
      environment: null,
      notice: "connection.backfill.requested",
    });
    const requested = (await state())!;
    expect(requested.backfillStatus).toBe("requested");
    // The earliest day starts at the earliest moment Shopify allows, not before it.
    expect(dayOf(requested.backfillSince!)).toBe(offered.defaultDay);
    expect(requested.backfillSince!.getTime()).toBeGreaterThan(Date.now() - 60 * DAY - MINUTE);
    expect(requested.reportFrom).toEqual(requested.backfillSince);

    expect(await requestBackfill(dayOf(new Date(Date.now() - 5 * DAY)))).toMatchObject({
      ok: false,
      errors: { since: "connection.backfill.errors.running" },
    });
    expect((await loadConnection()).backfill).toMatchObject({
      backfill: { status: "requested", ordersDone: 0, ordersTotal: null, eventsRecovered: 0 },
    });
    expect(await state(OTHER_SHOP)).toBeNull();
  });

  it("starts a later day at its start in UTC", async () => {
    await connect(SHOP);
    const day = dayOf(new Date(Date.now() - 30 * DAY));
    expect((await requestBackfill(day)).ok).toBe(true);
    expect((await state())!.backfillSince).toEqual(new Date(`${day}T00:00:00.000Z`));
  });

  it("shows a running backfill's progress, and a failed one's reason, which can be tried again", async () => {
    await connect(SHOP);
    const since = new Date(Date.now() - 20 * DAY);
    await prisma.reconcileState.create({
      data: {
        shop: SHOP,
        reportFrom: since,
        watermark: new Date(),
        backfillStatus: "running",
        backfillSince: since,
        backfillOrdersDone: 120,
        backfillOrdersTotal: 480,
        backfillEventsRecovered: 7,
        backfillStartedAt: new Date(),
      },
    });
    expect((await loadConnection()).backfill).toMatchObject({
      backfill: {
        status: "running",
        since: since.toISOString(),
        ordersDone: 120,
        ordersTotal: 480,
        eventsRecovered: 7,
      },
    });

    const finishedAt = new Date();
    await prisma.reconcileState.update({
      where: { shop: SHOP },
      data: {
        backfillStatus: "failed",
        backfillDetail: "The bulk operation failed: ACCESS_DENIED",
        backfillFinishedAt: finishedAt,
      },
    });
    expect((await loadConnection()).backfill).toMatchObject({
      backfill: {
        status: "failed",
        detail: "The bulk operation failed: ACCESS_DENIED",
        finishedAt: finishedAt.toISOString(),
      },
    });
    // "Try again" asks anew with the same day.
    expect((await requestBackfill(dayOf(since))).ok).toBe(true);
    expect(await state()).toMatchObject({
      backfillStatus: "requested",
      backfillSince: new Date(`${dayOf(since)}T00:00:00.000Z`),
      backfillDetail: null,
    });
  });

  it("refuses a backfill for a shop whose orders are not reconciled", async () => {
    await connect(SHOP, "not_connected");
    expect(await requestBackfill(dayOf(new Date(Date.now() - DAY)))).toMatchObject({
      ok: false,
      errors: { form: "connection.backfill.errors.notReconciled" },
    });
    expect(await state()).toBeNull();
  });
});

describe(`admin reconciliation: recovered events in the event log (${provider})`, () => {
  async function seedEvents() {
    const event = (shop: string, orderId: string, recoveredBy: string | null) => ({
      shop,
      environment: "sandbox",
      orderId,
      eventType: "order_placed",
      dedupeKey: `${shop}:${orderId}:order_placed`,
      payload: "{}",
      status: "delivered",
      recoveredBy,
    });
    await prisma.outboxEvent.createMany({
      data: [
        event(SHOP, "1001", null),
        event(SHOP, "1002", "reconciliation"),
        event(SHOP, "1003", "backfill"),
        event(OTHER_SHOP, "1004", "reconciliation"),
      ],
    });
    return prisma.outboxEvent.findMany({ orderBy: { id: "asc" } });
  }

  async function list(search: string, shop = SHOP) {
    const data = routeData(
      await callRoute(eventListLoader, adminRequest(shop, `/app/events${search}`)),
    );
    if (data.view !== "events") throw new Error(`Expected the events tab, got ${data.view}`);
    return data.events.map((row) => [row.orderId, row.recoveredBy]);
  }

  it("marks each event with how it was recovered, and filters by it", async () => {
    await seedEvents();
    expect(await list("")).toEqual([
      ["1003", "backfill"],
      ["1002", "reconciliation"],
      ["1001", null],
    ]);
    expect(await list("?recovered=reconciliation")).toEqual([["1002", "reconciliation"]]);
    expect(await list("?recovered=backfill")).toEqual([["1003", "backfill"]]);
    expect(await list("?recovered=reconciliation", OTHER_SHOP)).toEqual([
      ["1004", "reconciliation"],
    ]);
  });

  it("shows how an event was recovered on its page", async () => {
    const [plain, recovered] = await seedEvents();
    const detail = async (id: number) =>
      routeData(
        await callRoute(eventLoader, adminRequest(SHOP, `/app/events/${id}`), { id: String(id) }),
      );
    expect((await detail(recovered!.id)).event.recoveredBy).toBe("reconciliation");
    expect((await detail(plain!.id)).event.recoveredBy).toBeNull();
  });
});
