import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OfferOptions } from "../../app/offers/offer-options";
import { forgetStorefrontActivity } from "../../app/models/StorefrontActivity.server";
import { createOfflineSession } from "../support/offline-session";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { repoRoot } from "../support/test-env";
import { playMetafieldsSet, playProductVariants } from "./admin-api";
import { appProxyToRoutes } from "./app-proxy";
import { launchChromium } from "./browser";
import type { Cart } from "./cart";
import { startStorefront, type Storefront, type ThemeKind } from "./harness";

// The theme app extension in a real browser: its Liquid rendered in a Dawn-like page, its
// scripts run by Chromium, /apps/svc answered by the app's own proxy routes in front of the
// emulator. Each test has its own browser context, so its own cart and user session.

// Every plan lookup reaches the service, so a stopped emulator shows at once.
process.env.SVC_PLANS_CACHE_TTL_SECONDS = "0";

const SHOP = "svc-harness.myshopify.com";
const PROPERTY = "_svc_protected_product_ref";
const LAPTOP = {
  handle: "aurora-14-laptop",
  product: 8457293627449,
  high: 45190311870521,
  mid: 45190311903289,
};
const TOWEL = { handle: "linen-tea-towel", product: 8457293660217, id: 45190312001593 };
const PLANS = {
  high2y: 8104420102005,
  high3y: 8104420102006,
  mid2y: 8104420102003,
  mid3y: 8104420102004,
};
const artifacts = path.join(repoRoot, "test/artifacts");
const WARM_UP_QUERY = new URLSearchParams({
  variant_id: String(TOWEL.id),
  price: "1200",
  currency: "EUR",
  user_session_id: "00000000-0000-4000-8000-000000000000",
  product_title: "Linen Tea Towel",
  product_brand: "Hemma",
});

const app = withOutboxApp();
let storefront: Storefront;
let browser: Browser;
const opened: BrowserContext[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  await connectShop(app.prisma, SHOP);
  const proxy = await appProxyToRoutes(SHOP);
  // The app's first answer pays for its cold start (database, first service call): not the
  // storefront's time, which the first test measures.
  await proxy(new Request(`http://storefront.test/apps/svc/plans?${WARM_UP_QUERY}`), "plans");
  storefront = await startStorefront(proxy);
  // The offline session the proxy's Admin API calls use, and Shopify's metafieldsSet.
  await createOfflineSession(app.prisma, SHOP, "shpat_harness");
  playMetafieldsSet(storefront);
  playProductVariants(storefront);
  browser = await launchChromium();
  mkdirSync(artifacts, { recursive: true });
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()));
  storefront.settings.moneyFormat = storefront.shop.shop.money_format;
  storefront.settings.offerInCart = false;
  storefront.settings.proxyDelayMs = 0;
  storefront.settings.proxyDown = false;
  storefront.proxyOverride = undefined;
  storefront.proxyRequests.length = 0;
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await storefront?.close();
});

