import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { appProxyRequest, plansQuery } from "../support/app-proxy";
import { OWN_CARTS, readOwnCart } from "../support/cart-fixtures";
import { testDatabaseProvider } from "../support/databases";
import {
  advanceStoreClock,
  createStoreProduct,
  freezeStoreClock,
  installInStore,
  releaseStoreClock,
  storeControl,
  storeGraphqlLog,
} from "../support/local-store";
import { withOutboxApp } from "../support/outbox-app";
import { callRoute } from "../support/routes";
import { connectShop } from "../support/shops";

// The storefront while the shop's expiring offline token is due for a refresh (issue 27, defect
// 2; decision 042): signed requests to the real proxy routes, Shopify's token endpoint and Admin
// API played by the local store (slow or failing on demand), the emulator as the service. A
// refresh that fails, is slow, or meets a database that fails must not cost the buyer the
// answer, must be logged with its cause, and is made once per shop at a time.

// Read by getEnv() on first use, which is after this.
process.env.SVC_STOREFRONT_TIMEOUT_MS = "1000";

const provider = testDatabaseProvider();
const HOUR_MS = 3_600_000;
const app = withOutboxApp();

type LogLine = {
  level: number;
  msg: string;
  shop?: string;
  route?: string;
  err?: { type?: string; message?: string; stack?: string; response?: { code?: number } };
} & Record<string, unknown>;

/** Every line the proxy routes log, as JSON, at debug level and up. */
const logged: LogLine[] = [];

beforeAll(async () => {
  const { createLogger, logger } = await import("../../app/logger.server");
  const capture = createLogger({
    env: { LOG_LEVEL: "debug", LOG_FORMAT: "json" },
    isTTY: false,
    destination: { write: (line: string) => void logged.push(JSON.parse(line) as LogLine) },
  });
  const child = logger.child.bind(logger);
  vi.spyOn(logger, "child").mockImplementation((bindings, options) =>
    "route" in bindings ? capture.child(bindings, options) : child(bindings, options),
  );
});

afterEach(() => releaseStoreClock());

/** A shop of its own for each test: installed, connected, with an expiring offline token. */
async function expiringShop() {
  const shop = `refresh-${provider}-${randomUUID().slice(0, 8)}.myshopify.com`;
  await installInStore(app.prisma, shop);
  await connectShop(app.prisma, shop);
  const laptop = await createStoreProduct(shop, {
    title: "Aurora 14 Laptop",
    variants: [{ title: "16 GB", price: "199.00" }],
  });
  const { ensureOfflineAccess } = await import("../../app/services/offline-session.server");
  // The first use migrates the install's non-expiring token to an expiring pair (decision 023).
  expect(await ensureOfflineAccess(shop)).toMatchObject({ status: "ready" });
  const session = await offlineSession(shop);
  expect(session.refreshToken).not.toBeNull();
  return { shop, variantId: laptop.variants[0]!.id, productId: laptop.id };
}

/** The shop's offline session as the app reads it (tokens in clear). */
async function offlineSession(shop: string) {
  const { sessionStorage } = await import("../../app/shopify.server");
  const session = await sessionStorage.loadSession(`offline_${shop}`);
  if (!session) throw new Error(`${shop} has no offline session`);
  return session;
}

/** The app's session says its token runs out in `ms` (negative: it has run out). */
async function expiresIn(shop: string, ms: number) {
  await app.prisma.session.update({
    where: { id: `offline_${shop}` },
    data: { expires: new Date(Date.now() + ms) },
  });
}

async function tokenEndpoint(shop: string, fault?: Record<string, number>) {
  const answer = await storeControl<{ refresh_requests: number }>(
    `shops/${shop}/token_endpoint`,
    fault,
  );
  expect(answer.status).toBe(200);
  return answer.body;
}

