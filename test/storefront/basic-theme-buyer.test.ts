import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StorefrontRequest } from "../../store/storefront/contract";
import {
  sellLaptopsWithPlans,
  startAppAgainstStore,
  type AppAgainstStore,
  type StoreProduct,
} from "../support/app-against-store";
import { repoRoot } from "../support/test-env";
import { launchChromium } from "./browser";
import {
  act,
  expectNoProblems,
  expectPlanFollows,
  openBuyer,
  PROPERTY,
  quiet,
  roundsInJs,
  settle,
  type CartLine,
  type Watch,
} from "./buyer";

/*
 * Our extension on a second theme, as merchants' stores are not all Dawn: a buyer in Chromium
 * through the local store's basic theme (store/themes/basic, its own JavaScript) and our
 * extension's, against the real app, the emulator and the store, as dawn-buyer.test.ts does
 * with Dawn. Needs no Dawn: it always runs.
 *
 * Screenshots: test/artifacts/basic-theme-*.png; with SVC_UPDATE_SCREENSHOTS=1 the product page
 * with the offer also goes to docs/screenshots/storefront-basic-theme.png.
 */

const SHOP = "svc-basic-buyer.myshopify.com";
const artifacts = path.join(repoRoot, "test/artifacts");

let stack: AppAgainstStore;
/** The theme editor's saves, read by the store on every request (the cart type changes). */
const switches: StorefrontRequest["app"] = {
  block: true,
  embed: true,
  theme: "basic",
  cartType: "drawer",
};
let browser: Browser;
let laptop: StoreProduct;
/** The variant the buyer picks: one whose ID a JS number cannot hold. */
let buying: { id: string; price: string };
let buyingTitle: string;
let planVariants: { id: string; price: string }[];

const appLog = () => stack?.explain() ?? "";
const sold = () => ({
  variantId: buying.id,
  planVariantIds: planVariants.map((variant) => variant.id),
});

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  stack = await startAppAgainstStore({ storefrontShop: SHOP, storefrontApp: switches });
  const variants = [
    { title: "14 inch", price: "249.00" },
    { title: "16 inch", price: "299.00" },
  ];
  ({ laptop, planVariants } = await sellLaptopsWithPlans(stack, SHOP, variants));
  const index = laptop.variants.findIndex((variant) => roundsInJs(variant.id));
  if (index === -1)
    throw new Error(`Every laptop variant ID is exact in JS: ${JSON.stringify(laptop.variants)}`);
  buying = laptop.variants[index]!;
  buyingTitle = variants[index]!.title;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** The line titled `title` in a cart list (the drawer's or the cart page's). */
function cartRow(page: Page, list: string, title: string): Locator {
  return page.locator(`${list} .cart-line`).filter({
    has: page.locator(".cart-line__title", { hasText: new RegExp(`^\\s*${title}\\s*$`) }),
  });
}

const quantityOf = (row: Locator) => row.locator("input.quantity__input").inputValue();

async function typeQuantity(row: Locator, quantity: number): Promise<void> {
  const input = row.locator("input.quantity__input");
  await input.fill(String(quantity));
  await input.dispatchEvent("change");
}

/** A change of the laptop's line, after which its plan line must be at `quantity`. */
async function changeLaptop(
  page: Page,
  watch: Watch,
  step: string,
  quantity: number,
  action: () => Promise<unknown>,
): Promise<CartLine[]> {
  const changed = await act(page, watch, step, action, appLog);
  expectPlanFollows(changed.cart.items, quantity, changed.step, sold());
  return changed.cart.items;
}

/** The product page, its offer ready with the plans of the variant the buyer picked. */
async function pickVariantAndPlan(page: Page, plan: string): Promise<Locator> {
  await page.goto(`${stack.store.url}/products/${laptop.handle}`, { waitUntil: "load" });
  const offer = page.locator("[data-product-info] [data-svc-offer]");
  await expect.poll(() => offer.getAttribute("data-state"), { timeout: 15_000 }).toBe("ready");
  // The theme's picker: a radio per value. The form's variant, the URL and the offer follow.
  await page.locator(".variant-picker label", { hasText: buyingTitle }).click();
  const form = page.locator("form.product-form");
  await expect.poll(() => form.locator('input[name="id"]').inputValue()).toBe(buying.id);
  expect(new URL(page.url()).searchParams.get("variant")).toBe(buying.id);
  await expect
    .poll(() => offer.locator("[data-svc-plan]").first().getAttribute("data-for"))
    .toBe(buying.id);
  expect(await offer.locator("[data-svc-title]").allTextContents()).toEqual([
    "2-year protection",
    "3-year protection",
  ]);
  expect(await offer.locator('input[value=""]').isChecked()).toBe(true);
  await offer.locator("label", { hasText: plan }).click();
  return offer;
}

