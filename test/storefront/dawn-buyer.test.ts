import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseWebhookJson } from "../../app/lib/json";
import type { EmulatorClient } from "../../emulator/test-support";
import type { RunningStore } from "../../store/server/server";
import type { StorefrontRequest } from "../../store/storefront/contract";
import { describeWithDawn } from "../../store/storefront/theme/with-dawn";
import {
  sellLaptopsWithPlans,
  startAppAgainstStore,
  type AppAgainstStore,
  type StoreProduct,
} from "../support/app-against-store";
import { repoRoot } from "../support/test-env";
import { launchChromium } from "./browser";
import {
  act as actAndSettle,
  cartOf,
  expectNoProblems,
  expectPlanFollows as expectPlanFollowsFor,
  openBuyer as openBuyerIn,
  PROPERTY,
  planAndProduct,
  quiet,
  roundsInJs,
  SESSION_ATTRIBUTE,
  settle as settleOnce,
  syncsOf,
  type CartLine,
  type Watch,
} from "./buyer";

/*
 * A buyer in Chromium, through Dawn's own JavaScript and our extension's, against the real app:
 * the protection-service emulator, the local store serving Dawn at its root, and the built app
 * (npm start) installed into the store's shop over token exchange. The store's app proxy
 * forwards /apps/svc/* to the app, signed; nothing here answers the app's part for it.
 *
 * Screenshots: test/artifacts/dawn-buyer-*.png (the product page with the offer, the cart
 * notification, the cart page, the cart drawer); with SVC_UPDATE_SCREENSHOTS=1 the product page
 * also goes to docs/screenshots/storefront-product.png, which the README links.
 *
 * The buyer, the watch on the page and "one settle" after each cart change are in ./buyer.ts.
 */

const SHOP = "svc-buyer.myshopify.com";
const artifacts = path.join(repoRoot, "test/artifacts");

let stack: AppAgainstStore;
let service: EmulatorClient;
let store: RunningStore;
/** The theme editor's saves, read by the store on every request (the cart type changes). */
const switches: StorefrontRequest["app"] = { block: true, embed: true, theme: "dawn" };
let browser: Browser;
let laptop: StoreProduct;
/** The variant the buyer buys: one whose ID a JS number cannot hold (see `roundsInJs`). */
let buying: { id: string; price: string };
let planVariants: { id: string; price: string }[];

const appLog = () => stack?.explain() ?? "";

const openBuyer = () => openBuyerIn(browser);
const act = (page: Page, watch: Watch, step: string, action: () => Promise<unknown>) =>
  actAndSettle(page, watch, step, action, appLog);
const settle = (page: Page, watch: Watch, syncsBefore: number) =>
  settleOnce(page, watch, syncsBefore, appLog);
/** The laptop the buyer buys and its plans: the cart's lines for it, at `quantity`. */
const expectPlanFollows = (items: CartLine[], quantity: number, step: string) =>
  expectPlanFollowsFor(items, quantity, step, {
    variantId: buying.id,
    planVariantIds: planVariants.map((variant) => variant.id),
  });

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  stack = await startAppAgainstStore({ storefrontShop: SHOP, storefrontApp: switches });
  ({ service, store } = stack);
  const sold = await sellLaptopsWithPlans(stack, SHOP, [
    { title: "14 inch", price: "249.00" },
    { title: "16 inch", price: "299.00" },
  ]);
  laptop = sold.laptop;
  planVariants = sold.planVariants;
  // Above 2^53 doubles are even: of two consecutive IDs one is odd, and JSON.parse rounds it.
  // The buyer buys that one, so any code that reads an ID as a JS number shows here.
  const rounded = laptop.variants.find((variant) => roundsInJs(variant.id));
  if (!rounded)
    throw new Error(
      `Every laptop variant ID is exact as a JS number: ${laptop.variants.map((v) => v.id).join(", ")}`,
    );
  buying = rounded;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Polls `read` until it gives a value, or fails naming `what`. */
