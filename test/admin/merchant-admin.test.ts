import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventTypeLabel } from "../../app/admin/components/event-log-ui";
import { GO_LIVE_EVENT_TYPES } from "../../app/admin/checklist";
import { createPrismaClient, type AppPrismaClient } from "../../app/db/client.server";
import { createTranslator } from "../../app/i18n/translate";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { EmulatorClient, LIVE_KEY, SANDBOX_KEY } from "../../emulator/test-support";
import { launchChromium } from "../storefront/browser";
import { appProxyRequest, plansQuery } from "../support/app-proxy";
import { localStore } from "../support/local-store";
import { addShopToStore, controlStore } from "../support/store-control";
import { repoRoot } from "../support/test-env";
import { OFFLINE_ILLUSTRATION, SHOPIFY_FILES } from "./harness";
import { startAdminServer, type AdminServer } from "./server";

// A merchant in Chromium, through the local store's embedded admin (/admin/apps/svc-protection):
// the store frames the built app, the App Bridge stand-in takes its session tokens from the
// admin page, and the admin page draws the app's navigation, toasts and resource picker. The shop
// is installed as Shopify installs it (managed install, token exchange), the orders are the
// store's, and their events reach the emulator. Each admin page is saved, with the admin around
// it, in test/artifacts/screenshots/admin-<page>.png; with SVC_UPDATE_SCREENSHOTS=1 in
// docs/screenshots/ too (linked from the README), so a test run leaves the tree clean.

const SHOP = "svc-merchant.myshopify.com";
const HANDLE = "svc-protection";
const screenshots = path.join(
  repoRoot,
  process.env.SVC_UPDATE_SCREENSHOTS === "1" ? "docs/screenshots" : "test/artifacts/screenshots",
);
const en = createTranslator("en");

/**
 * The admin as the merchant opens it: on localhost, like the app. Same site (ports aside), the app's
 * frame keeps its storage; a frame from another site loses it in a browser that blocks third-party
 * cookies (Chromium's incognito, Playwright's contexts), and Remix needs sessionStorage.
 */
const adminOrigin = () => localStore().url.replace("//127.0.0.1:", "//localhost:");

let emulator: RunningEmulator;
let service: EmulatorClient;
let server: AdminServer;
let browser: Browser;
let context: BrowserContext;
let prisma: AppPrismaClient;
const problems: string[] = [];
type Json = Record<string, unknown>;

const control = (pathName: string, body?: unknown) =>
  controlStore<Json>(localStore().url, pathName, body);

