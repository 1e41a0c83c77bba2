import { AppProvider } from "@shopify/shopify-app-remix/react";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import prisma from "../../app/db.server";
import { goLiveChecklist } from "../../app/admin/checklist.server";
import Home, { ErrorBoundary, loader as homeLoader } from "../../app/routes/app._index/route";
import { testDatabaseProvider } from "../support/databases";
import { TEST_API_KEY } from "../support/test-env";
import { adminRequest, callRoute, routeData } from "../support/routes";
import { createOfflineSession } from "../support/offline-session";

// The admin's home page: the go-live checklist the app detects by itself, and the figures of
// the shop's current environment, read through the real loader with a valid session token.
const provider = testDatabaseProvider();
const SHOP_A = "home-a.myshopify.com";
const SHOP_B = "home-b.myshopify.com";
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

type HomeData = Awaited<ReturnType<typeof homeLoader>>;

async function loadHome(shop: string): Promise<HomeData> {
  return routeData(await callRoute(homeLoader, adminRequest(shop, "/app")));
}

/**
 * The page as the admin gets it: the route's component in a router holding the `routes/app`
 * loader's locale and this route's loader data, inside the app's Polaris and App Bridge provider.
 */
function renderHome(data: HomeData | Error, locale: "en" | "de") {
  // Polaris warns that its layout effects do nothing on the server; the browser runs them.
  const consoleError = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes("useLayoutEffect does nothing on the server")) {
      process.stderr.write(`${args.map(String).join(" ")}\n`);
    }
  });
  try {
    return renderRoutes(data, locale);
  } finally {
    consoleError.mockRestore();
  }
}

function renderRoutes(data: HomeData | Error, locale: "en" | "de") {
  const router = createMemoryRouter(
    [
      {
        id: "routes/app",
        path: "/app",
        loader: () => null,
        element: h(AppProvider, { isEmbeddedApp: true, apiKey: TEST_API_KEY }, h(Outlet)),
        children: [
          {
            id: "routes/app._index",
            index: true,
            loader: () => null,
            element: h(Home),
            errorElement: h(ErrorBoundary),
          },
        ],
      },
    ],
    {
      initialEntries: ["/app"],
      hydrationData: {
        loaderData: {
          "routes/app": { locale, apiKey: TEST_API_KEY },
          ...(data instanceof Error ? {} : { "routes/app._index": data }),
        },
        errors: data instanceof Error ? { "routes/app._index": data } : null,
      },
    },
  );
  return renderToString(h(RouterProvider, { router }));
}

/** The page's visible text, without markup; a missing string would show as its key. */
function textOf(html: string) {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/[\s\u00a0\u202f]+/g, " ");
}

const UNTRANSLATED_KEY = /\b(?:home|common)\.[a-z_]+\.[\w.]+/i;

function anchorTo(html: string, href: string) {
  const escaped = href.replace(/&/g, "&amp;").replace(/[.?*+^$()[\]{}|\\/]/g, "\\$&");
  return new RegExp(`<a[^>]*href="${escaped}"[^>]*>`).exec(html)?.[0] ?? null;
}

function doneById(data: HomeData) {
  return Object.fromEntries(data.checklist.steps.map((step) => [step.id, step.done]));
}

function stepOf<Id extends HomeData["checklist"]["steps"][number]["id"]>(data: HomeData, id: Id) {
  const step = data.checklist.steps.find((candidate) => candidate.id === id);
  return step as Extract<HomeData["checklist"]["steps"][number], { id: Id }>;
}

let sequence = 0;
interface EventSeed {
  shop?: string;
  environment?: "sandbox" | "production";
  eventType?: string;
  status: string;
  ageMs: number;
  count?: number;
}

async function seedEvents(seeds: EventSeed[]) {
  const now = Date.now();
  await prisma.outboxEvent.createMany({
    data: seeds.flatMap((seed) =>
      Array.from({ length: seed.count ?? 1 }, () => {
        sequence += 1;
        return {
          shop: seed.shop ?? SHOP_A,
          environment: seed.environment ?? "sandbox",
          orderId: `order-${sequence}`,
          eventType: seed.eventType ?? "order_placed",
          dedupeKey: `seed-${sequence}`,
          payload: "{}",
          status: seed.status,
          createdAt: new Date(now - seed.ageMs),
          deliveredAt: seed.status === "delivered" ? new Date(now - seed.ageMs) : null,
        };
      }),
    ),
  });
}

