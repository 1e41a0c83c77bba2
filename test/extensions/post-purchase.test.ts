import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_RETRIES } from "../../extensions/shared/link-state";
import { launchChromium } from "../storefront/browser";
import { sessionToken } from "../support/session-token";
import { repoRoot } from "../support/test-env";
import {
  bundleTarget,
  startTestServer,
  translationsOf,
  type Answer,
  type TargetName,
  type TestServer,
} from "./harness";
import type { StubConfig } from "./host-stubs";

// The post-purchase offer (extensions/svc-post-purchase) on both of its targets: bundled,
// run in Chromium with its target's `shopify` stubbed, asking a test double of the app on
// another origin (so the bearer token goes through a CORS preflight, as from Shopify's worker).

const SHOP = "svc-harness.myshopify.com";
const LINK = "https://svc.example/checkout/redirect/ord-1001";
const READY: Answer = {
  status: 200,
  body: {
    status: "ready",
    link: LINK,
    available_plans: [
      {
        line_item_id: "2",
        product_reference: "laptop-3y",
        plan_price_amount: 4999,
        plan_price_currency: "eur",
      },
      {
        line_item_id: "1",
        product_reference: "laptop-2y",
        plan_price_amount: 1999,
        plan_price_currency: "eur",
      },
    ],
  },
};
const NONE: Answer = { status: 200, body: { status: "none" } };
const NOT_YET: Answer = { status: 202, body: { status: "not_yet", retry_after_ms: 100 } };

const TARGETS: { target: TargetName; route: string; orderId: string }[] = [
  {
    target: "thank-you",
    route: "/api/checkout/protection-link",
    orderId: "gid://shopify/OrderIdentity/5720000001001",
  },
  {
    target: "order-status",
    route: "/api/customer-account/protection-link",
    orderId: "gid://shopify/Order/5720000001001",
  },
];

const artifacts = path.join(repoRoot, "test/artifacts");
let browser: Browser;
let app: TestServer;
let checkout: TestServer;
const pageErrors: string[] = [];
const bundles = new Map<TargetName, string>();