let headphonesVariant: string;
let planVariants: { id: string; title: string }[];

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port: 0 });
  service = new EmulatorClient(emulator);
  server = await startAdminServer({
    shopifyAdminOrigin: adminOrigin(),
    env: { SVC_BASE_URL: emulator.url },
  });
  prisma = createPrismaClient(process.env.DATABASE_URL!);
  await addShopToStore(localStore().url, SHOP, server.url);
  // As Shopify's managed install: the admin loads the app with a session token, which the app
  // trades for an offline token at the store.
  await control(`shops/${SHOP}/install`, {});
  const headphones = await control(`shops/${SHOP}/products`, {
    title: "Noise-cancelling headphones",
    variants: [{ title: "Default Title", price: "249.00" }],
  });
  headphonesVariant = String((headphones.variants as Json[])[0]!.id);
  const plan = await control(`shops/${SHOP}/products`, {
    title: "Accident protection",
    variants: [
      { title: "2 years", price: "19.99" },
      { title: "3 years", price: "39.99" },
    ],
  });
  planVariants = (plan.variants as Json[]).map((variant) => ({
    id: String(variant.id),
    title: String(variant.title),
  }));
  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 1440, height: 1000 },
    deviceScaleFactor: 1,
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`,
  });
  const local = new Set([adminOrigin(), new URL(server.url).origin]);
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url.startsWith(SHOPIFY_FILES)) {
      await route.fulfill({ body: OFFLINE_ILLUSTRATION, contentType: "image/svg+xml" });
    } else if (url.startsWith("data:") || local.has(new URL(url).origin)) {
      await route.continue();
    } else {
      problems.push(`request that would leave the machine: ${url}`);
      await route.abort("blockedbyclient");
    }
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await prisma?.$disconnect();
  if (server) expect(await server.stop()).toBe(0);
  await emulator?.close();
});

function watch(page: Page) {
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 400) {
      problems.push(`${response.status()} from ${response.request().method()} ${response.url()}`);
    }
  });
}

/** The app's frame, once its page shows `title` and Remix has settled. */
async function appFrame(page: Page, title: string): Promise<Frame> {
  const frame = page.frame({ name: "app-iframe" });
  if (!frame) throw new Error("The admin has no app frame");
  try {
    await expect
      .poll(() => frame.getByRole("heading", { level: 1 }).first().innerText(), {
        timeout: 15_000,
      })
      .toBe(title);
  } catch (error) {
    const text = await frame.locator("body").innerText();
    throw new Error(
      `${String(error)} at ${frame.url()}\n${problems.join("\n")}\n${text.slice(0, 1500)}\n${server.output().slice(-3000)}`,
    );
  }
  await frame.waitForFunction(() => {
    const router = (
      window as unknown as { __remixRouter?: { state: { navigation: { state: string } } } }
    ).__remixRouter;
    return router?.state.navigation.state === "idle";
  });
  await frame.waitForLoadState("networkidle");
  return frame;
}

/** A click in the admin's own navigation, drawn from the app's ui-nav-menu. */
async function navigateTo(page: Page, label: string, appPath: string, title: string) {
  await page.locator("#svc-admin-app-nav").getByRole("link", { name: label }).click();
  await page.waitForURL((url) => url.pathname === `/admin/apps/${HANDLE}${appPath}`);
  const frame = await appFrame(page, title);
  await expect
    .poll(() => page.locator("#svc-admin-app-nav a[aria-current=page]").allInnerTexts(), {
      message: "the admin marks the page in its navigation",
    })
    .toEqual([label]);
  await expect.poll(() => page.locator("#svc-admin-title").innerText()).toBe(label);
  return frame;
}

/** On the connection page (opened from the admin's navigation), a secret key saved in its card. */
async function saveKey(page: Page, cardTitle: string, key: string) {
  const frame = await navigateTo(
    page,
    en("common.nav.connection"),
    "/app/connection",
    en("connection.title"),
  );
  const card = frame
    .locator("form")
    .filter({ has: frame.getByRole("heading", { name: cardTitle }) });
  await card.getByLabel(en("connection.keys.secretKey")).fill(key);
  await card.getByRole("button", { name: en("connection.keys.save") }).click();
  return { frame, card };
}

async function screenshot(page: Page, name: string) {
  // Polaris's progress bars grow in a transition: the page is taken once it has settled
  // (spinners, which never end, aside).
  await page
    .frame({ name: "app-iframe" })!
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (animation) =>
              animation.playState !== "running" ||
              animation.effect?.getTiming().iterations === Infinity,
          ),
      undefined,
      { timeout: 5_000 },
    );
  // Toasts and the loading bar come and go; the pages are judged without them.
  await page.locator(".svc-admin-toast").evaluateAll((toasts) => toasts.forEach((t) => t.remove()));
  await page.screenshot({ path: path.join(screenshots, `admin-${name}.png`) });
}

async function eventsOfOrder(orderId: string): Promise<string[]> {
  const requests = await service.requests();
  return requests.flatMap((request) => {
    const body = request.body as { type?: string; payload?: { order_id?: string } } | null;
    return body?.payload?.order_id === orderId && request.status < 300 && body.type
      ? [body.type]
      : [];
  });
}

/** The storefront's calls through the app proxy: the offer block's lookup and the embed's cart. */
async function storefrontVisit() {
  const send = async (request: Request) => {
    const url = new URL(request.url);
    const answer = await fetch(`${server.url}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.method === "GET" ? undefined : await request.text(),
    });
    expect(answer.status, `${url.pathname}: ${await answer.clone().text()}`).toBe(200);
  };
  await send(appProxyRequest({ path: "plans", shop: SHOP, query: plansQuery(headphonesVariant) }));
  await send(
    appProxyRequest({
      path: "cart_updates",
      shop: SHOP,
      body: JSON.stringify({
        user_session_id: "3b1f5a52-6f0e-4c55-9e2b-7d6a8d0f1c11",
        cart: { token: "c1-merchant-test", currency: "EUR", items: [] },
      }),
    }),
  );
}

