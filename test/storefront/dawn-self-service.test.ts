import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RecordedRequest } from "../../emulator/state";
import { describeWithDawn } from "../../store/storefront/theme/with-dawn";
import {
  sellLaptopsWithPlans,
  startAppAgainstStore,
  waitFor,
  type AppAgainstStore,
  type StoreProduct,
} from "../support/app-against-store";
import {
  checkoutSessionToken,
  customerAccountSessionToken,
  sessionToken,
} from "../support/session-token";
import { BROWSER_USER_AGENT, launchChromium } from "./browser";

/*
 * Issue 19, end to end: "An order without a plan gets a redirect link. Its order_placed reaches
 * the service first." A buyer in Chromium adds a laptop WITHOUT a plan through Dawn and checks
 * out through the local store's checkout; then the post-purchase routes of the built app are
 * asked for that order as the Thank-you page's, the Order status page's and the admin's UI
 * extensions ask (links contract), with tokens signed for the shop.
 */

const SHOP = "svc-self-service.myshopify.com";
const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

let stack: AppAgainstStore;
let browser: Browser;
let laptop: StoreProduct;

async function control<Body>(pathName: string, body?: unknown): Promise<Body> {
  const answer = await stack.control(pathName, body);
  expect(answer.status, `${pathName}: ${answer.text}`).toBeLessThan(300);
  return answer.body as Body;
}

