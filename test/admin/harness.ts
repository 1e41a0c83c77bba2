import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { APP_BRIDGE_FILE, APP_BRIDGE_PATH } from "../../store/storefront/admin";
import { sessionToken } from "../support/session-token";
import { TEST_API_SECRET } from "../support/test-env";
import type { AdminServer } from "./server";

/*
 * The embedded admin in Chromium, as Shopify opens it: the app's URL with embedded=1, shop, host
 * and a session token in id_token (so authenticate.admin needs no bounce page), App Bridge's script
 * answered by the local store's stand-in (store/storefront/admin/app-bridge.js), and every other
 * request that would leave the machine refused and reported. The app asks for App Bridge at the
 * store's `/cdn/shopifycloud/app-bridge.js` (it runs against a local store, decision 030); the
 * page is opened on its own, not in the store's admin, so the stand-in takes its session tokens
 * from this harness.
 */

export const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
export const APP_BRIDGE_LOCAL = APP_BRIDGE_FILE;

/** Shopify's CDN script, or the local store's copy of its path. */
function isAppBridgeUrl(url: string): boolean {
  const parsed = new URL(url);
  return (
    url === APP_BRIDGE_URL ||
    url.startsWith(`${APP_BRIDGE_URL}?`) ||
    (parsed.protocol === "http:" && parsed.pathname === APP_BRIDGE_PATH)
  );
}
/** Files on Shopify's CDN the pages show (Polaris empty-state illustrations). */
export const SHOPIFY_FILES = "https://cdn.shopify.com/s/files/";
/** Drawn in place of a CDN illustration, offline: a plain frame, so the layout stays real. */
export const OFFLINE_ILLUSTRATION = `<svg xmlns="http://www.w3.org/2000/svg" width="226" height="226" viewBox="0 0 226 226"><rect x="8" y="8" width="210" height="210" rx="16" fill="#f1f1f1" stroke="#d4d4d4" stroke-width="2" stroke-dasharray="8 6"/><text x="113" y="118" font-family="sans-serif" font-size="13" fill="#8a8a8a" text-anchor="middle">CDN image (offline)</text></svg>`;

/** `host` as the admin passes it: base64 of admin.shopify.com/store/<handle>. */
export function hostParam(shop: string): string {
  const handle = shop.replace(/\.myshopify\.com$/, "");
  return Buffer.from(`admin.shopify.com/store/${handle}`).toString("base64");
}

/** The URL the admin loads in its iframe for a page of the app. */
export function embeddedUrl(
  server: AdminServer,
  shop: string,
  pathname: string,
  options: { locale?: string } = {},
): string {
  const url = new URL(pathname, server.url);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set("host", hostParam(shop));
  url.searchParams.set("id_token", sessionToken(shop, { expiresIn: 300 }));
  if (options.locale) url.searchParams.set("locale", options.locale);
  return url.toString();
}

/** Posts a signed order webhook to the running app, over HTTP, as Shopify delivers it. */
export async function deliverOrderWebhook(
  server: AdminServer,
  shop: string,
  topic: string,
  body: string,
): Promise<number> {
  const answer = await fetch(`${server.url}/webhooks/${topic}`, {
    method: "POST",
    body,
    headers: shopifyWebhookHeaders({ topic, shop, body, secret: TEST_API_SECRET }),
  });
  return answer.status;
}

export interface OpenedAdminPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, uncaught exceptions, failed app responses and refused outside requests. */
  problems: string[];
  /** Shopify CDN files answered with a local stand-in (the machine is offline). */
  offlineCdnFiles: string[];
  /** Every request the page made to the app, with the Authorization header it carried. */
  appRequests: { method: string; url: string; authorization: string | undefined }[];
}

export interface OpenOptions {
  shop: string;
  pathname: string;
  locale?: string;
  /** Answered by shopify.resourcePicker() in the page (undefined: the merchant cancels). */
  resourcePickerSelection?: unknown;
}

