import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/server";
import type { EmulatorClient } from "../../emulator/test-support";
import type { RunningStore } from "../../store/server/server";
import { describeWithDawn } from "../../store/storefront/theme/with-dawn";
import {
  sellLaptopsWithPlans,
  startAppAgainstStore,
  type AppAgainstStore,
  type StoreProduct,
} from "../support/app-against-store";
import { repoRoot } from "../support/test-env";
import { BROWSER_USER_AGENT, launchChromium } from "./browser";

/*
 * After the checkout, in Chromium: a buyer orders a laptop WITHOUT a plan through Dawn, checks
 * out in the local store, and lands on its Thank-you page, where the store hosts the app's real
 * purchase.thank-you.block.render extension (store/storefront/extensions, decision 032). The
 * block asks the built app (npm start) with the checkout session token the store signs, the app
 * asks the protection-service emulator, and the block shows the emulator's redirect link for
 * the order, in English and in German. With the merchant's self-service switch off, no block.
 *
 * Screenshot: test/artifacts/dawn-thank-you.png; with SVC_UPDATE_SCREENSHOTS=1 also
 * docs/screenshots/storefront-thank-you.png, which the README links.
 */

const SHOP = "svc-thanks.myshopify.com";
const BLOCK = 'iframe[data-extension="svc-post-purchase"]';
const artifacts = path.join(repoRoot, "test/artifacts");

let stack: AppAgainstStore;
let emulator: RunningEmulator;
let service: EmulatorClient;
let store: RunningStore;
let browser: Browser;
let laptop: StoreProduct;

const appLog = () => stack?.explain() ?? "";

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  stack = await startAppAgainstStore({
    storefrontShop: SHOP,
    storefrontApp: { block: true, embed: true, theme: "dawn" },
  });
  ({ emulator, service, store } = stack);
  ({ laptop } = await sellLaptopsWithPlans(stack, SHOP));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function openBuyer(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  // Shopify's library answers a bot's user agent (HeadlessChrome) with 410: a buyer's browser.
  const context = await browser.newContext({
    viewport: { width: 1000, height: 900 },
    userAgent: BROWSER_USER_AGENT,
  });
  const problems: string[] = [];
  // Nothing may leave the machine.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => {
    problems.push(`outside request: ${route.request().url()}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  return { context, page, problems };
}

/**
 * Through Dawn: the product page with our offer left at "No protection", Dawn's add to cart,
 * the cart page's "Check out", the checkout's "Pay now". Answers the order's ID.
 */
async function buyWithoutPlan(page: Page): Promise<string> {
  await page.goto(`${store.url}/products/${laptop.handle}`, { waitUntil: "load" });
  const offer = page.locator(".product__info-container [data-svc-offer]");
  await expect.poll(() => offer.getAttribute("data-state"), { timeout: 15_000 }).toBe("ready");
  expect(await offer.locator('input[value=""]').isChecked()).toBe(true);
  const added = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/cart/add" && response.status() === 200,
  );
  await page.locator('product-form button[name="add"]').click();
  await added;
  await expect
    .poll(() => page.locator("#cart-notification").getAttribute("class"))
    .toContain("active");
  await page.goto(`${store.url}/cart`, { waitUntil: "load" });
  await page.locator("button#checkout").click();
  await page.waitForURL(/\/checkout$/);
  expect(await page.locator("#checkout-lines").textContent()).not.toContain("protection");
  await page.locator("#checkout-pay").click();
  await page.waitForURL(/\/checkouts\/[^/]+\/thank-you$/);
  return (await page.locator("#order-id").textContent())?.trim() ?? "";
}

/** The redirect link the emulator gave for the order (the self-service checkout). */
async function redirectLinkOf(orderId: string): Promise<string | undefined> {
  const state = await service.state("sandbox");
  return state.checkout_links.find(
    (entry) => entry.order_id === orderId && entry.checkout_type === "redirect",
  )?.link;
}

const banner = (block: FrameLocator) => block.locator("s-banner");

describeWithDawn("the Thank-you page after a checkout without a plan", () => {
  it(
    "shows the app's block with the service's redirect link for the order, in English and German",
    { timeout: 120_000 },
    async () => {
      const { context, page, problems } = await openBuyer();
      try {
        const orderId = await buyWithoutPlan(page);
        expect(orderId).toMatch(/^\d+$/);
        const block = page.frameLocator(BLOCK);
        await expect
          .poll(() => banner(block).count(), { timeout: 30_000, message: appLog() })
          .toBe(1);
        expect(await banner(block).getAttribute("heading")).toBe("Protect your purchase");
        expect(await block.locator("s-text").textContent()).toBe(
          "Extended protection plans are available for products in this order, from €19.99.",
        );
        const link = block.locator("s-link");
        expect(await link.textContent()).toBe("Choose a protection plan");
        const redirect = await redirectLinkOf(orderId);
        expect(redirect, "the emulator made a redirect link for the order").toBeDefined();
        expect(await link.getAttribute("href")).toBe(redirect);
        expect(redirect).toMatch(new RegExp(`^${emulator.url}sandbox/checkout/`));
        // The frame grew to the block: nothing is cut off on the page.
        const height = await page.locator(BLOCK).evaluate((frame) => frame.clientHeight);
        expect(height).toBeGreaterThan(40);
        const shot = path.join(artifacts, "dawn-thank-you.png");
        await page.screenshot({ path: shot, fullPage: true });
        if (process.env.SVC_UPDATE_SCREENSHOTS === "1") {
          mkdirSync(path.join(repoRoot, "docs/screenshots"), { recursive: true });
          copyFileSync(shot, path.join(repoRoot, "docs/screenshots/storefront-thank-you.png"));
        }

        // The buyer's language: the same page in German.
        await page.goto(`${page.url()}?locale=de`, { waitUntil: "load" });
        await expect.poll(() => banner(block).count(), { timeout: 30_000 }).toBe(1);
        expect(await banner(block).getAttribute("heading")).toBe("Schützen Sie Ihren Einkauf");
        expect(await block.locator("s-text").textContent()).toBe(
          "Für Produkte dieser Bestellung sind erweiterte Schutzpläne ab 19,99\u00a0€ erhältlich.",
        );
        expect(await block.locator("s-link").getAttribute("href")).toBe(redirect);
        await page.screenshot({ path: path.join(artifacts, "dawn-thank-you-de.png") });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it("shows no block when the merchant switched the self-service link off", async () => {
    const { default: prisma } = await import("../../app/db.server");
    const { getShopSettings, saveShopSettings } =
      await import("../../app/models/ShopSettings.server");
    const settings = await getShopSettings(prisma, SHOP);
    await saveShopSettings(prisma, SHOP, { ...settings, selfServiceLink: false });
    const { context, page, problems } = await openBuyer();
    try {
      const answered = page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === "/api/checkout/protection-link" &&
          response.request().method() === "GET",
        { timeout: 30_000 },
      );
      await buyWithoutPlan(page);
      // The block is on the page and asked the app, which answered that there is nothing.
      expect(await page.locator(BLOCK).count()).toBe(1);
      const answer = await answered;
      expect(answer.status()).toBe(200);
      expect(await answer.json()).toEqual({ status: "none" });
      await page.waitForTimeout(300);
      expect(await page.frameLocator(BLOCK).locator("body *").count()).toBe(0);
      expect(await page.locator(BLOCK).evaluate((frame) => frame.clientHeight)).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      const current = await getShopSettings(prisma, SHOP);
      await saveShopSettings(prisma, SHOP, { ...current, selfServiceLink: true });
    }
  });
});