async function getPlans(shop: string, variantId: string) {
  const { loader } = await import("../../app/routes/proxy.plans");
  const request = appProxyRequest({ path: "plans", shop, query: plansQuery(variantId) });
  const answer = (await callRoute(loader, request)) as Response;
  return {
    status: answer.status,
    body: (await answer.json()) as { plans?: unknown[]; unavailable?: string },
  };
}

async function postCart(shop: string) {
  const { action } = await import("../../app/routes/proxy.cart_updates");
  const body = JSON.stringify({
    user_session_id: randomUUID(),
    cart: readOwnCart(OWN_CARTS.cadWithPlan),
  });
  const request = appProxyRequest({ path: "cart_updates", shop, method: "POST", body });
  const answer = (await callRoute(action, request)) as Response;
  return {
    status: answer.status,
    body: (await answer.json()) as { actions?: unknown[]; source?: string },
  };
}

async function variantChecks(shop: string) {
  return (await storeGraphqlLog()).filter(
    (request) => request.shop === shop && request.operation_name === "ProductVariantOwner",
  );
}

/** The logged cause of a failed refresh for the shop: a warning or error with a real error. */
function refreshFailures(shop: string) {
  return logged.filter(
    (line) =>
      line.shop === shop &&
      line.level >= 40 &&
      typeof line.err?.message === "string" &&
      /refresh/i.test(line.msg),
  );
}

