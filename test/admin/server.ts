import { freePort } from "../../scripts/bench/processes";
import { startProductionServer } from "../support/production-server";

// Why the production server and not Remix's request handler in-process: the admin pages are
// judged as merchants get them, so the test runs what `npm start` runs (migrations, Express,
// compression, the built client assets under their hashed public path, the embedded outbox
// worker) in its own process, with its own Prisma client and logger. An in-process handler would
// share the test's modules and could hide a page that only works with the test's globals.

export interface AdminServer {
  /** http://localhost:<port>; also the app's SHOPIFY_APP_URL. */
  url: string;
  output(): string;
  stop(): Promise<number | null>;
}

/**
 * `npm start` on a free port against process.env.DATABASE_URL (the test file's database), with
 * Shopify's admin calls sent to the local store at `shopifyAdminOrigin` (the machine has no
 * internet, and the pages call Shopify for products). The app refuses a local store under
 * NODE_ENV=production, so the built app runs with NODE_ENV=development, as `bash scripts/dev.sh`
 * runs it: the same build, its embedded outbox worker included.
 */
export async function startAdminServer(options: {
  shopifyAdminOrigin: string;
  env?: Record<string, string>;
}): Promise<AdminServer> {
  const port = await freePort();
  // localhost rather than 127.0.0.1: Chromium treats it as a secure context, so the app's
  // `Secure; SameSite=None` locale cookie is kept, as it is over HTTPS in the admin.
  const urlHost = "localhost";
  return startProductionServer(
    {
      SHOPIFY_APP_URL: `http://${urlHost}:${port}`,
      NODE_ENV: "development",
      SHOPIFY_ADMIN_ORIGIN: options.shopifyAdminOrigin,
      // The pages show reconciliation as the test seeds it: the worker's first look, one poll
      // after the start, comes after the test.
      SVC_RECONCILE_POLL_MS: "600000",
      ...options.env,
    },
    { port, urlHost },
  );
}
