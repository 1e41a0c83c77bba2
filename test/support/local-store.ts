import { afterAll, expect } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import { parseWebhookJson } from "../../app/lib/json";
import { appIdOf } from "../../store/graphql/index";
import type { StoreShop } from "../../store/model";
import { startStore, type RunningStore } from "../../store/server/server";
import { invalidAdminGraphqlCalls } from "./admin-graphql";
import { APP_SCOPES, createOfflineSession } from "./offline-session";
import { APP_ORIGIN, callRoute, type RouteFunction } from "./routes";
import { TEST_API_KEY, TEST_API_SECRET } from "./test-env";

/*
 * The local Shopify store (store/, issue 15) for one test file, in the test's process: a set-up
 * file (vitest.config.ts) after the Admin GraphQL recorder and before any app module, so the app
 * reads SHOPIFY_ADMIN_ORIGIN on load and sends every Shopify call (token exchange, Admin
 * GraphQL) to this store. A test installs its shop here (`installInStore`), then reads what the
 * app did from the store's state.
 *
 * The app has no HTTP server in these tests: the store's webhooks to the app's URL (APP_ORIGIN)
 * are handed to the app's webhook routes in-process, signed and with Shopify's headers as the
 * store sends them. After the file, the store's GraphQL log and the recorder's must hold no
 * request that Shopify's schema refuses.
 */

/** Frozen, the store's clock stands still: its leaky buckets stop refilling. */
let frozenAt: number | null = null;
/** Keeps the store's time from going back when a frozen, advanced clock is released. */
let offsetMs = 0;
const storeNow = () => new Date(frozenAt ?? Date.now() + offsetMs);

const store: RunningStore = await startStore({
  port: 0,
  host: "127.0.0.1",
  retryDelaysMs: [100, 200, 400],
  now: storeNow,
});
process.env.SHOPIFY_ADMIN_ORIGIN = store.url;

/** Validation errors read from the store's log before a reset cleared it. */
const validationErrorsBeforeReset: string[] = [];

export function localStore(): RunningStore {
  return store;
}

