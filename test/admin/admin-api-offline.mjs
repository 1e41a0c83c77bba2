/*
 * Preloaded into the app's server process by the admin browser tests (NODE_OPTIONS=--import):
 * Shopify's Admin GraphQL API, answered offline from the recorded answers in
 * test/fixtures/admin-graphql/, by operation name. The machine has no internet, and the pages
 * call Shopify for products (the resource picker's picks, the protection product).
 *
 * The Shopify library keeps the `fetch` it finds when its Node adapter is imported, and
 * server/serve.ts imports the build (so the adapter) before anything else: this module runs
 * first and wraps fetch. Only https://{shop}/admin/api/{version}/graphql.json is answered; every
 * other request (the protection-service emulator) goes through untouched. Each call is logged
 * as one line, `admin-graphql-offline {json}`, for the test to read.
 *
 * SVC_TEST_ADMIN_GRAPHQL: JSON {"OperationName": "fixture.json", ...}, over the defaults below.
 * An operation without an answer gets a 500, as a broken Shopify would give, and is logged as
 * unanswered.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

const ADMIN_GRAPHQL = /^https:\/\/([^/]+)\/admin\/api\/([^/]+)\/graphql\.json$/;
const fixturesDir = path.resolve(import.meta.dirname, "../fixtures/admin-graphql");
/**
 * Answered unless the test says otherwise: the Online Store publication (decision 013), found and
 * published to after a protection product is created, and asked about by the items page.
 */
const DEFAULT_ANSWERS = {
  OnlineStorePublication: "publications-online-store.json",
  PublishProtectionProduct: "publishable-publish-published.json",
  ProtectionProductsPublished: "products-published.json",
};
const answers = { ...DEFAULT_ANSWERS, ...JSON.parse(process.env.SVC_TEST_ADMIN_GRAPHQL || "{}") };
const passThrough = globalThis.fetch;

globalThis.fetch = async function adminGraphqlOffline(input, init) {
  const url = input instanceof Request ? input.url : String(input);
  const match = ADMIN_GRAPHQL.exec(url);
  if (!match) return passThrough(input, init);
  const rawBody = input instanceof Request ? await input.text() : String(init?.body ?? "");
  const { query } = JSON.parse(rawBody);
  const operationName = /\b(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? null;
  const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
  const file = operationName ? answers[operationName] : undefined;
  console.log(
    `admin-graphql-offline ${JSON.stringify({
      shop: match[1],
      operationName,
      answered: Boolean(file),
      hasAccessToken: Boolean(headers.get("X-Shopify-Access-Token")),
    })}`,
  );
  const body = file
    ? readFileSync(path.join(fixturesDir, file), "utf8")
    : JSON.stringify({ errors: [{ message: `No offline answer for ${operationName}` }] });
  return new Response(body, {
    status: file ? 200 : 500,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
};