interface OrderSeed {
  shop?: string;
  environment?: "sandbox" | "production";
  ageMs: number;
  planLineCount: number;
  planRevenue?: number;
  currency?: string;
  variantIds: string[];
}

async function seedOrders(seeds: OrderSeed[]) {
  const now = Date.now();
  await prisma.orderSummary.createMany({
    data: seeds.map((seed) => {
      sequence += 1;
      return {
        shop: seed.shop ?? SHOP_A,
        orderId: `order-${sequence}`,
        environment: seed.environment ?? "sandbox",
        placedAt: new Date(now - seed.ageMs),
        currency: seed.currency ?? "eur",
        lineCount: seed.variantIds.length + seed.planLineCount,
        planLineCount: seed.planLineCount,
        planRevenue: seed.planRevenue ?? 0,
        variantIds: JSON.stringify(seed.variantIds),
      };
    }),
  });
}

beforeEach(async () => {
  await prisma.session.deleteMany({});
  await prisma.shopConnection.deleteMany({});
  await prisma.protectionItem.deleteMany({});
  await prisma.outboxEvent.deleteMany({});
  await prisma.orderSummary.deleteMany({});
  await prisma.protectableVariant.deleteMany({});
  for (const shop of [SHOP_A, SHOP_B]) {
    await createOfflineSession(prisma, shop, "shpat_offline_token");
  }
});

/** Shop B has done everything, with lots of traffic: none of it may show for shop A. */
async function seedBusyShopB() {
  const at = new Date(Date.now() - 2 * DAY);
  await prisma.shopConnection.create({
    data: {
      shop: SHOP_B,
      status: "connected",
      sandboxKeyVerifiedAt: at,
      liveKeyVerifiedAt: at,
      embedSeenAt: at,
      offerBlockSeenAt: at,
    },
  });
  await prisma.protectionItem.create({
    data: {
      shop: SHOP_B,
      strategy: "one_to_all",
      productId: "900",
      variantId: "901",
      title: "Protection",
    },
  });
  await seedEvents([
    ...["order_placed", "order_fulfillment_added", "order_refund_added", "order_cancelled"].map(
      (eventType) => ({ shop: SHOP_B, eventType, status: "delivered", ageMs: 2 * HOUR, count: 2 }),
    ),
    { shop: SHOP_B, status: "failed", ageMs: 3 * HOUR, count: 2 },
    { shop: SHOP_B, environment: "production", status: "delivered", ageMs: HOUR, count: 3 },
  ]);
  await seedOrders([
    {
      shop: SHOP_B,
      ageMs: HOUR,
      planLineCount: 1,
      planRevenue: 50_000,
      variantIds: ["999"],
    },
    { shop: SHOP_B, ageMs: 2 * DAY, planLineCount: 0, variantIds: ["999"] },
  ]);
  await prisma.protectableVariant.create({
    data: { shop: SHOP_B, variantId: "999", lastOfferedAt: new Date() },
  });
}

