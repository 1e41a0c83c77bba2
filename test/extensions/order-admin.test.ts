import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OUTBOX_STATUSES } from "../../app/models/outbox-status";
import { ORDER_EVENT_TYPES, type OutboxMessage } from "../../app/protection/types";
import { EVENT_STATUSES, EVENT_TYPES } from "../../extensions/svc-order-admin/src/order-state";
import { launchChromium } from "../storefront/browser";
import { repoRoot } from "../support/test-env";
import {
  bundleTarget,
  startTestServer,
  translationsOf,
  type Answer,
  type TestServer,
} from "./harness";

// The order details block (extensions/svc-order-admin): bundled, run in Chromium with its
// target's `shopify` stubbed, on a page served by the app's test double, because the admin
// resolves the block's relative fetch against the app's URL (and adds the token itself).

const ROUTE = "/api/admin/order-protection";
const ORDER_ID = "gid://shopify/Order/5720000001001";
const ASSIST = "https://svc.example/checkout/assist/ord-1001";
const body = (guided: unknown) => ({
  order: { id: "5720000001001", name: "#1001", environment: "sandbox" },
  protected_lines: [
    {
      line_item_id: "11",
      title: "Aurora 14 Laptop",
      quantity: 1,
      plan_line_item_id: "12",
      plan_title: "2-year protection",
      product_reference: "laptop-2y",
    },
  ],
  events: [
    {
      type: "order_placed",
      status: "delivered",
      recorded_at: "2026-11-28T10:00:00.000Z",
      delivered_at: "2026-11-28T10:00:01.000Z",
    },
  ],
  guided_checkout: guided,
});
const READY = {
  status: "ready",
  link: ASSIST,
  available_plans: [
    {
      line_item_id: "13",
      product_reference: "phone-2y",
      plan_price_amount: 2499,
      plan_price_currency: "eur",
    },
  ],
};

const artifacts = path.join(repoRoot, "test/artifacts");
let browser: Browser;
let app: TestServer;
const pageErrors: string[] = [];