/** A fresh browser context per page: its own cookies, so the locale of one test never leaks. */
export async function openAdminPage(
  browser: Browser,
  server: AdminServer,
  options: OpenOptions,
): Promise<OpenedAdminPage> {
  const appBridge = readFileSync(APP_BRIDGE_LOCAL, "utf8");
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    locale: options.locale === "de" ? "de-DE" : "en-US",
    // isbot() takes headless Chromium's "HeadlessChrome" for a bot, and authenticate.admin
    // answers bots 410: the merchant's browser says "Chrome".
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`,
  });
  const problems: string[] = [];
  const appRequests: OpenedAdminPage["appRequests"] = [];
  const offlineCdnFiles: string[] = [];
  const appOrigin = new URL(server.url).origin;

  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (isAppBridgeUrl(url)) {
      await route.fulfill({ body: appBridge, contentType: "text/javascript; charset=utf-8" });
    } else if (url.startsWith(SHOPIFY_FILES)) {
      offlineCdnFiles.push(url);
      await route.fulfill({ body: OFFLINE_ILLUSTRATION, contentType: "image/svg+xml" });
    } else if (new URL(url).origin === appOrigin || url.startsWith("data:")) {
      await route.continue();
    } else {
      problems.push(`request that would leave the machine: ${url}`);
      await route.abort("blockedbyclient");
    }
  });
  await context.exposeFunction("__svcFreshIdToken", () =>
    sessionToken(options.shop, { expiresIn: 300 }),
  );
  await context.addInitScript(
    (harness) => {
      (window as unknown as { __svcAdminTest: unknown }).__svcAdminTest = harness;
    },
    {
      shop: options.shop,
      host: hostParam(options.shop),
      locale: options.locale ?? "en",
      idToken: sessionToken(options.shop, { expiresIn: 300 }),
      resourcePickerSelection: options.resourcePickerSelection,
    },
  );

  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== appOrigin) return;
    appRequests.push({
      method: request.method(),
      url: request.url(),
      authorization: request.headers()["authorization"],
    });
  });
  page.on("response", (response) => {
    if (new URL(response.url()).origin === appOrigin && response.status() >= 400) {
      problems.push(`${response.status()} from ${response.request().method()} ${response.url()}`);
    }
  });

  const answer = await page.goto(
    embeddedUrl(server, options.shop, options.pathname, { locale: options.locale }),
    { waitUntil: "networkidle" },
  );
  if (!answer?.ok()) {
    problems.push(`document answered ${answer?.status()}: ${await answer?.text()}`);
  }
  try {
    await waitForHydration(page);
  } catch (error) {
    throw new Error(
      `${options.pathname} did not hydrate (${String(error)}) at ${page.url()}:\n${problems.join("\n")}\n${(await page.content()).slice(0, 2000)}`,
    );
  }
  return { page, context, problems, appRequests, offlineCdnFiles };
}

/** Remix has hydrated and has no navigation or fetcher in flight. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () => {
      const router = (
        window as unknown as {
          __remixRouter?: { state: { initialized: boolean; navigation: { state: string } } };
        }
      ).__remixRouter;
      return router?.state.initialized && router.state.navigation.state === "idle";
    },
    undefined,
    { timeout: 10_000 },
  );
  await page.waitForLoadState("networkidle");
  // Two frames: React's effects after hydration have run and painted.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/** Visible text that looks like a translation key the translator did not find (`home.title`). */
export async function untranslatedKeys(page: Page): Promise<string[]> {
  const text = await page.locator("body").innerText();
  return [
    ...new Set(
      text.match(
        /\b(?:common|home|connection|items|events|settings)\.[a-zA-Z_]+(?:\.[a-zA-Z_]+)*\b/g,
      ) ?? [],
    ),
  ];
}

/** Wider than the viewport: something overflows sideways. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