beforeAll(async () => {
  [browser, app, checkout] = await Promise.all([
    launchChromium(),
    startTestServer(),
    startTestServer(),
  ]);
  for (const { target } of TARGETS) bundles.set(target, await bundleTarget(target, app.url));
  mkdirSync(artifacts, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([app?.close(), checkout?.close()]);
});

afterEach(() => {
  app.answers.clear();
  app.requests.length = 0;
  expect(pageErrors.splice(0)).toEqual([]);
});

async function openTarget(
  target: TargetName,
  orderId: string,
  locale: "en" | "de" = "en",
  script = bundles.get(target)!,
  host: Pick<StubConfig, "orderArrivesAfterMs"> = {},
): Promise<{ page: Page; token: string }> {
  const token = sessionToken(SHOP);
  checkout.page = {
    script,
    config: { locale, translations: translationsOf(target, locale), token, orderId, ...host },
  };
  const context = await browser.newContext({ locale: locale === "en" ? "en-US" : "de-DE" });
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  // The context goes with its page. When afterAll closes the browser first, the context is gone
  // already and closing it again rejects: nothing is left to clean up then.
  page.on("close", () => void context.close().catch(() => undefined));
  await page.goto(`${checkout.url}/page`);
  return { page, token };
}

/** Waits until the app double has had `count` requests, then a little for the render. */
async function untilRequests(count: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (app.requests.length < count) {
    if (Date.now() > deadline) throw new Error(`${app.requests.length} requests, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
}

describe.each(TARGETS)("the offer on $target", ({ target, route, orderId }) => {
  it("offers the link with the lowest plan price, asking with the bearer token and the order", async () => {
    app.answers.set(route, [READY]);
    const { page, token } = await openTarget(target, orderId);
    const link = page.locator("s-banner s-link");
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(LINK);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.textContent()).toBe("Choose a protection plan");
    expect(await page.locator("s-banner").getAttribute("heading")).toBe("Protect your purchase");
    expect(await page.locator("s-banner s-text").textContent()).toBe(
      "Extended protection plans are available for products in this order, from €19.99.",
    );
    expect(app.requests).toEqual([{ path: route, orderId, authorization: `Bearer ${token}` }]);
    await page.screenshot({ path: path.join(artifacts, `extension-${target}-en.png`) });
    await page.close();
  });

  it("offers it in German", async () => {
    app.answers.set(route, [READY]);
    const { page } = await openTarget(target, orderId, "de");
    const link = page.locator("s-banner s-link");
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(LINK);
    expect(await link.textContent()).toBe("Schutzplan auswählen");
    expect(await page.locator("s-banner").getAttribute("heading")).toBe(
      "Schützen Sie Ihren Einkauf",
    );
    expect((await page.locator("s-banner s-text").textContent())?.replace(/\s/g, " ")).toBe(
      "Für Produkte dieser Bestellung sind erweiterte Schutzpläne ab 19,99 € erhältlich.",
    );
    await page.screenshot({ path: path.join(artifacts, `extension-${target}-de.png`) });
    await page.close();
  });

  it("offers the link without a price when the service lists no plans", async () => {
    app.answers.set(route, [
      { status: 200, body: { status: "ready", link: LINK, available_plans: [] } },
    ]);
    const { page } = await openTarget(target, orderId);
    await page.locator("s-banner s-link").waitFor();
    expect(await page.locator("s-banner s-text").textContent()).toBe(
      "Extended protection plans are available for products in this order.",
    );
    await page.close();
  });

  it.each<[string, Answer]>([
    ["none", NONE],
    ["a 400", { status: 400, body: { error: { code: "invalid_order_id", message: "…" } } }],
    ["a 401", { status: 401, body: {}, raw: "" }],
    [
      "a 502",
      {
        status: 502,
        body: { status: "error", error: { code: "service_unavailable", message: "…" } },
      },
    ],
    ["a body that is not JSON", { status: 200, body: null, raw: "<html>oops</html>" }],
    [
      "a ready answer with a link that is not https",
      { status: 200, body: { status: "ready", link: "javascript:alert(1)" } },
    ],
  ])("renders nothing on %s", async (_name, answer) => {
    app.answers.set(route, [answer]);
    const { page } = await openTarget(target, orderId);
    await untilRequests(1);
    expect(await page.evaluate(() => document.body.innerHTML)).toBe("");
    expect(app.requests).toHaveLength(1);
    await page.close();
  });

  it("renders nothing when the app cannot be reached", async () => {
    // Port 1 on loopback: nothing listens, so the fetch itself fails.
    const unreachable = await bundleTarget(target, "http://127.0.0.1:1");
    const { page } = await openTarget(target, orderId, "en", unreachable);
    await page.waitForTimeout(1_000);
    expect(await page.evaluate(() => document.body.innerHTML)).toBe("");
    await page.close();
  });

  it("asks again on not_yet and offers the link once the route is ready", async () => {
    app.answers.set(route, [NOT_YET, NOT_YET, READY]);
    const { page } = await openTarget(target, orderId);
    await page.locator("s-banner s-link").waitFor();
    expect(await page.locator("s-banner s-link").getAttribute("href")).toBe(LINK);
    expect(app.requests.map((request) => request.orderId)).toEqual([orderId, orderId, orderId]);
    await page.close();
  });

  it("gives up after its retries when the placement never arrives, and renders nothing", async () => {
    app.answers.set(route, [NOT_YET]);
    const { page } = await openTarget(target, orderId);
    await untilRequests(1 + MAX_RETRIES);
    await page.waitForTimeout(1_000);
    expect(app.requests).toHaveLength(1 + MAX_RETRIES);
    expect(await page.evaluate(() => document.body.innerHTML)).toBe("");
    await page.close();
  });
});

describe("the offer on the Order status page before Shopify has processed the order", () => {
  it("asks once the page's order signal gives the order, and offers the link", async () => {
    const route = "/api/customer-account/protection-link";
    const orderId = "gid://shopify/Order/5720000001002";
    app.answers.set(route, [READY]);
    const { page } = await openTarget("order-status", orderId, "en", undefined, {
      orderArrivesAfterMs: 400,
    });
    await page.locator("s-banner s-link").waitFor();
    expect(app.requests.map((request) => request.orderId)).toEqual([orderId]);
    await page.close();
  });
});