/** A control call (`/__store/<path>`): a JSON body makes it a POST. IDs past 2^53 stay exact. */
export async function storeControl<Body = Record<string, unknown>>(
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const answer = await fetch(`${store.url}/__store/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, body: (text === "" ? {} : parseWebhookJson(text)) as Body };
}

export interface StoreGraphqlRequest {
  shop: string;
  token: "offline" | "online" | null;
  operation_name: string | null;
  variables: unknown;
  validation_errors: string[];
  errors: unknown[];
  status: number;
  answer: unknown;
}

/** The store's log of Admin GraphQL requests since its last reset. */
export async function storeGraphqlLog(): Promise<StoreGraphqlRequest[]> {
  return (await storeControl<{ requests: StoreGraphqlRequest[] }>("graphql")).body.requests;
}

function validationErrorsOf(requests: StoreGraphqlRequest[]): string[] {
  return requests.flatMap((request) =>
    request.validation_errors.map(
      (error) => `${request.operation_name ?? "(anonymous)"} to ${request.shop}: ${error}`,
    ),
  );
}

/** Forgets every shop, token, log and bucket; the log's validation errors are kept for the check. */
export async function resetLocalStore(): Promise<void> {
  validationErrorsBeforeReset.push(...validationErrorsOf(await storeGraphqlLog()));
  await storeWebhooksIdle();
  expect((await storeControl("reset", {})).status).toBe(204);
}

/** Waits until the store has no webhook waiting or in flight (retries included). */
export async function storeWebhooksIdle(timeoutMs = 10_000): Promise<void> {
  const idle = await storeControl(`webhooks/idle?timeout_ms=${timeoutMs}`);
  expect(idle.status, JSON.stringify(idle.body)).toBe(200);
}

/** Freezes the store's clock: a bucket emptied now stays empty until advanced or released. */
export function freezeStoreClock(): void {
  frozenAt ??= Date.now() + offsetMs;
}

/** Moves the frozen clock on: the bucket refills by the plan's rate per second of it. */
export function advanceStoreClock(ms: number): void {
  if (frozenAt === null) throw new Error("Freeze the store's clock before advancing it");
  frozenAt += ms;
}

export function releaseStoreClock(): void {
  if (frozenAt === null) return;
  offsetMs = Math.max(offsetMs, frozenAt - Date.now());
  frozenAt = null;
}

export interface InstallOptions {
  /** The shop's currency (ISO 4217), EUR by default. */
  currency?: string;
  /** The scopes the store grants, the toml's by default. */
  scopes?: string;
  /** The offline session's scopes as the app stored them, the granted ones by default. */
  sessionScope?: string;
}

/**
 * The shop in the store with the app installed (its offline token), and the app's offline session
 * holding that token, as the token exchange of an install leaves them: in-process routes then
 * call the store as the shop's app. An existing shop is kept, with its products and token.
 */
export async function installInStore(
  db: AppPrismaClient,
  shop: string,
  options: InstallOptions = {},
): Promise<{ shop: StoreShop; accessToken: string }> {
  const { state } = store;
  const existing = state.shop(shop);
  const currency = (options.currency ?? "EUR").toUpperCase();
  if (existing && existing.currency !== currency) {
    throw new Error(`${shop} is in the store in ${existing.currency}; reset the store first`);
  }
  if (!existing) {
    state.createShop({
      domain: shop,
      appUrl: APP_ORIGIN,
      apiKey: TEST_API_KEY,
      apiSecret: TEST_API_SECRET,
      currency,
    });
  }
  const scopes = options.scopes ?? APP_SCOPES;
  const installation = state.install(shop, scopes.split(","));
  await db.session.deleteMany({ where: { id: `offline_${shop}` } });
  await createOfflineSession(
    db,
    shop,
    installation.offlineAccessToken,
    options.sessionScope ?? scopes,
  );
  const installed = state.shop(shop);
  if (!installed) throw new Error(`${shop} vanished from the store`);
  return { shop: installed, accessToken: installation.offlineAccessToken };
}

export interface StoreProductInput {
  title: string;
  variants: { title: string; price: string; requires_shipping?: boolean; taxable?: boolean }[];
  status?: "ACTIVE" | "ARCHIVED" | "DRAFT" | "UNLISTED";
  product_type?: string;
  /** On the Online Store unless false. */
  published?: boolean;
}

export interface StoreProduct {
  id: string;
  title: string;
  status: string;
  publications: { id: string; name: string | null }[];
  variants: { id: string; title: string; price: string }[];
}

/** A product the merchant made in the store's admin (the control API), prices in the currency. */
export async function createStoreProduct(
  shop: string,
  product: StoreProductInput,
): Promise<StoreProduct> {
  const created = await storeControl<StoreProduct>(`shops/${shop}/products`, product);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** The namespace the store resolves the app's `$app` to: `app--<the app's ID>`. */
export function appNamespace(shop: StoreShop): string {
  return `app--${appIdOf(shop)}`;
}

/** A numeric ID's GID, as the Admin API names it. */
export function gidOf(type: "Product" | "ProductVariant" | "Publication", id: string): string {
  return `gid://shopify/${type}/${id}`;
}

// The store's webhooks to the app, handed to its routes: `/webhooks/<topic path>` is the route
// module `webhooks.<topic with dots>` (shopify.app.toml names each URI beside its handler).
const WEBHOOK_PATH = /^\/webhooks\/([a-z_]+)\/([a-z_]+)$/;
const fetchBeforeStore = globalThis.fetch;

/** The app's answer to a request the store sent it: a webhook route's, or a 404. */
async function deliverToApp(
  url: URL,
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const match = WEBHOOK_PATH.exec(url.pathname);
  if (!match) return new Response("Not Found", { status: 404 });
  const route = (await import(`../../app/routes/webhooks.${match[1]}.${match[2]}.tsx`)) as {
    action: RouteFunction<Response>;
  };
  return callRoute(route.action, new Request(input, init));
}

globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.origin === APP_ORIGIN) return deliverToApp(url, input, init);
  return fetchBeforeStore(input, init);
}) as typeof fetch;

afterAll(async () => {
  try {
    // Every Admin GraphQL request of the file, answered by the store or recorded, validated.
    const storeErrors = [
      ...validationErrorsBeforeReset,
      ...validationErrorsOf(await storeGraphqlLog()),
    ];
    expect(storeErrors, "the local store's log holds validation errors").toEqual([]);
    expect([...invalidAdminGraphqlCalls()], "recorded calls Shopify would refuse").toEqual([]);
  } finally {
    globalThis.fetch = fetchBeforeStore;
    await store.close();
  }
});
