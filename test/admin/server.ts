import path from "node:path";
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

const ADMIN_API_OFFLINE = path.join(import.meta.dirname, "admin-api-offline.mjs");

/**
 * `npm start` on a free port against process.env.DATABASE_URL (the test file's database), with
 * Shopify's Admin GraphQL API answered from test/fixtures/admin-graphql (admin-api-offline.mjs):
 * `adminGraphql` maps operation names to fixture files.
 */
export async function startAdminServer(
  options: { env?: Record<string, string>; adminGraphql?: Record<string, string> } = {},
): Promise<AdminServer> {
  const port = await freePort();
  // localhost rather than 127.0.0.1: Chromium treats it as a secure context, so the app's
  // `Secure; SameSite=None` locale cookie is kept, as it is over HTTPS in the admin.
  const urlHost = "localhost";
  return startProductionServer(
    {
      SHOPIFY_APP_URL: `http://${urlHost}:${port}`,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${ADMIN_API_OFFLINE}`]
        .filter(Boolean)
        .join(" "),
      SVC_TEST_ADMIN_GRAPHQL: JSON.stringify(options.adminGraphql ?? {}),
      ...options.env,
    },
    { port, urlHost },
  );
}