describe("a merchant in the local store's embedded admin", { timeout: 180_000 }, () => {
  it("connects the sandbox, maps protection items, sees an order's events and goes live", async () => {
    const page = await context.newPage();
    watch(page);
    await page.goto(`${adminOrigin()}/admin/apps/${HANDLE}`);

    // The admin around the app: the shop, the app's navigation (from its ui-nav-menu), the frame.
    expect(await page.locator(".svc-admin-shop").innerText()).toContain(
      localStore().state.shop(SHOP)!.name,
    );
    let frame = await appFrame(page, en("home.title"));
    expect(frame.url()).toContain("embedded=1");
    await expect
      .poll(() => page.locator("#svc-admin-app-nav a").allInnerTexts())
      .toEqual([
        en("common.nav.connection"),
        en("common.nav.items"),
        en("common.nav.events"),
        en("common.nav.settings"),
      ]);
    expect(await frame.locator("body").innerText()).toContain(en("common.status.not_connected"));
    expect(page.url()).toBe(`${adminOrigin()}/admin/apps/${HANDLE}/app`);

    // Connection: the sandbox key, checked with the service.
    const sandbox = await saveKey(page, en("connection.keys.sandboxTitle"), SANDBOX_KEY);
    frame = sandbox.frame;
    await expect
      .poll(() => frame.locator("body").innerText(), { timeout: 10_000 })
      .toContain(en("connection.keys.verifiedSaved"));
    await expect
      .poll(() => sandbox.card.innerText())
      .toContain(en("connection.keys.saved", { last4: SANDBOX_KEY.slice(-4) }));

    // Protection items: the plan's variants picked in the admin's resource picker.
    frame = await navigateTo(page, en("common.nav.items"), "/app/items", en("items.title"));
    await frame.getByRole("button", { name: en("items.map.pickVariants") }).click();
    const picker = page.getByRole("dialog", { name: "Select variants" });
    await expect.poll(() => picker.isVisible()).toBe(true);
    for (const variant of planVariants) {
      await picker.getByLabel(`Accident protection - ${variant.title}`).check();
    }
    await picker.getByRole("button", { name: "Select" }).click();
    await expect
      .poll(() => frame.locator("body").innerText(), { timeout: 10_000 })
      .toContain(en("items.results.mapped", { count: 2 }));
    await expect
      .poll(() => frame.locator("body").innerText(), { timeout: 10_000 })
      .toContain("Accident protection - 3 years");
    expect(await prisma.protectionItem.count({ where: { shop: SHOP } })).toBe(2);
    await screenshot(page, "items");

    // The storefront shows the offer and the embed reports the cart; a buyer orders a plan, and
    // the merchant ships one, refunds one plan and cancels the rest in the store: four events reach the sandbox.
    await storefrontVisit();
    const planVariant = planVariants[1]!;
    const order = await control(`shops/${SHOP}/orders`, {
      line_items: [
        { variant_id: headphonesVariant, quantity: 2 },
        {
          variant_id: planVariant.id,
          quantity: 2,
          requires_shipping: false,
          properties: [{ name: "_svc_protected_product_ref", value: headphonesVariant }],
        },
      ],
      customer: { email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" },
    });
    const orderId = String(order.id);
    const [productLine, planLine] = (order.line_items as Json[]).map((line) => String(line.id));
    await expect.poll(() => eventsOfOrder(orderId), { timeout: 30_000 }).toContain("order_placed");
    await control(`shops/${SHOP}/orders/${orderId}/fulfillments`, {
      line_items: [{ id: productLine, quantity: 1 }],
    });
    await expect
      .poll(() => eventsOfOrder(orderId), { timeout: 30_000 })
      .toContain("order_fulfillment_added");
    await control(`shops/${SHOP}/orders/${orderId}/refunds`, {
      refund_line_items: [{ line_item_id: planLine, quantity: 1, restock_type: "no_restock" }],
    });
    await expect
      .poll(() => eventsOfOrder(orderId), { timeout: 30_000 })
      .toContain("order_refund_added");
    await control(`shops/${SHOP}/orders/${orderId}/cancel`, { reason: "customer", refund: true });
    await expect
      .poll(() => eventsOfOrder(orderId), { timeout: 30_000 })
      .toContain("order_cancelled");

    // The event log lists the order's four events; one opens with its payload.
    frame = await navigateTo(page, en("common.nav.events"), "/app/events", en("events.title"));
    const log = await frame.locator("body").innerText();
    expect(log).toContain(String(order.name));
    for (const type of GO_LIVE_EVENT_TYPES) expect(log).toContain(eventTypeLabel(en, type));
    await screenshot(page, "events");
    const placed = await prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SHOP, orderId, eventType: "order_placed" },
    });
    await frame.getByRole("link", { name: `#${placed.id}`, exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname === `/admin/apps/${HANDLE}/app/events/${placed.id}`,
    );
    frame = await appFrame(
      page,
      en("events.detail.title", { type: eventTypeLabel(en, "order_placed"), id: placed.id }),
    );
    expect(await frame.locator("pre").first().innerText()).toContain(`"order_id": "${orderId}"`);
    await screenshot(page, "event");
    // A link to the order in Shopify's admin: the local admin has no order page, and says where
    // the order is instead of leaving the admin.
    await frame
      .getByRole("link", { name: String(order.name) })
      .first()
      .click();
    await expect
      .poll(() => page.locator(".svc-admin-toast span").allInnerTexts())
      .toContain(
        `The local admin has no orders page: see /__store/shops/${SHOP}/orders/${orderId}`,
      );
    expect(page.url()).toContain(`/admin/apps/${HANDLE}/app/events/${placed.id}`);

    // Go live: the live key, then the switch, confirmed.
    const live = await saveKey(page, en("connection.keys.liveTitle"), LIVE_KEY);
    frame = live.frame;
    await expect
      .poll(() => live.card.innerText(), { timeout: 10_000 })
      .toContain(en("connection.keys.saved", { last4: LIVE_KEY.slice(-4) }));
    await expect
      .poll(() => frame.locator("body").innerText(), { timeout: 10_000 })
      .toContain(en("connection.environment.ready"));
    await frame.getByRole("button", { name: en("connection.environment.goLive") }).click();
    const confirm = frame.getByRole("dialog");
    await confirm.getByLabel(en("connection.environment.goLiveConfirm")).check();
    await confirm.getByRole("button", { name: en("connection.environment.goLive") }).click();
    await expect
      .poll(() => frame.locator("body").innerText(), { timeout: 10_000 })
      .toContain(en("connection.environment.wentLive"));
    await expect
      .poll(() => frame.locator("body").innerText(), { timeout: 10_000 })
      .toContain(en("connection.environment.inProduction"));
    await screenshot(page, "connection");

    frame = await navigateTo(
      page,
      en("common.nav.settings"),
      "/app/settings",
      en("settings.title"),
    );
    await screenshot(page, "settings");

    // Home, from the app's entry in the admin's navigation; its toast is drawn by the admin.
    await page.locator(".svc-admin-nav-app").click();
    await page.waitForURL((url) => url.pathname === `/admin/apps/${HANDLE}/app`);
    frame = await appFrame(page, en("home.title"));
    expect(await frame.locator("body").innerText()).toContain(en("common.status.connected"));
    await screenshot(page, "home");
    const reconcile = frame.getByRole("region", { name: en("home.reconciliation.heading") });
    await reconcile.getByRole("button", { name: en("home.reconciliation.action") }).click();
    await expect
      .poll(() => page.locator(".svc-admin-toast span").allInnerTexts(), { timeout: 10_000 })
      .toContain(en("home.reconciliation.done.queued"));

    expect(problems).toEqual([]);
  });
});