describe(`the app proxy while the offline token is due for a refresh (${provider})`, () => {
  it("answers plans and cart updates with 200 when Shopify's token endpoint fails, and logs the cause", async () => {
    const { shop, variantId } = await expiringShop();
    await expiresIn(shop, 120_000);
    await tokenEndpoint(shop, { status: 500, count: 100 });

    const plans = await getPlans(shop, variantId);
    expect(plans.status).toBe(200);
    expect(plans.body.plans?.length).toBeGreaterThan(0);
    // The token is still good for two minutes: the variant was checked with it.
    expect((await variantChecks(shop)).map((check) => check.status)).toEqual([200]);

    const cart = await postCart(shop);
    expect(cart.status).toBe(200);
    expect(cart.body.source).toBe("service");

    await expect.poll(() => refreshFailures(shop).length).toBeGreaterThan(0);
    const [failure] = refreshFailures(shop);
    // The cause as a real error: the library's, with Shopify's answer.
    expect(failure?.err).toMatchObject({ type: "HttpInternalError", response: { code: 500 } });
    expect(failure?.msg).toContain("Shopify answered 500");
    expect(failure?.route).toBe("proxy.plans");
    expect(JSON.stringify(logged)).not.toContain('"err":{}');
  });

  it("goes on without the variant check, and the cart with the service, once the token has run out and the refresh is throttled", async () => {
    const { shop, variantId } = await expiringShop();
    await expiresIn(shop, -1_000);
    await tokenEndpoint(shop, { status: 429, count: 100 });

    const plans = await getPlans(shop, variantId);
    expect(plans.status).toBe(200);
    expect(plans.body.plans?.length).toBeGreaterThan(0);
    expect(await variantChecks(shop)).toEqual([]);
    const cart = await postCart(shop);
    expect(cart).toMatchObject({ status: 200, body: { source: "service" } });

    const [failure] = refreshFailures(shop);
    expect(failure?.err).toMatchObject({ response: { code: 429 } });
    expect(failure?.msg).toContain("Shopify answered 429");
    // One refresh was tried; the next requests wait a while before trying again.
    await getPlans(shop, variantId);
    expect((await tokenEndpoint(shop)).refresh_requests).toBe(1);
  });

  it("answers while a slow refresh is under way, and the refresh lands afterwards", async () => {
    const { shop, variantId } = await expiringShop();
    const before = await offlineSession(shop);
    await expiresIn(shop, -1_000);
    await tokenEndpoint(shop, { delay_ms: 4_000 });

    const plans = await getPlans(shop, variantId);
    expect(plans.status).toBe(200);
    expect(plans.body.plans?.length).toBeGreaterThan(0);
    // Answered before Shopify did: the session still holds the old token.
    expect((await offlineSession(shop)).accessToken).toBe(before.accessToken);

    await expect
      .poll(async () => (await offlineSession(shop)).accessToken, { timeout: 10_000 })
      .not.toBe(before.accessToken);
    expect((await offlineSession(shop)).expires!.getTime()).toBeGreaterThan(
      Date.now() + HOUR_MS - 60_000,
    );
    expect((await tokenEndpoint(shop)).refresh_requests).toBe(1);
  });

  it("answers 200 for a shop without an offline session", async () => {
    const { shop, variantId } = await expiringShop();
    await app.prisma.session.deleteMany({ where: { shop } });

    const plans = await getPlans(shop, variantId);
    expect(plans.status).toBe(200);
    expect(plans.body.plans?.length).toBeGreaterThan(0);
    expect(await postCart(shop)).toMatchObject({ status: 200, body: { source: "service" } });
    expect(await variantChecks(shop)).toEqual([]);
  });

  it("answers 200 when the database fails under the session or the shop's connection, and logs the cause", async () => {
    const { shop, variantId } = await expiringShop();
    await expiresIn(shop, -1_000);
    const { sessionStorage } = await import("../../app/shopify.server");
    const databaseDown = () => new Error("Can't reach database server at 127.0.0.1:5432");
    const spies: { mockRestore(): void }[] = [
      vi.spyOn(sessionStorage, "loadSession").mockRejectedValue(databaseDown()),
    ];
    try {
      const plans = await getPlans(shop, variantId);
      expect(plans.status).toBe(200);
      expect(plans.body.plans?.length).toBeGreaterThan(0);
      expect(await postCart(shop)).toMatchObject({ status: 200 });
      await expect
        .poll(() =>
          logged.some(
            (line) =>
              line.shop === shop && line.err?.message?.includes("Can't reach database server"),
          ),
        )
        .toBe(true);

      spies.push(
        vi.spyOn(app.prisma.shopConnection, "findUnique").mockRejectedValue(databaseDown()),
      );
      const cart = await postCart(shop);
      expect(cart).toMatchObject({ status: 200, body: { source: "local" } });
      expect(cart.body.actions).toEqual(expect.any(Array));
      const noPlans = await getPlans(shop, variantId);
      expect(noPlans).toMatchObject({ status: 200, body: { plans: [] } });
      expect(JSON.stringify(logged)).not.toContain('"err":{}');
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("makes one refresh call for twenty concurrent requests near expiry", async () => {
    const { shop } = await expiringShop();
    await expiresIn(shop, 120_000);

    // Twenty visitors on twenty variants: each needs Shopify's variant check.
    const variants = Array.from({ length: 20 }, (_, index) => String(7_100_000_000 + index));
    const answers = await Promise.all(variants.map((variantId) => getPlans(shop, variantId)));
    expect(answers.map((answer) => answer.status)).toEqual(variants.map(() => 200));
    expect(answers.map((answer) => answer.body.unavailable)).toEqual(
      variants.map(() => "unknown_variant"),
    );
    await expect
      .poll(async () => (await offlineSession(shop)).expires!.getTime())
      .toBeGreaterThan(Date.now() + HOUR_MS - 60_000);
    expect((await tokenEndpoint(shop)).refresh_requests).toBe(1);
  });

  it("makes one refresh call for twenty concurrent requests once the token has run out, and each uses the new token", async () => {
    const { shop } = await expiringShop();
    const before = await offlineSession(shop);
    // The store's clock passes the hour too: Shopify refuses the old token.
    freezeStoreClock();
    advanceStoreClock(HOUR_MS);
    await expiresIn(shop, -1_000);

    const variants = Array.from({ length: 20 }, (_, index) => String(7_200_000_000 + index));
    const answers = await Promise.all(variants.map((variantId) => getPlans(shop, variantId)));
    expect(answers.map((answer) => answer.body.unavailable)).toEqual(
      variants.map(() => "unknown_variant"),
    );
    expect((await tokenEndpoint(shop)).refresh_requests).toBe(1);
    // Every variant check went to Shopify with a token it accepted: the refreshed one.
    expect((await variantChecks(shop)).map((check) => check.status)).toEqual(
      variants.map(() => 200),
    );
    expect((await offlineSession(shop)).accessToken).not.toBe(before.accessToken);
  });
});

describe(`one refresh per shop across processes (${provider})`, () => {
  it("makes one refresh call when two processes refresh at once: the second waits for the first's lease and uses its token", async () => {
    const { shop } = await expiringShop();
    await expiresIn(shop, -1_000);
    // Shopify takes a moment, so that both processes are waiting for it at once.
    await tokenEndpoint(shop, { delay_ms: 500 });
    const { createOfflineTokenRefresher } =
      await import("../../app/services/offline-session.server");
    const seen = await offlineSession(shop);
    const processes = [createOfflineTokenRefresher(), createOfflineTokenRefresher()];

    const results = await Promise.all(
      processes.flatMap((refresher) =>
        Array.from({ length: 10 }, () => refresher.refresh(shop, seen)),
      ),
    );
    expect((await tokenEndpoint(shop)).refresh_requests).toBe(1);
    const stored = await offlineSession(shop);
    expect(stored.accessToken).not.toBe(seen.accessToken);
    expect(
      results.map((result) => (result.status === "ready" ? result.session.accessToken : result)),
    ).toEqual(results.map(() => stored.accessToken));
    expect(await app.prisma.tokenRefreshLease.count({ where: { shop } })).toBe(0);
  });

  it("makes one refresh call for the background work's concurrent Admin API calls near expiry", async () => {
    const { shop } = await expiringShop();
    await expiresIn(shop, 120_000);
    const { offlineAdminFor } = await import("../../app/workers.server");

    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const graphql = await offlineAdminFor(shop);
        if (!graphql) throw new Error(`${shop} has no offline session`);
        const answer = await graphql("query ShopName { shop { name } }");
        return answer.status;
      }),
    );
    expect(statuses).toEqual(statuses.map(() => 200));
    expect((await tokenEndpoint(shop)).refresh_requests).toBe(1);
  });

  it("goes on with a still valid token while another process holds the lease, and takes over a lease whose holder died", async () => {
    const { shop } = await expiringShop();
    await expiresIn(shop, 120_000);
    const { acquireTokenRefreshLease } = await import("../../app/models/TokenRefreshLease.server");
    const { createOfflineTokenRefresher } =
      await import("../../app/services/offline-session.server");
    const seen = await offlineSession(shop);
    expect(await acquireTokenRefreshLease(app.prisma, shop, "other", new Date(), 60_000)).toBe(
      true,
    );

    const meanwhile = await createOfflineTokenRefresher().refresh(shop, seen);
    expect(meanwhile).toMatchObject({
      status: "ready",
      session: { accessToken: seen.accessToken },
    });
    expect((await tokenEndpoint(shop)).refresh_requests).toBe(0);

    // The holder died an hour ago: its lease has expired, and the next refresh takes it over.
    await app.prisma.tokenRefreshLease.update({
      where: { shop },
      data: { expiresAt: new Date(Date.now() - HOUR_MS) },
    });
    const refreshed = await createOfflineTokenRefresher().refresh(shop, seen);
    expect(refreshed.status).toBe("ready");
    expect((await tokenEndpoint(shop)).refresh_requests).toBe(1);
    expect((await offlineSession(shop)).accessToken).not.toBe(seen.accessToken);
    expect(await app.prisma.tokenRefreshLease.count({ where: { shop } })).toBe(0);
  });
});