describe(`admin home (${provider})`, () => {
  it("shows an empty shop every step open and zero figures", async () => {
    const data = await loadHome(SHOP_A);
    expect(data.shop).toBe(SHOP_A);
    expect(data.connection).toBeNull();
    expect(Object.values(doneById(data))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(data.checklist.readyToGoLive).toBe(false);
    expect(data.dashboard.environment).toBe("sandbox");
    expect(data.dashboard.events).toEqual({
      last24h: { delivered: 0, failed: 0, waiting: 0 },
      last7d: { delivered: 0, failed: 0, waiting: 0 },
    });
    expect(data.dashboard.days).toHaveLength(7);
    expect(data.dashboard.orders).toEqual({
      last24h: { reportedOrders: 0, protectedOrders: 0, planRevenue: [] },
      last7d: { reportedOrders: 0, protectedOrders: 0, planRevenue: [] },
      attach: { ordersWithPlan: 0, ordersWithProtectableProduct: 0, rate: null },
    });
  });

  it("links the theme editor to the app's embed and offer block", async () => {
    const data = await loadHome(SHOP_A);
    expect(data.links).toEqual({
      appEmbed: `https://${SHOP_A}/admin/themes/current/editor?context=apps&activateAppId=${TEST_API_KEY}/cart-rules`,
      offerBlock: `https://${SHOP_A}/admin/themes/current/editor?template=product&addAppBlockId=${TEST_API_KEY}/protection-offer&target=mainSection`,
    });
  });

  it("detects each step from the shop's data, and is ready to go live only with a verified live key", async () => {
    await seedBusyShopB();
    const seen = new Date(Date.now() - DAY);
    await prisma.shopConnection.create({
      data: {
        shop: SHOP_A,
        status: "connected",
        sandboxKeyVerifiedAt: seen,
        embedSeenAt: seen,
        offerBlockSeenAt: seen,
      },
    });
    expect(doneById(await loadHome(SHOP_A))).toEqual({
      sandbox_key: true,
      protection_items: false,
      app_embed: true,
      offer_block: true,
      test_order: false,
      sandbox_events: false,
      live: false,
    });

    await prisma.protectionItem.create({
      data: {
        shop: SHOP_A,
        strategy: "one_to_one",
        productId: "100",
        variantId: "101",
        title: "2-year protection",
      },
    });
    // Not yet tested: an event delivered in production, or one still waiting in the sandbox.
    await seedEvents([
      { eventType: "order_placed", status: "delivered", ageMs: 3 * DAY },
      { eventType: "order_fulfillment_added", status: "delivered", ageMs: 2 * DAY },
      { eventType: "order_refund_added", status: "delivered", ageMs: DAY },
      { eventType: "order_cancelled", status: "failed", ageMs: HOUR },
      { eventType: "order_cancelled", status: "delivered", ageMs: HOUR, environment: "production" },
    ]);
    let data = await loadHome(SHOP_A);
    expect(stepOf(data, "protection_items")).toMatchObject({ done: true, detail: { count: 1 } });
    expect(stepOf(data, "test_order").done).toBe(true);
    expect(stepOf(data, "sandbox_events")).toEqual({
      id: "sandbox_events",
      done: false,
      detail: {
        delivered: {
          order_placed: true,
          order_fulfillment_added: true,
          order_refund_added: true,
          order_cancelled: false,
        },
      },
    });

    await prisma.outboxEvent.updateMany({
      where: { shop: SHOP_A, eventType: "order_cancelled", environment: "sandbox" },
      data: { status: "delivered", deliveredAt: new Date() },
    });
    data = await loadHome(SHOP_A);
    expect(Object.entries(doneById(data)).filter(([, done]) => !done)).toEqual([["live", false]]);
    expect(data.checklist.readyToGoLive).toBe(false);
    expect(await goLiveChecklist(prisma, SHOP_A)).toEqual(data.checklist);

    const verified = new Date();
    await prisma.shopConnection.update({
      where: { shop: SHOP_A },
      data: { liveKeyVerifiedAt: verified },
    });
    data = await loadHome(SHOP_A);
    expect(data.checklist.readyToGoLive).toBe(true);
    expect(stepOf(data, "live")).toMatchObject({
      done: false,
      detail: { liveKeyVerifiedAt: verified.toISOString() },
    });

    await prisma.shopConnection.update({
      where: { shop: SHOP_A },
      data: { environment: "production", liveSince: new Date() },
    });
    data = await loadHome(SHOP_A);
    expect(Object.values(doneById(data)).every(Boolean)).toBe(true);

    // A key the service later refuses opens the first step again.
    await prisma.shopConnection.update({
      where: { shop: SHOP_A },
      data: { status: "key_rejected" },
    });
    data = await loadHome(SHOP_A);
    expect(stepOf(data, "sandbox_key")).toMatchObject({
      done: false,
      detail: { keyRejected: true },
    });
    expect(data.checklist.readyToGoLive).toBe(false);
  });

  it("counts events and orders of the current environment over the last 24 hours and 7 days", async () => {
    await seedBusyShopB();
    await prisma.shopConnection.create({ data: { shop: SHOP_A, status: "connected" } });
    await seedEvents([
      { status: "delivered", ageMs: 2 * HOUR, count: 3 },
      { status: "failed", ageMs: 2 * HOUR },
      { status: "dead", ageMs: 5 * HOUR },
      { status: "pending", ageMs: 10 * 60_000 },
      { status: "delivered", ageMs: 30 * HOUR, count: 2 },
      { status: "unprocessable", ageMs: 30 * HOUR },
      { status: "delivered", ageMs: 6.5 * DAY },
      { status: "delivered", ageMs: 8 * DAY, count: 5 },
      { status: "delivered", ageMs: 2 * HOUR, count: 4, environment: "production" },
    ]);
    await seedOrders([
      { ageMs: 3 * HOUR, planLineCount: 1, planRevenue: 1999, variantIds: ["111"] },
      { ageMs: 20 * HOUR, planLineCount: 0, variantIds: ["111", "999"] },
      { ageMs: 5 * DAY, planLineCount: 0, variantIds: ["111", "999"] },
      { ageMs: 2 * DAY, planLineCount: 2, planRevenue: 5000, variantIds: ["222"] },
      {
        ageMs: 3 * DAY,
        planLineCount: 1,
        planRevenue: 1500,
        currency: "jpy",
        variantIds: ["333"],
      },
      { ageMs: 4 * DAY, planLineCount: 0, variantIds: ["999"] },
      { ageMs: 8 * DAY, planLineCount: 1, planRevenue: 99_999, variantIds: ["111"] },
      {
        ageMs: HOUR,
        planLineCount: 1,
        planRevenue: 7777,
        variantIds: ["111"],
        environment: "production",
      },
    ]);
    await prisma.protectableVariant.createMany({
      data: ["111", "222"].map((variantId) => ({
        shop: SHOP_A,
        variantId,
        lastOfferedAt: new Date(),
      })),
    });

    let dashboard = (await loadHome(SHOP_A)).dashboard;
    expect(dashboard.environment).toBe("sandbox");
    expect(dashboard.events).toEqual({
      last24h: { delivered: 3, failed: 2, waiting: 1 },
      last7d: { delivered: 6, failed: 3, waiting: 1 },
    });
    expect(dashboard.days.map((day) => [day.delivered, day.failed])).toEqual([
      [1, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [2, 1],
      [3, 2],
    ]);
    expect(dashboard.orders).toEqual({
      last24h: {
        reportedOrders: 2,
        protectedOrders: 1,
        planRevenue: [{ currency: "EUR", amount: 1999 }],
      },
      last7d: {
        reportedOrders: 6,
        protectedOrders: 3,
        planRevenue: [
          { currency: "EUR", amount: 6999 },
          { currency: "JPY", amount: 1500 },
        ],
      },
      // Orders with a plan (3) ÷ with a protectable product (those 3 and the two with "111").
      attach: { ordersWithPlan: 3, ordersWithProtectableProduct: 5, rate: 0.6 },
    });

    // Live: the figures follow the environment.
    await prisma.shopConnection.update({
      where: { shop: SHOP_A },
      data: { environment: "production", liveSince: new Date() },
    });
    dashboard = (await loadHome(SHOP_A)).dashboard;
    expect(dashboard.environment).toBe("production");
    expect(dashboard.events.last7d).toEqual({ delivered: 4, failed: 0, waiting: 0 });
    const production = {
      reportedOrders: 1,
      protectedOrders: 1,
      planRevenue: [{ currency: "EUR", amount: 7777 }],
    };
    expect(dashboard.orders).toEqual({
      last24h: production,
      last7d: production,
      attach: { ordersWithPlan: 1, ordersWithProtectableProduct: 1, rate: 1 },
    });
  });

  it("keeps each shop's figures to itself", async () => {
    await seedBusyShopB();
    await prisma.shopConnection.create({ data: { shop: SHOP_A, status: "connected" } });
    await seedOrders([{ ageMs: HOUR, planLineCount: 0, variantIds: ["999"] }]);

    const a = await loadHome(SHOP_A);
    expect(a.dashboard.events.last7d).toEqual({ delivered: 0, failed: 0, waiting: 0 });
    expect(a.dashboard.orders.last7d).toEqual({
      reportedOrders: 1,
      protectedOrders: 0,
      planRevenue: [],
    });
    // "999" was offered plans in shop B, not in shop A.
    expect(a.dashboard.orders.attach).toEqual({
      ordersWithPlan: 0,
      ordersWithProtectableProduct: 0,
      rate: null,
    });
    expect(doneById(a)).toMatchObject({ protection_items: false, sandbox_events: false });

    const b = await loadHome(SHOP_B);
    expect(b.dashboard.events.last24h).toEqual({ delivered: 8, failed: 2, waiting: 0 });
    expect(b.dashboard.orders).toEqual({
      last24h: {
        reportedOrders: 1,
        protectedOrders: 1,
        planRevenue: [{ currency: "EUR", amount: 50_000 }],
      },
      last7d: {
        reportedOrders: 2,
        protectedOrders: 1,
        planRevenue: [{ currency: "EUR", amount: 50_000 }],
      },
      attach: { ordersWithPlan: 1, ordersWithProtectableProduct: 2, rate: 0.5 },
    });
    expect(b.checklist.readyToGoLive).toBe(true);
  });

  it("renders the checklist with deep links for an empty shop, in English, with no untranslated key", async () => {
    const data = await loadHome(SHOP_A);
    const html = renderHome(data, "en");
    const text = textOf(html);
    expect(text).toContain("Go-live checklist");
    expect(text).toContain("0 of 7 steps done");
    expect(text).toContain("No events yet — place a test order in your development store.");
    expect(text).not.toMatch(UNTRANSLATED_KEY);
    for (const link of [data.links.appEmbed, data.links.offerBlock]) {
      expect(anchorTo(html, link)).toMatch(/target="_top"/);
    }
    expect(anchorTo(html, "/app/connection")).not.toBeNull();
  });

  it("renders the figures, the chart and its table in German", async () => {
    await prisma.shopConnection.create({
      data: { shop: SHOP_A, status: "connected", sandboxKeyVerifiedAt: new Date() },
    });
    await seedEvents([
      { status: "delivered", ageMs: 2 * HOUR, count: 3 },
      { status: "failed", ageMs: 30 * HOUR },
    ]);
    await seedOrders([
      { ageMs: 3 * HOUR, planLineCount: 1, planRevenue: 123_456, variantIds: ["111"] },
      { ageMs: 2 * DAY, planLineCount: 0, variantIds: ["111"] },
    ]);
    await prisma.protectableVariant.create({
      data: { shop: SHOP_A, variantId: "111", lastOfferedAt: new Date() },
    });
    const html = renderHome(await loadHome(SHOP_A), "de");
    const text = textOf(html);
    expect(text).toContain("Checkliste für den Livegang");
    // The sandbox key and, with the delivered order_placed events, the test order.
    expect(text).toContain("2 von 7 Schritten erledigt");
    expect(text).toContain("Zahlen der Umgebung Sandbox.");
    expect(text).toContain("1.234,56 €");
    expect(text).toContain("50 %");
    expect(text).toContain("Bestellung: zugestellt");
    expect(text).toContain("Stornierung: noch nicht");
    expect(text).not.toMatch(UNTRANSLATED_KEY);
    expect(html).toMatch(
      /<svg[^>]*role="img"[^>]*aria-label="Bestellereignisse pro Tag, letzte 7 Tage"/,
    );
    expect(html).toContain("<title>Bestellereignisse pro Tag, letzte 7 Tage</title>");
    const rows = [
      ...html.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g),
    ];
    expect(rows.map((row) => [row[2], row[3]])).toEqual([
      ["0", "0"],
      ["0", "0"],
      ["0", "0"],
      ["0", "0"],
      ["0", "0"],
      ["0", "1"],
      ["3", "0"],
    ]);
  });

  it("says what to do when the page fails", () => {
    const text = textOf(renderHome(new Error("database is down"), "en"));
    expect(text).toContain("The home page could not be loaded");
    expect(text).toContain("Reload the page.");
    expect(text).not.toContain("database is down");
  });
});
