import { existsSync } from "node:fs";
import { chromium, type Browser, type LaunchOptions } from "playwright-core";

/** Debian's Chromium (scripts/browser.sh installs it); never a browser downloaded by a test tool. */
export const CHROMIUM_PATH = process.env.SVC_CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * A buyer's or merchant's browser. Shopify's library answers a bot's user agent (HeadlessChrome)
 * with 410 and no CORS headers, so pages whose scripts call the app set this one.
 */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";

/** Headless, and nothing that reaches outside the machine. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * Headless Chromium with nothing that reaches outside the machine. Playwright gives every
 * launch a fresh temporary profile (its own --user-data-dir) and removes it on close. `options`
 * go on top (a benchmark turns Playwright's signal handlers off).
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: run bash scripts/browser.sh`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false,
    args: CHROMIUM_FLAGS,
    ...options,
  });
}
