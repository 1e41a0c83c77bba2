import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startStore, type RunningStore } from "../../store/server/server";
import { emptyCarts } from "../../store/storefront/theme/routes";
import { seedCatalog, type TestCatalog } from "../../store/storefront/theme/test-shop";
import { describeWithDawn } from "../../store/storefront/theme/with-dawn";
import { repoRoot } from "../support/test-env";
import { launchChromium } from "./browser";

/*
 * Dawn 15.4.1 as the local store serves it, in Chromium: the product page loads with no console
 * error or failed request, our offer block sits in the product's info column, and Dawn's own
 * variant picker re-renders the section through the store's Section Rendering API.
 *
 * The app proxy (/apps/svc) belongs to the store's app-proxy part, not the theme; here the
 * browser answers it with one plan so the offer shows as a buyer sees it.
 */

let store: RunningStore;
let browser: Browser;
let catalog: TestCatalog;

beforeAll(async () => {
  store = await startStore({ storefrontApp: { block: true, embed: true, theme: "dawn" } });
  catalog = seedCatalog(store.state);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await store?.close();
});

describeWithDawn("Dawn's product page in Chromium", () => {
  it("shows our offer in the product form area and changes variant through Dawn's JS", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1100 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("requestfailed", (request) =>
      problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
    );
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    const plan = catalog.plan.variants[0];
    await context.route("**/apps/svc/plans?**", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          plans: [
            {
              variant_id: plan?.id,
              price: plan?.price,
              title: "2 years",
              product_reference: "ref-2y",
            },
          ],
        }),
      }),
    );
    // Until the store's Ajax Cart API (store/storefront/cart.ts) is in, the embed's /cart.js is
    // answered with the empty cart the page was rendered with; once it is, the store answers.
    await context.route("**/cart.js", async (route) => {
      const answer = await route.fetch();
      if (answer.status() !== 404) return route.fulfill({ response: answer });
      return route.fulfill({
        contentType: "application/json",
        body: JSON.stringify(emptyCarts.cartJson(catalog.shop, undefined)),
      });
    });
    // Nothing may leave the machine.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
      problems.push(`outside request: ${route.request().url()}`);
      return route.abort();
    });

    const [small, large] = catalog.snowboard.variants;
    if (!small || !large) throw new Error("The snowboard lost a variant");
    await page.goto(`${store.url}/products/${catalog.snowboard.handle}`, { waitUntil: "load" });

    const offer = page.locator(".product__info-container [data-svc-offer]");
    await expect.poll(() => offer.getAttribute("data-state")).toBe("ready");
    await expect
      .poll(() => offer.locator("[data-svc-title]").first().textContent())
      .toContain("2 years");
    // Before the buy buttons, inside the product's info column.
    const order = await page.evaluate(() => {
      const block = document.querySelector("[data-svc-offer]");
      const buttons = document.querySelector("product-form");
      return block && buttons
        ? block.compareDocumentPosition(buttons) & Node.DOCUMENT_POSITION_FOLLOWING
        : 0;
    });
    expect(order).toBeTruthy();
    await expect
      .poll(() => page.locator(".price__regular .price-item--regular").first().textContent())
      .toContain("€499.00");

    mkdirSync(path.join(repoRoot, "test/artifacts"), { recursive: true });
    await page.screenshot({
      path: path.join(repoRoot, "test/artifacts/dawn-product.png"),
      fullPage: false,
    });

    // Dawn's variant picker: a click re-renders main-product through ?section_id=&option_values=.
    const sectionRequest = page.waitForRequest((request) =>
      request.url().includes("section_id=template--"),
    );
    await page.locator("variant-selects label", { hasText: "160 cm" }).click();
    const rerender = await sectionRequest;
    expect(rerender.url()).toContain("option_values=");
    await expect.poll(() => page.url()).toContain(`variant=${large.id}`);
    await expect
      .poll(() => page.locator(".price__regular .price-item--regular").first().textContent())
      .toContain("€549.00");
    await expect
      .poll(() => page.locator('form[data-type="add-to-cart-form"] input[name="id"]').inputValue())
      .toBe(large.id);
    // Our block follows the theme's variant: its plans are now the large board's.
    await expect
      .poll(() => page.locator("[data-svc-plan]").first().getAttribute("data-for"))
      .toBe(large.id);

    expect(problems).toEqual([]);
    await context.close();
  });
});