beforeAll(async () => {
  stack = await startAppAgainstStore({
    storefrontShop: SHOP,
    storefrontApp: { block: true, embed: true, theme: "dawn" },
  });
  // The default settings: orders without a plan are reported, the self-service link is on.
  ({ laptop } = await sellLaptopsWithPlans(stack, SHOP));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A buyer adds the laptop without a plan with Dawn's own button and checks out; the order's ID. */
async function buyWithoutPlan(page: Page, email: string): Promise<string> {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${stack.store.url}/products/${laptop.handle}`, { waitUntil: "load" });
  const offer = page.locator(".product__info-container [data-svc-offer]");
  await expect.poll(() => offer.getAttribute("data-state"), { timeout: 15_000 }).toBe("ready");
  // The offer never chooses for the buyer: "no protection" stays checked.
  expect(await offer.locator("[data-svc-plan]:checked").count()).toBe(0);
  const added = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === "/cart/add" && response.request().method() === "POST",
  );
  await page.locator('product-form button[name="add"]').click();
  expect((await added).status()).toBe(200);
  await expect
    .poll(() => page.locator("#cart-notification").getAttribute("class"))
    .toContain("active");

  await page.goto(`${stack.store.url}/cart`, { waitUntil: "load" });
  const rows = page.locator("cart-items tr.cart-item");
  await expect.poll(() => rows.count()).toBe(1);
  expect(await rows.first().textContent()).toContain("Aurora 14 Laptop");
  await page.locator("button#checkout").click();
  await page.waitForURL(/\/checkout$/);
  await page.locator("#checkout-email").fill(email);
  await page.locator("#checkout-pay").click();
  await page.waitForURL(/\/checkouts\/[^/]+\/thank-you$/);
  const lines = (await page.locator("#order-lines").textContent()) ?? "";
  expect(lines).toContain("1 × Aurora 14 Laptop");
  expect(lines).not.toContain("protects variant");
  expect(problems).toEqual([]);
  const orderId = (await page.locator("#order-id").textContent())?.trim() ?? "";
  expect(orderId).toMatch(/^\d+$/);
  return orderId;
}

type Answer = { status: number; body: Record<string, unknown> };

async function askApp(path: string, token: string): Promise<Answer> {
  const response = await fetch(`${stack.server.url}${path}`, {
    headers: {
      Authorization: `Bearer ${token}`,
      Origin: EXTENSION_ORIGIN,
      "User-Agent": BROWSER_USER_AGENT,
    },
  });
  const text = await response.text();
  expect(response.headers.get("access-control-allow-origin"), text).toBe("*");
  expect(response.headers.get("cache-control")).toBe("no-store");
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const thankYouLink = (orderId: string) =>
  askApp(
    `/api/checkout/protection-link?order_id=${encodeURIComponent(`gid://shopify/OrderIdentity/${orderId}`)}`,
    checkoutSessionToken(SHOP),
  );

const orderStatusLink = (orderId: string, customerId: string | null) =>
  askApp(
    `/api/customer-account/protection-link?order_id=${encodeURIComponent(`gid://shopify/Order/${orderId}`)}`,
    customerAccountSessionToken(SHOP, { customerId }),
  );

const isPlacement = (orderId: string) => (request: RecordedRequest) =>
  request.method === "POST" &&
  request.path === "/sandbox/events" &&
  (request.body as { type?: string; payload?: { order_id?: string } } | null)?.type ===
    "order_placed" &&
  (request.body as { payload: { order_id: string } }).payload.order_id === orderId;

const isCheckoutRead = (orderId: string, type: string) => (request: RecordedRequest) =>
  request.method === "GET" &&
  request.path === "/sandbox/checkouts" &&
  request.query.order_id === orderId &&
  request.query.checkout_type === type;

describeWithDawn("the self-service link of an order without a plan, through Dawn", () => {
  it(
    "gives the Thank-you page not_yet, then the service's redirect link, after order_placed; the Order status page only to the order's customer; the admin its guided link",
    { timeout: 180_000 },
    async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 1000 },
        userAgent: BROWSER_USER_AGENT,
      });
      // Nothing may leave the machine.
      await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
      const page = await context.newPage();
      let orderId: string;
      try {
        orderId = await buyWithoutPlan(page, "grace@example.com");
      } finally {
        await context.close();
      }

      // The Thank-you page's extension asks at once and again after retry_after_ms.
      const seen: Answer[] = [];
      const ready = await waitFor(
        `the Thank-you page's link of order ${orderId}`,
        async () => {
          const answer = await thankYouLink(orderId);
          seen.push(answer);
          if (answer.status === 202) {
            expect(answer.body).toEqual({ status: "not_yet", retry_after_ms: 1500 });
            return undefined;
          }
          return answer;
        },
        stack.explain,
      );
      expect(ready.status, JSON.stringify(seen)).toBe(200);
      expect(ready.body.status).toBe("ready");
      const link = String(ready.body.link);

      // The link is the emulator's redirect link of this very order.
      const state = await stack.service.state("sandbox");
      const issued = state.checkout_links.filter((entry) => entry.order_id === orderId);
      expect(issued.map((entry) => [entry.checkout_type, entry.link])).toEqual([
        ["redirect", link],
      ]);
      expect(ready.body.available_plans).toEqual([
        expect.objectContaining({ product_reference: laptop.variants[0]!.id }),
      ]);
      // The order was reported without a plan line, and before the link was asked for.
      const placed = state.orders.find((order) => order.order_id === orderId)?.placed;
      expect(placed?.line_items.map((line) => line.custom_properties?.product_reference)).toEqual([
        undefined,
      ]);
      const requests = await stack.service.requests();
      const placedAt = requests.findIndex(isPlacement(orderId));
      const askedAt = requests.findIndex(isCheckoutRead(orderId, "redirect"));
      expect(placedAt, "order_placed reached the service").toBeGreaterThanOrEqual(0);
      expect(askedAt, "the link was asked of the service").toBeGreaterThan(placedAt);

      // The Order status page: the order's own customer (Shopify attached one by e-mail) gets
      // the link; another signed-in customer of the shop, or a token without one, gets nothing.
      const order = await control<{ customer: { id: string } | null }>(
        `shops/${SHOP}/orders/${orderId}`,
      );
      const customerId = order.customer?.id;
      expect(customerId, JSON.stringify(order)).toMatch(/^\d+$/);
      const own = await orderStatusLink(orderId, customerId!);
      expect(own).toEqual({ status: 200, body: ready.body });
      const otherCustomer = String(BigInt(customerId!) + 1n);
      expect(await orderStatusLink(orderId, otherCustomer)).toEqual({
        status: 200,
        body: { status: "none" },
      });
      expect(await orderStatusLink(orderId, null)).toEqual({
        status: 200,
        body: { status: "none" },
      });

      // The admin's order details block: the order, its placement and the guided (assist) link.
      const admin = await askApp(
        `/api/admin/order-protection?order_id=${encodeURIComponent(`gid://shopify/Order/${orderId}`)}&shop=${SHOP}`,
        sessionToken(SHOP),
      );
      expect(admin.status, JSON.stringify(admin.body)).toBe(200);
      expect(admin.body.order).toMatchObject({ id: orderId, environment: "sandbox" });
      expect(admin.body.protected_lines).toEqual([]);
      // The order's placement, then the checkout confirmation of the embed's cart session.
      const events = admin.body.events as { type: string; status: string }[];
      expect(events[0], JSON.stringify(events)).toMatchObject({
        type: "order_placed",
        status: "delivered",
      });
      expect(events.slice(1).map((event) => event.type)).toEqual(["cart_checkout"]);
      const guided = admin.body.guided_checkout as { status: string; link: string };
      expect(guided.status).toBe("ready");
      const assist = (await stack.service.state("sandbox")).checkout_links.find(
        (entry) => entry.order_id === orderId && entry.checkout_type === "assist",
      );
      expect(guided.link).toBe(assist?.link);
      expect(guided.link).not.toBe(link);
      const paths = (await stack.service.requests()).map((request) => request.path);
      expect(paths.filter((p) => p === "/sandbox/checkouts")).toHaveLength(2);
    },
  );
});