async function openPage(theme: ThemeKind = "dawn"): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  opened.push(context);
  await context.addCookies([{ name: "harness_theme", value: theme, url: storefront.url }]);
  await context.addInitScript(() => {
    const record = window as unknown as { svcCls: number; svcReadyAt?: number };
    record.svcCls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) record.svcCls += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
    new MutationObserver(() => {
      if (record.svcReadyAt === undefined && document.querySelector('[data-state="ready"]')) {
        record.svcReadyAt = performance.now();
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  return page;
}

function cartOf(page: Page): Promise<Cart> {
  return page
    .context()
    .cookies(storefront.url)
    .then((cookies) => {
      const token = cookies.find((cookie) => cookie.name === "cart")?.value;
      const cart = token && storefront.carts.get(token);
      if (!cart) throw new Error("This browser context has no cart yet");
      return cart;
    });
}

/** The cart as [variant, quantity, protected variant] rows, from the harness's own state. */
async function cartLines(page: Page) {
  return (await cartOf(page)).lines.map((line) => [
    Number(line.variantId),
    line.quantity,
    line.properties[PROPERTY] === undefined ? null : Number(line.properties[PROPERTY]),
  ]);
}

async function offerTexts(page: Page) {
  return page.$$eval("[data-svc-offer] .svc-offer__option", (rows) =>
    rows.map((row) => ({
      text: [...row.querySelectorAll(".svc-offer__title, .svc-offer__price, .svc-offer__text")]
        .map((part) => part.firstChild?.textContent?.trim() ?? "")
        .filter(Boolean)
        .join(" | "),
      checked: (row.querySelector("input") as HTMLInputElement).checked,
    })),
  );
}

const readyOffer = '[data-svc-offer][data-state="ready"]';

/** The page's cumulative layout shift so far (the init script's PerformanceObserver). */
const layoutShift = (page: Page) =>
  page.evaluate(() => (window as unknown as { svcCls: number }).svcCls);

/** Nothing learned of any product: no hints in the app, none on the harness's products. */
async function forgetOfferHints() {
  forgetStorefrontActivity();
  storefront.metafields.clear();
  await app.prisma.productOfferHint.deleteMany({});
  await app.prisma.productOfferHintPublish.deleteMany({});
}

/** Saves the offer options as the admin's Settings page does, keeping the other settings. */
async function saveOfferOptions(offerOptions: OfferOptions) {
  const { getShopSettings, saveShopSettings } =
    await import("../../app/models/ShopSettings.server");
  const current = await getShopSettings(app.prisma, SHOP);
  await saveShopSettings(app.prisma, SHOP, { ...current, offerOptions });
}

async function choosePlan(page: Page, planVariantId: number) {
  await page.check(`[data-svc-plan][value="${planVariantId}"]`);
}

describe("Protection offer (app block)", () => {
  it(
    "shows the selected variant's plans with none chosen, within 200 ms of load and no layout shift",
    { retry: 2 },
    async () => {
      const page = await openPage();
      await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
      await page.waitForSelector(readyOffer);
      await page.waitForTimeout(300);

      expect(await offerTexts(page)).toEqual([
        { text: "2-year protection | €129,99", checked: false },
        { text: "3-year protection | €179,99", checked: false },
        { text: "No protection", checked: true },
      ]);
      expect(
        await page.$$eval("[data-svc-details]", (links) =>
          links.map((a) => (a as HTMLAnchorElement).href),
        ),
      ).toEqual([
        "https://example.com/svc/insurance/electronics-2-year",
        "https://example.com/svc/insurance/electronics-3-year",
      ]);
      const timing = await page.evaluate(() => {
        const record = window as unknown as { svcCls: number; svcReadyAt: number };
        const [navigation] = performance.getEntriesByType(
          "navigation",
        ) as PerformanceNavigationTiming[];
        const plans = performance
          .getEntriesByType("resource")
          .find((entry) => entry.name.includes("/apps/svc/plans")) as PerformanceResourceTiming;
        return {
          cls: record.svcCls,
          domContentLoaded: navigation?.domContentLoadedEventEnd ?? 0,
          load: navigation?.loadEventEnd ?? 0,
          plansStart: plans.startTime,
          plansEnd: plans.responseEnd,
          ready: record.svcReadyAt,
        };
      });
      console.log(
        `Offer: plans asked ${(timing.plansStart - timing.domContentLoaded).toFixed(0)} ms after DOMContentLoaded, ` +
          `answered in ${(timing.plansEnd - timing.plansStart).toFixed(0)} ms, shown ` +
          `${(timing.ready - timing.plansEnd).toFixed(0)} ms later, ` +
          `${(timing.ready - timing.load).toFixed(0)} ms after load; CLS ${timing.cls}`,
      );
      expect(timing.cls).toBe(0);
      // The request leaves as the deferred script runs, and the rows follow its answer at once.
      expect(timing.plansStart).toBeLessThanOrEqual(timing.domContentLoaded);
      expect(timing.ready - timing.plansEnd).toBeLessThanOrEqual(50);
      // The budget end to end; the app's answer time is in it, so a loaded machine can miss it.
      expect(timing.ready - timing.load).toBeLessThanOrEqual(200);
      const plansRequest = storefront.proxyRequests.find((request) => request.path === "plans");
      expect(Object.fromEntries(plansRequest?.query ?? [])).toMatchObject({
        variant_id: String(LAPTOP.high),
        price: "129900",
        currency: "EUR",
        product_title: "Aurora 14 Laptop",
        product_brand: "Nimbus",
        product_category: "Laptops",
      });
      await page.screenshot({ path: path.join(artifacts, "storefront-offer.png") });
    },
  );

  it("adds the chosen plan with the product through Dawn's fetch, at the product's quantity", async () => {
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await choosePlan(page, PLANS.high3y);
    await page.fill("#Quantity-main", "2");
    await page.click(".product-form__submit");

    await page.waitForSelector("cart-drawer.active #CartDrawer-Item-2");
    expect(await cartLines(page)).toEqual([
      [LAPTOP.high, 2, null],
      [PLANS.high3y, 2, LAPTOP.high],
    ]);
    expect(
      await page.$$eval("#CartDrawer .quantity__input", (inputs) =>
        inputs.map((input) => (input as HTMLInputElement).value),
      ),
    ).toEqual(["2", "2"]);
    // The embed reports the new cart to the service through the proxy.
    await expect
      .poll(() => storefront.proxyRequests.some((r) => r.path === "cart_updates"))
      .toBe(true);
  });

  it("adds the chosen plan with a native form POST to /cart/add", async () => {
    const page = await openPage("native");
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await choosePlan(page, PLANS.high2y);
    await Promise.all([page.waitForURL(/\/cart$/), page.click(".product-form__submit")]);

    expect(await cartLines(page)).toEqual([
      [LAPTOP.high, 1, null],
      [PLANS.high2y, 1, LAPTOP.high],
    ]);
    await page.waitForSelector("#CartItem-2");
  });

  it("adds only the product when no plan is chosen", async () => {
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await page.click(".product-form__submit");
    await page.waitForSelector("cart-drawer.active #CartDrawer-Item-1");
    expect(await cartLines(page)).toEqual([[LAPTOP.high, 1, null]]);
  });

  it("follows a variant change: other plans, and the plan goes with the new variant", async () => {
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await choosePlan(page, PLANS.high2y);
    await page.click(`label[for="Variant-${LAPTOP.mid}"]`);
    await page.waitForSelector(`[data-svc-plan][value="${PLANS.mid2y}"]`);

    expect(await offerTexts(page)).toEqual([
      { text: "2-year protection | €59,99", checked: false },
      { text: "3-year protection | €89,99", checked: false },
      { text: "No protection", checked: true },
    ]);
    await choosePlan(page, PLANS.mid3y);
    await page.click(".product-form__submit");
    await page.waitForSelector("cart-drawer.active #CartDrawer-Item-2");
    expect(await cartLines(page)).toEqual([
      [LAPTOP.mid, 1, null],
      [PLANS.mid3y, 1, LAPTOP.mid],
    ]);
  });

  it("shows German titles and labels on the German storefront", async () => {
    const page = await openPage();
    await page.goto(`${storefront.url}/de/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);

    expect(await page.textContent(".svc-offer__heading")).toBe("Schütze deinen Kauf");
    expect(await offerTexts(page)).toEqual([
      { text: "2 Jahre Schutz | €129,99", checked: false },
      { text: "3 Jahre Schutz | €179,99", checked: false },
      { text: "Kein Schutz", checked: true },
    ]);
    expect(await page.textContent("[data-svc-details]")).toBe("Versicherungsdetails");
    await page.screenshot({ path: path.join(artifacts, "storefront-offer-de.png") });

    await choosePlan(page, PLANS.high2y);
    await page.click(".product-form__submit");
    await page.waitForSelector("cart-drawer.active #CartDrawer-Item-2");
    expect(await cartLines(page)).toEqual([
      [LAPTOP.high, 1, null],
      [PLANS.high2y, 1, LAPTOP.high],
    ]);
  });

  it("prices plans in each of Shopify's money formats", async () => {
    const replaced = await app.control.control("catalogue", {
      body: {
        currency: "eur",
        categories: [
          {
            id: "electronics",
            title: "Consumer electronics",
            title_keywords: ["laptop"],
            product_ids: [],
            price_bands: [
              {
                min_price_amount: 1000,
                max_price_amount: 500000,
                plans: [
                  {
                    merchant_product_id: "8104420102099",
                    price_amount: 123456,
                    title: { en: "Total protection", de: "Rundumschutz" },
                    insurance_details_url: "https://example.com/svc/insurance/total",
                  },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(replaced.status).toBe(200);
    const formats: [string, string][] = [
      ["${{amount}}", "$1,234.56"],
      ["€{{amount_with_comma_separator}}", "€1.234,56"],
      ["{{ amount_no_decimals }} kr", "1,235 kr"],
      ["{{amount_no_decimals_with_comma_separator}} €", "1.235 €"],
      ["CHF {{amount_with_apostrophe_separator}}", "CHF 1'234.56"],
      ["{{amount_with_space_separator}} €", "1 234,56 €"],
      ["{{amount_no_decimals_with_space_separator}} Kč", "1 235 Kč"],
      ["{{amount_with_period_and_space_separator}} €", "1 234.56 €"],
    ];
    try {
      const page = await openPage();
      for (const [format, expected] of formats) {
        storefront.settings.moneyFormat = format;
        await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
        await page.waitForSelector(readyOffer);
        expect(await page.textContent("[data-svc-price]"), format).toBe(expected);
      }
    } finally {
      await app.control.reset();
    }
  });

  it("shows no offer for a product without plans; its first view collapses the reserved space", async () => {
    await forgetOfferHints();
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${TOWEL.handle}`);
    await page.waitForSelector('[data-svc-offer][data-state="empty"]', { state: "attached" });
    expect(await page.isVisible("[data-svc-offer]")).toBe(false);
    await page.waitForTimeout(300);
    // Nothing is known of the product yet: the block reserved two plans' height while it asked,
    // and what is below it moves up when the answer says "no plans" (decision 014).
    expect(await layoutShift(page)).toBeGreaterThan(0);
    expect(await layoutShift(page)).toBeLessThan(0.01);
  });

  it("reserves no space on a product the app learned has no plans: no layout shift", async () => {
    await forgetOfferHints();
    const first = await openPage();
    await first.goto(`${storefront.url}/products/${TOWEL.handle}`);
    // The first view's answer reaches the product's metafield through the Admin API.
    await expect
      .poll(() => storefront.metafields.get(TOWEL.product)?.["$app"]?.plan_availability?.value)
      .toBe(JSON.stringify({ without_plans: [String(TOWEL.id)] }));

    const page = await openPage();
    const response = await page.goto(`${storefront.url}/products/${TOWEL.handle}`);
    // Rendered hidden by the Liquid itself, before any script runs.
    expect(await response?.text()).toMatch(/data-svc-offer\s+data-state="empty"/);
    // The block still asks, so a product that gains plans shows them.
    await expect
      .poll(() => storefront.proxyRequests.filter((request) => request.path === "plans").length)
      .toBe(2);
    await page.waitForTimeout(300);
    expect(await page.isVisible("[data-svc-offer]")).toBe(false);
    expect(await layoutShift(page)).toBe(0);
  });

  it("shows the plans of a variant the hint lists wrongly, and corrects the hint", async () => {
    await forgetOfferHints();
    // The state after the laptop's high variant once had no plans (its price was below every band).
    const stale = JSON.stringify([String(LAPTOP.high)]);
    const product = { shop: SHOP, productId: String(LAPTOP.product) };
    await app.prisma.productOfferHint.create({
      data: { ...product, variantId: String(LAPTOP.high), withoutPlans: true },
    });
    await app.prisma.productOfferHintPublish.create({ data: { ...product, published: stale } });
    storefront.metafields.set(LAPTOP.product, {
      $app: {
        plan_availability: {
          type: "json",
          value: JSON.stringify({ without_plans: [String(LAPTOP.high)] }),
        },
      },
    });
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    expect((await offerTexts(page)).length).toBe(3);
    await expect
      .poll(() => storefront.metafields.get(LAPTOP.product)?.["$app"]?.plan_availability?.value)
      .toBe(JSON.stringify({ without_plans: [] }));
  });
});

describe("Offer options (admin Settings)", () => {
  // Back to "never saved": the plans answer then carries no options.
  afterEach(async () => {
    await app.prisma.shopConnection.update({ where: { shop: SHOP }, data: { offerOptions: null } });
  });

  it("shows the Settings heading as text and hides the insurance links", async () => {
    const heading = "Protect it <b>now</b> & relax";
    await saveOfferOptions({ heading, showInsuranceLink: false, layout: "list" });
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await page.waitForTimeout(300);

    expect(await page.textContent(".svc-offer__heading")).toBe(heading);
    expect(await page.$$(".svc-offer__heading *")).toHaveLength(0);
    expect(await page.$$("[data-svc-details]")).toHaveLength(0);
    expect(await page.getAttribute("[data-svc-offer]", "data-layout")).toBe("list");
    expect(await offerTexts(page)).toEqual([
      { text: "2-year protection | €129,99", checked: false },
      { text: "3-year protection | €179,99", checked: false },
      { text: "No protection", checked: true },
    ]);
    expect(await layoutShift(page)).toBe(0);

    // One heading for every language: it replaces the German one too.
    const german = await openPage();
    await german.goto(`${storefront.url}/de/products/${LAPTOP.handle}`);
    await german.waitForSelector(readyOffer);
    expect(await german.textContent(".svc-offer__heading")).toBe(heading);
    expect(await german.$$("[data-svc-details]")).toHaveLength(0);
  });

  it("renders the compact layout: lower rows, none chosen, prices shown, no layout shift", async () => {
    await saveOfferOptions({ heading: null, showInsuranceLink: true, layout: "compact" });
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(`${readyOffer}[data-layout="compact"]`);
    await page.waitForTimeout(300);

    expect(await page.textContent(".svc-offer__heading")).toBe("Protect your purchase");
    expect(await offerTexts(page)).toEqual([
      { text: "2-year protection | €129,99", checked: false },
      { text: "3-year protection | €179,99", checked: false },
      { text: "No protection", checked: true },
    ]);
    for (const price of await page.$$("[data-svc-price]"))
      expect(await price.isVisible()).toBe(true);
    expect(await page.$$("[data-svc-details]")).toHaveLength(2);

    const geometry = await page.$eval("[data-svc-offer]", (offer) => {
      const box = (element: Element | null) => element!.getBoundingClientRect();
      return {
        em: parseFloat(getComputedStyle(offer).fontSize),
        offer: box(offer).height,
        rows: [...offer.querySelectorAll(".svc-offer__option")].map((row) => ({
          height: box(row).height,
          title: box(
            row.querySelector("[data-svc-title]") ?? row.querySelector(".svc-offer__text"),
          ),
          details: row.querySelector("[data-svc-details]")?.getBoundingClientRect(),
          price: row.querySelector("[data-svc-price]")?.getBoundingClientRect(),
        })),
      };
    });
    for (const row of geometry.rows) {
      // Lower than the list layout's 3.5em rows.
      expect(row.height).toBeLessThanOrEqual(2.4 * geometry.em + 1);
      // Title, details link and price share one line.
      for (const part of [row.details, row.price]) {
        if (!part) continue;
        expect(part.top).toBeLessThan(row.title.bottom);
        expect(part.bottom).toBeGreaterThan(row.title.top);
      }
    }
    // The block keeps the reserved space: the heading and three 3.5em rows, 1px overlaps.
    expect(Math.abs(geometry.offer - (12.4 * geometry.em - 3))).toBeLessThanOrEqual(1);
    expect(await layoutShift(page)).toBe(0);
    await page.screenshot({ path: path.join(artifacts, "storefront-offer-compact.png") });

    await choosePlan(page, PLANS.high3y);
    await page.click(".product-form__submit");
    await page.waitForSelector("cart-drawer.active #CartDrawer-Item-2");
    expect(await cartLines(page)).toEqual([
      [LAPTOP.high, 1, null],
      [PLANS.high3y, 1, LAPTOP.high],
    ]);
  });
});

describe("Never breaking the store", () => {
  it("with the service down: no offer, and add-to-cart and the cart rules still work", async () => {
    await app.restartEmulator(async () => {
      const page = await openPage();
      await page.goto(`${storefront.url}/cart`);
      // A plan line from before, out of step with its product: the proxy's local rules fix it.
      (await cartOf(page)).add([
        { id: LAPTOP.high, quantity: 1 },
        { id: PLANS.high2y, quantity: 2, properties: { [PROPERTY]: String(LAPTOP.high) } },
      ]);
      await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
      await page.waitForSelector('[data-svc-offer][data-state="empty"]', { state: "attached" });
      expect(await page.isVisible("[data-svc-offer]")).toBe(false);
      await expect
        .poll(() => cartLines(page))
        .toEqual([
          [LAPTOP.high, 1, null],
          [PLANS.high2y, 1, LAPTOP.high],
        ]);

      await page.click(".product-form__submit");
      await page.waitForSelector("cart-drawer.active #CartDrawer-Item-2");
      await expect
        .poll(() => cartLines(page))
        .toEqual([
          [LAPTOP.high, 2, null],
          [PLANS.high2y, 2, LAPTOP.high],
        ]);
      await page.waitForFunction(
        () =>
          (document.getElementById("Drawer-quantity-2") as HTMLInputElement | null)?.value === "2",
      );
    });
  });

  it("with the app proxy slow: add-to-cart works at once, the offer stays hidden after 2.5 s", async () => {
    storefront.settings.proxyDelayMs = 4000;
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.click(".product-form__submit");
    await page.waitForSelector("cart-drawer.active #CartDrawer-Item-1", { timeout: 1500 });
    expect(await cartLines(page)).toEqual([[LAPTOP.high, 1, null]]);
    await page.waitForSelector('[data-svc-offer][data-state="empty"]', {
      state: "attached",
      timeout: 4000,
    });
    expect(await page.isVisible("[data-svc-offer]")).toBe(false);
  });

  it("with the app proxy answering 502: no offer, add-to-cart works", async () => {
    storefront.settings.proxyDown = true;
    const page = await openPage("native");
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector('[data-svc-offer][data-state="empty"]', { state: "attached" });
    await Promise.all([page.waitForURL(/\/cart$/), page.click(".product-form__submit")]);
    expect(await cartLines(page)).toEqual([[LAPTOP.high, 1, null]]);
  });
});

describe("Protection cart rules (app embed)", () => {
  async function cartWithPlan(page: Page, quantity = 1) {
    await page.goto(`${storefront.url}/cart`);
    // The embed reads /cart.js as the page loads. Lines added before that read would start a
    // report from this page too, racing the test's own (seen on a loaded CI machine).
    await page.waitForLoadState("networkidle");
    const cart = await cartOf(page);
    cart.add([
      { id: LAPTOP.high, quantity },
      { id: PLANS.high2y, quantity, properties: { [PROPERTY]: String(LAPTOP.high) } },
    ]);
  }

  async function quantities(page: Page, selector: string) {
    return page.$$eval(selector, (inputs) =>
      inputs.map((input) => (input as HTMLInputElement).value),
    );
  }

  it("on the cart page, a plan follows its product's quantity up and is removed with it", async () => {
    const page = await openPage();
    await cartWithPlan(page);
    await page.goto(`${storefront.url}/cart`);
    await page.fill("#Quantity-1", "3");
    await page.dispatchEvent("#Quantity-1", "change");

    await expect
      .poll(() => cartLines(page))
      .toEqual([
        [LAPTOP.high, 3, null],
        [PLANS.high2y, 3, LAPTOP.high],
      ]);
    await page.waitForFunction(
      () => (document.getElementById("Quantity-2") as HTMLInputElement | null)?.value === "3",
    );
    expect(await quantities(page, "#main-cart-items .quantity__input")).toEqual(["3", "3"]);
    expect(await page.textContent(".totals__total-value")).toBe("€4.286,97");
    await page.screenshot({ path: path.join(artifacts, "storefront-cart.png"), fullPage: true });

    await page.click("#CartItem-1 .cart-remove-button");
    await expect.poll(() => cartLines(page)).toEqual([]);
    await page.waitForSelector("#main-cart-items .cart__empty");
  });

  it("a plan follows its product's quantity down", async () => {
    const page = await openPage();
    await cartWithPlan(page, 3);
    await page.goto(`${storefront.url}/cart`);
    await page.fill("#Quantity-1", "1");
    await page.dispatchEvent("#Quantity-1", "change");
    await expect
      .poll(() => cartLines(page))
      .toEqual([
        [LAPTOP.high, 1, null],
        [PLANS.high2y, 1, LAPTOP.high],
      ]);
    await page.waitForFunction(
      () => (document.getElementById("Quantity-2") as HTMLInputElement | null)?.value === "1",
    );
  });

  it("in Dawn's cart drawer (fetch and section rendering) the plan follows too", async () => {
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await choosePlan(page, PLANS.high2y);
    await page.click(".product-form__submit");
    await page.waitForSelector("cart-drawer.active #CartDrawer-Item-2");

    await page.fill("#Drawer-quantity-1", "3");
    await page.dispatchEvent("#Drawer-quantity-1", "change");
    await expect
      .poll(() => cartLines(page))
      .toEqual([
        [LAPTOP.high, 3, null],
        [PLANS.high2y, 3, LAPTOP.high],
      ]);
    await page.waitForFunction(
      () =>
        (document.getElementById("Drawer-quantity-2") as HTMLInputElement | null)?.value === "3",
    );
    expect(await page.textContent("#cart-icon-bubble [data-cart-count]")).toBe("6");
    await page.screenshot({ path: path.join(artifacts, "storefront-drawer.png") });

    await page.click("#CartDrawer-Item-1 .cart-remove-button");
    await expect.poll(() => cartLines(page)).toEqual([]);
  });

  it("in a theme that adds with fetch (JSON) and changes with XMLHttpRequest", async () => {
    const page = await openPage("fetch");
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await choosePlan(page, PLANS.high3y);
    await page.click("#AddToCart");
    await expect
      .poll(() => cartLines(page))
      .toEqual([
        [LAPTOP.high, 1, null],
        [PLANS.high3y, 1, LAPTOP.high],
      ]);

    await page.waitForSelector(".mini-cart__line:nth-of-type(2)");
    await page.click('.mini-cart__line:first-of-type [data-step="1"]');
    await expect
      .poll(() => cartLines(page))
      .toEqual([
        [LAPTOP.high, 2, null],
        [PLANS.high3y, 2, LAPTOP.high],
      ]);
    await page.waitForFunction(() =>
      [...document.querySelectorAll(".mini-cart__line [data-quantity]")].every(
        (quantity) => quantity.textContent === "2",
      ),
    );
  });

  it("follows a variant change in the fetch theme's select (URL ?variant=)", async () => {
    const page = await openPage("fetch");
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await page.selectOption("[data-product-variants]", String(LAPTOP.mid));
    await page.waitForSelector(`[data-svc-plan][value="${PLANS.mid2y}"]`);
    await choosePlan(page, PLANS.mid2y);
    await page.click("#AddToCart");
    await expect
      .poll(() => cartLines(page))
      .toEqual([
        [LAPTOP.mid, 1, null],
        [PLANS.mid2y, 1, LAPTOP.mid],
      ]);
  });

  it("keeps one user session ID per browser for /plans and /cart_updates", async () => {
    const page = await openPage();
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}`);
    await page.waitForSelector(readyOffer);
    await page.click(".product-form__submit");
    await expect
      .poll(() => storefront.proxyRequests.some((r) => r.path === "cart_updates"))
      .toBe(true);
    await page.goto(`${storefront.url}/products/${LAPTOP.handle}?variant=${LAPTOP.mid}`);
    await page.waitForSelector(readyOffer);

    const stored = await page.evaluate(() => localStorage.getItem("svc_user_session_id"));
    expect(stored).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const sent = storefront.proxyRequests.map((request) =>
      request.path === "plans"
        ? request.query.get("user_session_id")
        : (request.body as { user_session_id: string }).user_session_id,
    );
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(new Set(sent)).toEqual(new Set([stored]));
  });

  it("stops after 5 rounds with a warning when the proxy keeps answering actions", async () => {
    const page = await openPage();
    await cartWithPlan(page);
    const warnings: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    const planKey = (await cartOf(page)).toJSON().items[1]?.key;
    let answers = 0;
    storefront.proxyOverride = async () => {
      answers++;
      return Response.json({
        actions: [
          { type: "update_line_item", line_item_key: planKey, quantity: 1 + (answers % 2) },
        ],
        source: "service",
      });
    };
    // The page load finds the cart changed since the last report and runs the loop.
    await page.goto(`${storefront.url}/cart`);
    await expect.poll(() => warnings.length).toBe(1);
    await page.waitForTimeout(500);
    // One report, five rounds of actions, one last report; its own /cart/change calls started
    // nothing more.
    expect(answers).toBe(6);
    expect(warnings[0]).toContain("after 5 rounds");
  });

  it("offers a plan under an unprotected cart line when the embed setting is on", async () => {
    storefront.settings.offerInCart = true;
    const page = await openPage();
    await page.goto(`${storefront.url}/cart`);
    (await cartOf(page)).add([{ id: LAPTOP.mid, quantity: 2 }]);
    await page.goto(`${storefront.url}/cart`);
    const button = await page.waitForSelector("#CartItem-1 .svc-cart-offer__add");
    expect(await button.textContent()).toBe("Add protection: 2-year protection (€59,99)");
    await button.click();

    await expect
      .poll(() => cartLines(page))
      .toEqual([
        [LAPTOP.mid, 2, null],
        [PLANS.mid2y, 2, LAPTOP.mid],
      ]);
    await page.waitForSelector("#CartItem-2");
    expect(await page.$$("#main-cart-items .svc-cart-offer")).toHaveLength(0);
  });
});