async function waitFor<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} never came${appLog()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The row of the line titled `title` in Dawn's cart page (or, with `in`, its cart drawer). */
function cartRow(page: Page, title: string, list = "cart-items"): Locator {
  return page.locator(`${list} tr.cart-item`).filter({
    has: page.locator("a.cart-item__name", { hasText: new RegExp(`^\\s*${title}\\s*$`) }),
  });
}

/** A cart row's quantity input, as Dawn draws it on the cart page and in the cart drawer. */
function quantityInput(row: Locator): Locator {
  return row.locator("input.quantity__input");
}

/** A buyer types a quantity; Dawn updates the cart on the input's change event. */
async function typeQuantity(row: Locator, quantity: number): Promise<void> {
  const input = quantityInput(row);
  await input.fill(String(quantity));
  await input.dispatchEvent("change");
}

function removeLine(row: Locator): Promise<void> {
  return row.locator("cart-remove-button a, cart-remove-button button").first().click();
}

/** A buyer's change to the laptop's line, which the plan line must follow to `quantity`. */
async function changeLaptop(
  page: Page,
  watch: Watch,
  step: string,
  quantity: number,
  action: () => Promise<unknown>,
): Promise<void> {
  const changed = await act(page, watch, step, action);
  expectPlanFollows(changed.cart.items, quantity, changed.step);
}

describeWithDawn("a buyer in Chromium through Dawn and the app", () => {
  it(
    "chooses a plan, changes quantities on the cart page, removes the product, and checks out",
    { timeout: 180_000 },
    async () => {
      const { context, page, watch } = await openBuyer();
      const variantId = buying.id;
      const productPage = `${store.url}/products/${laptop.handle}?variant=${variantId}`;
      // The embed's writes of the session attribute (decision 033): one per cart and session.
      const attributeWrites: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (/^\/cart\/update(\.js)?$/.test(url.pathname) && request.method() === "POST") {
          if ((request.postData() ?? "").includes(SESSION_ATTRIBUTE)) {
            attributeWrites.push(request.postData() ?? "");
          }
        }
      });
      try {
        // 1. The product page: our offer with the emulator's plans, none chosen.
        await page.goto(productPage, { waitUntil: "load" });
        const offer = page.locator(".product__info-container [data-svc-offer]");
        await expect
          .poll(() => offer.getAttribute("data-state"), { timeout: 15_000 })
          .toBe("ready");
        const planInputs = offer.locator("[data-svc-plan]");
        await expect.poll(() => planInputs.count()).toBe(planVariants.length);
        expect(await offer.locator("[data-svc-title]").allTextContents()).toEqual([
          "2-year protection",
          "3-year protection",
        ]);
        expect(await planInputs.first().getAttribute("data-for")).toBe(variantId);
        expect(
          await page.locator('form[data-type="add-to-cart-form"] input[name="id"]').inputValue(),
        ).toBe(variantId);
        expect(await offer.locator("[data-svc-plan]:checked").count()).toBe(0);
        expect(await offer.locator('input[value=""]').isChecked()).toBe(true);
        const shot = path.join(artifacts, "dawn-buyer-product.png");
        await page.screenshot({ path: shot });
        // The README's picture is renewed on request only, so a test run leaves the tree clean.
        if (process.env.SVC_UPDATE_SCREENSHOTS === "1") {
          mkdirSync(path.join(repoRoot, "docs/screenshots"), { recursive: true });
          copyFileSync(shot, path.join(repoRoot, "docs/screenshots/storefront-product.png"));
        }

        // 2. Choose the 3-year plan and add to cart with Dawn's button (product-form.js).
        const threeYear = planVariants[1]!.id;
        await offer.locator("label", { hasText: "3-year protection" }).click();
        expect(await offer.locator("[data-svc-plan]:checked").getAttribute("value")).toBe(
          threeYear,
        );
        const added = await act(page, watch, "add to cart", async () => {
          const answer = page.waitForResponse(
            (response) =>
              new URL(response.url()).pathname === "/cart/add" &&
              response.request().method() === "POST",
          );
          await page.locator('product-form button[name="add"]').click();
          const response = await answer;
          expect(response.status()).toBe(200);
          const body = response.request().postData() ?? "";
          expect(body).toContain(`items[][properties][${PROPERTY}]`);
          expect(body).toContain("sections");
        });
        expectPlanFollows(added.cart.items, 1, added.step);
        expect(planAndProduct(added.cart.items, variantId).plans[0]?.variant_id).toBe(threeYear);
        const session = await page.evaluate(() => localStorage.getItem("svc_user_session_id"));
        expect(session).toMatch(/^[0-9a-f-]{36}$/);
        expect(attributeWrites, "the embed wrote the session attribute once").toHaveLength(1);
        expect(JSON.parse(attributeWrites[0]!)).toEqual({
          attributes: { [SESSION_ATTRIBUTE]: session },
        });
        expect((await cartOf(page)).attributes[SESSION_ATTRIBUTE]).toBe(session);

        // Dawn's cart notification (the theme's cart_type), then its "View cart".
        const notification = page.locator("#cart-notification");
        await expect.poll(() => notification.getAttribute("class")).toContain("active");
        await page.screenshot({ path: path.join(artifacts, "dawn-buyer-cart-notification.png") });
        expectNoProblems(watch, "the product page");

        // 3. The cart page: Dawn's plus button, a typed quantity, minus, then remove.
        await quiet(watch);
        await page.locator("#cart-notification-button").click();
        await page.waitForURL(/\/cart$/);
        const laptopRow = cartRow(page, "Aurora 14 Laptop");
        await expect.poll(() => laptopRow.count()).toBe(1);
        await expect.poll(() => cartRow(page, "Accident protection").count()).toBe(1);

        await changeLaptop(page, watch, "plus on the cart page", 2, () =>
          laptopRow.locator('button[name="plus"]').click(),
        );
        await expect
          .poll(() => quantityInput(cartRow(page, "Accident protection")).inputValue())
          .toBe("2");
        await page.screenshot({
          path: path.join(artifacts, "dawn-buyer-cart.png"),
          fullPage: true,
        });

        await changeLaptop(page, watch, "typed quantity on the cart page", 4, () =>
          typeQuantity(laptopRow, 4),
        );

        await changeLaptop(page, watch, "minus on the cart page", 3, () =>
          laptopRow.locator('button[name="minus"]').click(),
        );
        await expect
          .poll(() => quantityInput(cartRow(page, "Accident protection")).inputValue())
          .toBe("3");

        const removed = await act(page, watch, "remove on the cart page", () =>
          removeLine(laptopRow),
        );
        expect(removed.cart.items, `${removed.step}: the plan goes with its product`).toEqual([]);
        expectNoProblems(watch, "the cart page");

        // 5. Again with two laptops and the 2-year plan, then check out.
        await quiet(watch);
        await page.goto(productPage, { waitUntil: "load" });
        await expect
          .poll(() => offer.getAttribute("data-state"), { timeout: 15_000 })
          .toBe("ready");
        const twoYear = planVariants[0]!.id;
        await offer.locator("label", { hasText: "2-year protection" }).click();
        await page.locator('quantity-input input[name="quantity"]').first().fill("2");
        const again = await act(page, watch, "add two", () =>
          page.locator('product-form button[name="add"]').click(),
        );
        expectPlanFollows(again.cart.items, 2, again.step);
        const cartToken = again.cart.token;
        // Current Shopify's /cart.js token: the cart's token, then its key, which the service
        // must never get.
        expect(cartToken).toMatch(/\?key=/);
        const cartId = cartToken.split("?")[0]!;

        // Dawn's own way to the checkout: the notification's "View cart", then "Check out".
        await expect.poll(() => notification.getAttribute("class")).toContain("active");
        await quiet(watch);
        await page.locator("#cart-notification-button").click();
        await page.waitForURL(/\/cart$/);
        await expect.poll(() => cartRow(page, "Accident protection").count()).toBe(1);
        await quiet(watch);
        await page.locator("button#checkout").click();
        await page.waitForURL(/\/checkout$/);
        await expect
          .poll(() => page.locator("#checkout-lines").textContent())
          .toContain("Aurora 14 Laptop");
        await page.locator("#checkout-email").fill("ada@example.com");
        await page.locator("#checkout-pay").click();
        await page.waitForURL(/\/checkouts\/[^/]+\/thank-you$/);
        // Page loads without a cart change (the cart page, the checkout) wrote nothing more.
        expect(attributeWrites, "the session attribute is written once per cart").toHaveLength(1);
        const orderId = (await page.locator("#order-id").textContent())?.trim() ?? "";
        expect(orderId).toMatch(/^\d+$/);
        expect(await page.locator("#order-lines").textContent()).toContain(
          `2 × Accident protection`,
        );
        expect(await page.locator("#order-lines").textContent()).toContain(
          `(protects variant ${variantId})`,
        );
        expectNoProblems(watch, "the checkout");

        // The order reaches the service as order_placed, the plan line naming its product.
        const deadline = Date.now() + 30_000;
        let placed;
        for (;;) {
          const state = await service.state("sandbox");
          placed = state.orders.find((order) => order.order_id === orderId)?.placed;
          if (placed) break;
          if (Date.now() > deadline)
            throw new Error(`order_placed for ${orderId} never came${appLog()}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        const planLine = placed.line_items.find((line) => line.product_id === twoYear);
        expect(planLine, JSON.stringify(placed.line_items)).toBeDefined();
        expect(planLine?.custom_properties?.product_reference).toBe(variantId);
        expect(planLine?.quantity).toBe(2);
        const productLine = placed.line_items.find((line) => line.product_id === variantId);
        expect(productLine?.quantity).toBe(2);
        expect(placed.cart_id).toBe(cartId);

        // The checkout confirmation: the cart and session of the /cart_updates calls, the order's
        // ID, after order_placed.
        const confirmation = await waitFor(async () => {
          const state = await service.state("sandbox");
          return state.checkout_confirmations.find((entry) => entry.order_id === orderId);
        }, `the checkout confirmation of ${orderId}`);
        const requests = await service.requests();
        const updates = requests.filter((request) => request.path === "/sandbox/cart_updates");
        expect(updates.length).toBeGreaterThan(0);
        const reported = updates.map((request) => {
          const body = request.body as { cart_id: string; user_session_id: string };
          return `${body.cart_id} ${body.user_session_id}`;
        });
        expect(new Set(reported)).toEqual(new Set([`${cartId} ${session}`]));
        expect(confirmation).toMatchObject({
          cart_id: cartId,
          user_session_id: session,
          order_id: orderId,
        });
        const paths = requests.map((request) => request.path);
        const placedAt = paths.indexOf("/sandbox/events");
        const confirmedAt = paths.indexOf("/sandbox/cart_checkout");
        expect(placedAt).toBeGreaterThanOrEqual(0);
        expect(confirmedAt, "the confirmation follows order_placed").toBeGreaterThan(placedAt);
        expect(paths.filter((p) => p === "/sandbox/cart_checkout")).toHaveLength(1);
      } finally {
        await context.close();
      }
    },
  );

  it("follows the product's quantity in Dawn's cart drawer, the merchant's other cart type", async () => {
    switches.cartType = "drawer";
    const { context, page, watch } = await openBuyer();
    try {
      await page.goto(`${store.url}/products/${laptop.handle}?variant=${buying.id}`, {
        waitUntil: "load",
      });
      const offer = page.locator(".product__info-container [data-svc-offer]");
      await expect.poll(() => offer.getAttribute("data-state"), { timeout: 15_000 }).toBe("ready");
      expect(await offer.locator("[data-svc-plan]:checked").count()).toBe(0);
      await offer.locator("label", { hasText: "2-year protection" }).click();
      const added = await act(page, watch, "add to cart (drawer)", () =>
        page.locator('product-form button[name="add"]').click(),
      );
      expectPlanFollows(added.cart.items, 1, added.step);

      const drawer = page.locator("cart-drawer");
      await expect.poll(() => drawer.getAttribute("class")).toContain("active");
      const laptopRow = cartRow(page, "Aurora 14 Laptop", "cart-drawer-items");
      const planRow = cartRow(page, "Accident protection", "cart-drawer-items");
      await expect.poll(() => laptopRow.count()).toBe(1);
      await expect.poll(() => planRow.count()).toBe(1);

      await changeLaptop(page, watch, "plus in the cart drawer", 2, () =>
        laptopRow.locator('button[name="plus"]').click(),
      );
      await expect.poll(() => quantityInput(planRow).inputValue()).toBe("2");
      await page.screenshot({ path: path.join(artifacts, "dawn-buyer-cart-drawer.png") });

      await changeLaptop(page, watch, "typed quantity in the cart drawer", 3, () =>
        typeQuantity(laptopRow, 3),
      );

      await changeLaptop(page, watch, "minus in the cart drawer", 2, () =>
        laptopRow.locator('button[name="minus"]').click(),
      );
      await expect.poll(() => quantityInput(planRow).inputValue()).toBe("2");

      const removed = await act(page, watch, "remove in the cart drawer", () =>
        removeLine(laptopRow),
      );
      expect(removed.cart.items, `${removed.step}: the plan goes with its product`).toEqual([]);
      await expect.poll(() => planRow.count()).toBe(0);
      expectNoProblems(watch, "the cart drawer");
    } finally {
      delete switches.cartType;
      await context.close();
    }
  });

  it("pairs a plan with a theme's JSON add of one item, IDs exact, answered as one item", async () => {
    const { context, page, watch } = await openBuyer();
    const plan = planVariants.find((variant) => roundsInJs(variant.id));
    if (!plan)
      throw new Error(
        `No plan variant ID rounds in JS: ${planVariants.map((v) => v.id).join(", ")}`,
      );
    const title = `${planVariants.indexOf(plan) + 2}-year protection`;
    try {
      await page.goto(`${store.url}/products/${laptop.handle}?variant=${buying.id}`, {
        waitUntil: "load",
      });
      const offer = page.locator(".product__info-container [data-svc-offer]");
      await expect.poll(() => offer.getAttribute("data-state"), { timeout: 15_000 }).toBe("ready");
      await offer.locator("label", { hasText: title }).click();
      // As a theme that adds with fetch and JSON does (Dawn sends FormData): one item, the
      // variant as text, since a JS number would round it.
      const syncsBefore = await syncsOf(page);
      const answer = await page.evaluate(async (id) => {
        const response = await fetch("/cart/add.js", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ id, quantity: 1 }),
        });
        return { status: response.status, text: await response.text() };
      }, buying.id);
      expect(answer.status, answer.text).toBe(200);
      const body = parseWebhookJson(answer.text) as { id: string; key: string; items: CartLine[] };
      // Shopify's answer to one item (the theme sent one), with the lines of the two added.
      expect(body.id).toBe(buying.id);
      expect(body.key).toBe(body.items[0]?.key);
      expect(body.items.map((item) => item.variant_id)).toEqual([buying.id, plan.id]);
      const { items } = await settle(page, watch, syncsBefore);
      expectPlanFollows(items, 1, "JSON add");
      expect(planAndProduct(items, buying.id).plans[0]?.variant_id).toBe(plan.id);
      expectNoProblems(watch, "the product page");
    } finally {
      await context.close();
    }
  });
});