beforeAll(async () => {
  [browser, app] = await Promise.all([launchChromium(), startTestServer()]);
  mkdirSync(artifacts, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

afterEach(() => {
  app.answers.clear();
  app.requests.length = 0;
  expect(pageErrors.splice(0)).toEqual([]);
});

async function openBlock(answers: Answer[], locale: "en" | "de" = "en"): Promise<Page> {
  app.answers.set(ROUTE, answers);
  app.page = {
    // The dev-tunnel URL is unused here: the block fetches a relative URL.
    script: await bundleTarget("order-admin", app.url),
    config: {
      locale,
      translations: translationsOf("order-admin", locale),
      token: "unused: the admin adds it",
      orderId: ORDER_ID,
    },
  };
  const context = await browser.newContext({
    locale: locale === "en" ? "en-US" : "de-DE",
    timezoneId: "UTC",
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  // The context goes with its page; after afterAll closed the browser it is gone already.
  page.on("close", () => void context.close().catch(() => undefined));
  await page.goto(`${app.url}/page`);
  return page;
}

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

type MessageType = OutboxMessage["type"];

describe("the order details block's event names", () => {
  // The extension may not import the app's code, so it lists them itself.
  it("knows every status of the app's outbox and every message it sends", () => {
    expect([...EVENT_STATUSES].sort()).toEqual([...OUTBOX_STATUSES].sort());
    const confirmation: MessageType = "cart_checkout";
    expect([...EVENT_TYPES].sort()).toEqual([...ORDER_EVENT_TYPES, confirmation].sort());
  });

  it("has each of them translated in English and German", () => {
    for (const locale of ["en", "de"] as const) {
      const translations = translationsOf("order-admin", locale) as {
        status: Record<string, string>;
        eventType: Record<string, string>;
      };
      expect(Object.keys(translations.status).sort(), locale).toEqual([...EVENT_STATUSES].sort());
      expect(Object.keys(translations.eventType).sort(), locale).toEqual([...EVENT_TYPES].sort());
    }
  });
});

describe("the order details block", () => {
  it("shows the protected lines, the events sent and a button to the guided checkout", async () => {
    const page = await openBlock([{ status: 200, body: body(READY) }]);
    const button = page.locator("s-admin-block s-button");
    await button.waitFor();
    expect(await button.getAttribute("href")).toBe(ASSIST);
    expect(await button.getAttribute("target")).toBe("_blank");
    expect(await button.textContent()).toBe("Open guided checkout");
    expect(await page.locator("s-admin-block").getAttribute("heading")).toBe("Protection plans");
    expect(await texts(page, "s-heading")).toEqual([
      "Protected products",
      "Plan events sent",
      "Guided checkout",
    ]);
    const items = await texts(page, "s-list-item");
    expect(items[0]).toBe("Aurora 14 Laptop × 1: 2-year protection");
    expect(items[1]).toMatch(/^Order placed: delivered \(Nov 28, 2026, \d+:\d\d [AP]M\)$/);
    expect(await page.locator("s-badge").textContent()).toBe("Sandbox");
    expect(await page.getByText("from €24.99").count()).toBe(1);
    // A relative fetch, so on the app's own origin, with the order's GID.
    expect(app.requests).toEqual([{ path: ROUTE, orderId: ORDER_ID, authorization: undefined }]);
    await page.screenshot({ path: path.join(artifacts, "extension-order-admin-en.png") });
    // The README's picture of the block (Polaris drawn by the harness's stand-in styles).
    if (process.env.SVC_UPDATE_SCREENSHOTS === "1")
      await page.screenshot({
        path: path.join(repoRoot, "docs/screenshots/admin-order-block.png"),
        clip: { x: 0, y: 0, width: 560, height: 360 },
      });
    await page.close();
  });

  it("shows it in German", async () => {
    const page = await openBlock([{ status: 200, body: body(READY) }], "de");
    const button = page.locator("s-admin-block s-button");
    await button.waitFor();
    expect(await button.getAttribute("href")).toBe(ASSIST);
    expect(await button.textContent()).toBe("Geführten Checkout öffnen");
    expect(await page.locator("s-admin-block").getAttribute("heading")).toBe("Schutzpläne");
    const items = await texts(page, "s-list-item");
    expect(items[1]).toMatch(/^Bestellung aufgegeben: zugestellt \(28\.11\.2026, \d\d:\d\d\)$/);
    expect(
      (await page.locator("s-stack s-stack s-text").textContent())?.replace(/\s/g, " "),
    ).toContain("ab 24,99 €");
    await page.screenshot({ path: path.join(artifacts, "extension-order-admin-de.png") });
    await page.close();
  });

  it("says that no plan is available on none, with no button", async () => {
    const page = await openBlock([{ status: 200, body: body({ status: "none" }) }]);
    await page.getByText("No plan is available for this order's products.").waitFor();
    expect(await page.locator("s-button").count()).toBe(0);
    await page.close();
  });

  it("says on not_yet that the order has not arrived, and refreshes to the link", async () => {
    const notYet = { status: 200, body: body({ status: "not_yet", retry_after_ms: 1500 }) };
    const page = await openBlock([notYet, { status: 200, body: body(READY) }]);
    await page.getByText("The order has not reached the protection service yet.").waitFor();
    const refresh = page.locator("s-button");
    expect(await refresh.textContent()).toBe("Refresh");
    expect(await refresh.getAttribute("href")).toBeNull();
    await refresh.click();
    await page.locator(`s-button[href="${ASSIST}"]`).waitFor();
    expect(app.requests.map((request) => request.orderId)).toEqual([ORDER_ID, ORDER_ID]);
    await page.close();
  });

  it("stays on not_yet while the route does", async () => {
    const notYet = { status: 200, body: body({ status: "not_yet", retry_after_ms: 1500 }) };
    const page = await openBlock([notYet]);
    await page.getByText("Refresh").waitFor();
    await page.locator("s-button").click();
    await page.waitForTimeout(500);
    expect(app.requests).toHaveLength(2);
    expect(
      await page.getByText("The order has not reached the protection service yet.").count(),
    ).toBe(1);
    expect(await page.locator(`s-button[href]`).count()).toBe(0);
    await page.close();
  });

  it.each<[string, Answer]>([
    ["a 404", { status: 404, body: { error: { code: "order_not_found", message: "…" } } }],
    ["a 500 without JSON", { status: 500, body: null, raw: "Internal Server Error" }],
    ["a malformed body", { status: 200, body: { order: { id: 1 } } }],
  ])("shows a short error line on %s", async (_name, answer) => {
    const page = await openBlock([answer]);
    await page.getByText("The protection plans could not be loaded.").waitFor();
    expect(await page.locator("s-text[tone=critical]").count()).toBe(1);
    expect(await page.locator("s-button").count()).toBe(0);
    await page.close();
  });

  it("shows the guided checkout's error on its own, keeping the rest", async () => {
    const failed = { status: "error", error: { code: "service_timeout", message: "…" } };
    const page = await openBlock([{ status: 200, body: body(failed) }]);
    await page.getByText("The guided checkout could not be checked.").waitFor();
    expect((await texts(page, "s-list-item"))[0]).toBe("Aurora 14 Laptop × 1: 2-year protection");
    await page.close();
  });
});
