import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { parseWebhookJson } from "../../app/lib/json";
import { BROWSER_USER_AGENT } from "./browser";

/*
 * A buyer in Chromium on the local store's storefront, watched, for the buyer tests of each
 * theme (dawn-buyer, basic-theme-buyer).
 *
 * After every cart change the app embed reconciles the plan line with its product. "One settle"
 * is: the embed has reported at least one sync since the change, no request of the page is in
 * flight, and two reads of /cart.js agree. Only then is the cart compared.
 */

export const PROPERTY = "_svc_protected_product_ref";
export const SESSION_ATTRIBUTE = "_svc_user_session_id";
/** Marks the test's own reads of /cart.js, which are not the page's activity. */
const TEST_READ = "x-buyer-test-read";

export interface CartLine {
  key: string;
  /** Exact: /cart.js is read losslessly here (IDs past 2^53 as strings). */
  variant_id: string;
  quantity: number;
  product_title: string;
  properties: Record<string, string> | null;
}

/** Whether a JS number (JSON.parse of /cart.js in a browser) changes this ID. */
export function roundsInJs(id: string): boolean {
  return BigInt(Number(id)) !== BigInt(id);
}

/** Everything that went wrong on the page, named; asserted empty at the end. */
export interface Watch {
  problems: string[];
  /** Requests of the page not yet finished or failed. */
  inFlight: Set<string>;
  lastActivity: number;
}

/** A buyer's browser context and page, watched for errors, failed requests and activity. */
export async function openBuyer(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; watch: Watch }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 1000 },
    userAgent: BROWSER_USER_AGENT,
  });
  const watch: Watch = { problems: [], inFlight: new Set(), lastActivity: Date.now() };
  // Nothing may leave the machine.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => {
    watch.problems.push(`outside request: ${route.request().url()}`);
    return route.abort();
  });
  // The embed announces each finished sync; the count tells a settle that one has run.
  await context.addInitScript(() => {
    const counter = window as unknown as { svcSyncs: number };
    counter.svcSyncs = 0;
    document.addEventListener("svc:cart-synced", () => (counter.svcSyncs += 1));
  });
  const page = await context.newPage();
  const where = () => new URL(page.url()).pathname;
  page.on("console", (message) => {
    if (message.type() === "error") watch.problems.push(`console on ${where()}: ${message.text()}`);
  });
  page.on("pageerror", (error) =>
    watch.problems.push(`page error on ${where()}: ${error.message}`),
  );
  let next = 0;
  const ids = new WeakMap<object, string>();
  page.on("request", (request) => {
    if (request.headers()[TEST_READ]) return;
    const id = String(next++);
    ids.set(request, id);
    watch.inFlight.add(id);
    watch.lastActivity = Date.now();
  });
  const done = (request: object) => {
    const id = ids.get(request);
    if (id === undefined) return;
    watch.inFlight.delete(id);
    watch.lastActivity = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", (request) => {
    done(request);
    watch.problems.push(
      `failed request: ${request.method()} ${request.url()} ${request.failure()?.errorText}`,
    );
  });
  page.on("response", (response) => {
    if (response.status() >= 400) {
      watch.problems.push(
        `HTTP ${response.status()}: ${response.request().method()} ${response.url()}`,
      );
    }
  });
  return { context, page, watch };
}

async function readCart(page: Page): Promise<string> {
  return page.evaluate(
    async (marker) =>
      (await fetch("/cart.js", { headers: { accept: "application/json", [marker]: "1" } })).text(),
    TEST_READ,
  );
}

/** /cart.js as the page's own fetch gets it, parsed without rounding its IDs. */
export async function cartOf(
  page: Page,
): Promise<{ token: string; items: CartLine[]; attributes: Record<string, string> }> {
  return parseWebhookJson(await readCart(page)) as {
    token: string;
    items: CartLine[];
    attributes: Record<string, string>;
  };
}

export const syncsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { svcSyncs: number }).svcSyncs);

const signatureOf = (items: CartLine[]) =>
  items.map((item) => `${item.key}×${item.quantity}`).join(",");

/**
 * Waits for one settle after an action taken when the embed had reported `syncsBefore` syncs,
 * and gives the cart then. `explain` adds to a time-out's message (the app's log).
 */
export async function settle(
  page: Page,
  watch: Watch,
  syncsBefore: number,
  explain: () => string = () => "",
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  let previous: string | undefined;
  for (;;) {
    const quiet = watch.inFlight.size === 0 && Date.now() - watch.lastActivity > 300;
    if (quiet && (await syncsOf(page)) > syncsBefore) {
      const cart = await cartOf(page);
      const signature = signatureOf(cart.items);
      if (signature === previous) return cart;
      previous = signature;
    } else previous = undefined;
    if (Date.now() > deadline) {
      throw new Error(
        `The cart did not settle within ${timeoutMs} ms (in flight: ${watch.inFlight.size}, ` +
          `syncs: ${await syncsOf(page)} after ${syncsBefore})${explain()}`,
      );
    }
    await page.waitForTimeout(100);
  }
}

/**
 * Waits until the page has nothing in flight, before a navigation: one that cut a request off
 * would be a failed request that no buyer's action caused.
 */
export async function quiet(watch: Watch, timeoutMs = 10_000) {
  await expect
    .poll(() => watch.inFlight.size === 0 && Date.now() - watch.lastActivity > 300, {
      timeout: timeoutMs,
    })
    .toBe(true);
}

/** An action of the buyer, then one settle: the step's name and the cart after it. */
export async function act(
  page: Page,
  watch: Watch,
  step: string,
  action: () => Promise<unknown>,
  explain: () => string = () => "",
) {
  const before = await syncsOf(page);
  await action();
  return { step, cart: await settle(page, watch, before, explain) };
}

/** The product's lines and the plan lines that protect it, with what a buyer must see. */
export function planAndProduct(items: CartLine[], productVariantId: string) {
  const products = items.filter(
    (item) => item.variant_id === productVariantId && !item.properties?.[PROPERTY],
  );
  const plans = items.filter((item) => item.properties?.[PROPERTY] !== undefined);
  const productQuantity = products.reduce((sum, item) => sum + item.quantity, 0);
  const planQuantity = plans.reduce((sum, item) => sum + item.quantity, 0);
  return { products, plans, productQuantity, planQuantity };
}

/** The cart holds `quantity` of the product and as many plans, each protecting that variant. */
export function expectPlanFollows(
  items: CartLine[],
  quantity: number,
  step: string,
  sold: { variantId: string; planVariantIds: string[] },
) {
  const { plans, productQuantity, planQuantity } = planAndProduct(items, sold.variantId);
  const shown = JSON.stringify(
    items.map((item) => [item.product_title, item.quantity, item.properties]),
  );
  expect(productQuantity, `${step}: the product's quantity in ${shown}`).toBe(quantity);
  expect(planQuantity, `${step}: the plan's quantity in ${shown}`).toBe(quantity);
  for (const plan of plans) {
    expect(plan.properties?.[PROPERTY], `${step}: the plan's reference`).toBe(sold.variantId);
    expect(sold.planVariantIds).toContain(plan.variant_id);
  }
}

export function expectNoProblems(watch: Watch, where: string) {
  expect(watch.problems, `Problems on ${where}:\n${watch.problems.join("\n")}`).toEqual([]);
}