describe("a buyer in Chromium through the basic theme and the app", () => {
  it(
    "picks a variant and a plan, adds two, and the plan follows the laptop in the cart drawer through the checkout",
    { timeout: 180_000 },
    async () => {
      const { context, page, watch } = await openBuyer(browser);
      try {
        const offer = await pickVariantAndPlan(page, "3-year protection");
        const threeYear = planVariants[1]!.id;
        expect(await offer.locator("[data-svc-plan]:checked").getAttribute("value")).toBe(
          threeYear,
        );
        await page.locator('form.product-form [data-step="1"]').click();
        expect(await page.locator('form.product-form input[name="quantity"]').inputValue()).toBe(
          "2",
        );
        const shot = path.join(artifacts, "basic-theme-product.png");
        await page.screenshot({ path: shot });
        if (process.env.SVC_UPDATE_SCREENSHOTS === "1") {
          mkdirSync(path.join(repoRoot, "docs/screenshots"), { recursive: true });
          copyFileSync(shot, path.join(repoRoot, "docs/screenshots/storefront-basic-theme.png"));
        }

        // The theme's add (/cart/add.js, FormData) carries the plan at the product's quantity.
        const added = await changeLaptop(page, watch, "add two", 2, async () => {
          const answer = page.waitForResponse(
            (response) =>
              new URL(response.url()).pathname === "/cart/add.js" &&
              response.request().method() === "POST",
          );
          await page.locator('form.product-form button[name="add"]').click();
          const response = await answer;
          expect(response.status()).toBe(200);
          const body = response.request().postData() ?? "";
          expect(body).toContain(`items[][properties][${PROPERTY}]`);
          expect(body).toContain("cart-drawer");
        });
        expect(added.find((item) => item.properties?.[PROPERTY])?.variant_id).toBe(threeYear);

        // The drawer opens with both lines, and follows the laptop's quantity.
        await expect.poll(() => page.locator("body").getAttribute("data-cart-drawer")).toBe("open");
        await expect.poll(() => page.locator("#CartDrawerPanel").isVisible()).toBe(true);
        const drawer = "#CartDrawerPanel";
        const laptopRow = cartRow(page, drawer, "Aurora 14 Laptop");
        const planRow = cartRow(page, drawer, "Accident protection");
        await expect.poll(() => quantityOf(laptopRow)).toBe("2");
        await expect.poll(() => quantityOf(planRow)).toBe("2");
        await expect
          .poll(() => page.locator("#cart-icon-bubble .cart-count").textContent())
          .toBe("4");

        await changeLaptop(page, watch, "plus in the drawer", 3, () =>
          laptopRow.locator('[data-line-step="1"]').click(),
        );
        await expect.poll(() => quantityOf(planRow)).toBe("3");
        expect(await page.locator("body").getAttribute("data-cart-drawer")).toBe("open");
        await page.screenshot({ path: path.join(artifacts, "basic-theme-cart-drawer.png") });

        await changeLaptop(page, watch, "typed quantity in the drawer", 1, () =>
          typeQuantity(laptopRow, 1),
        );
        await expect.poll(() => quantityOf(planRow)).toBe("1");
        expectNoProblems(watch, "the product page and its drawer");

        // The drawer's "Check out" posts the cart form; the order has the plan for the laptop.
        await quiet(watch);
        await page.locator(`${drawer} button[name="checkout"]`).click();
        await page.waitForURL(/\/checkout$/);
        await page.locator("#checkout-email").fill("grace@example.com");
        await page.locator("#checkout-pay").click();
        await page.waitForURL(/\/checkouts\/[^/]+\/thank-you$/);
        const lines = (await page.locator("#order-lines").textContent()) ?? "";
        expect(lines).toContain("1 × Aurora 14 Laptop");
        expect(lines).toContain("1 × Accident protection");
        expect(lines).toContain(`(protects variant ${buying.id})`);
      } finally {
        await context.close();
      }
    },
  );

  it("with the cart type 'page': adds, lands on the cart page, and the plan follows plus, a typed quantity, minus and remove", async () => {
    switches.cartType = "page";
    const { context, page, watch } = await openBuyer(browser);
    try {
      await pickVariantAndPlan(page, "2-year protection");
      // The product form's own POST, which the offer pairs with the plan, lands on /cart; the
      // embed's first sync there is the settle's.
      const posted = page.waitForRequest(
        (request) => new URL(request.url()).pathname === "/cart/add" && request.method() === "POST",
      );
      await page.locator('form.product-form button[name="add"]').click();
      expect((await posted).postData()).toContain(`items[][properties][${PROPERTY}]`);
      await page.waitForURL(/\/cart$/);
      const added = await settle(page, watch, 0, appLog);
      expectPlanFollows(added.items, 1, "add one", sold());
      expect(await page.locator("#shopify-section-cart-drawer").count()).toBe(0);

      const list = "#CartForm";
      const laptopRow = cartRow(page, list, "Aurora 14 Laptop");
      const planRow = cartRow(page, list, "Accident protection");
      await expect.poll(() => quantityOf(planRow)).toBe("1");

      await changeLaptop(page, watch, "plus on the cart page", 2, () =>
        laptopRow.locator('[data-line-step="1"]').click(),
      );
      await expect.poll(() => quantityOf(planRow)).toBe("2");
      await page.screenshot({ path: path.join(artifacts, "basic-theme-cart.png"), fullPage: true });

      await changeLaptop(page, watch, "typed quantity on the cart page", 4, () =>
        typeQuantity(laptopRow, 4),
      );
      await expect.poll(() => quantityOf(planRow)).toBe("4");

      await changeLaptop(page, watch, "minus on the cart page", 3, () =>
        laptopRow.locator('[data-line-step="-1"]').click(),
      );
      await expect.poll(() => quantityOf(planRow)).toBe("3");

      const removed = await act(
        page,
        watch,
        "remove on the cart page",
        () => laptopRow.locator("[data-line-remove]").click(),
        appLog,
      );
      expect(removed.cart.items, `${removed.step}: the plan goes with its product`).toEqual([]);
      await expect.poll(() => page.locator(".cart__empty").isVisible()).toBe(true);
      expectNoProblems(watch, "the cart page");
    } finally {
      switches.cartType = "drawer";
      await context.close();
    }
  });
});
