import "@shopify/shopify-api/adapters/node";
import {
  HttpResponseError,
  RequestedTokenType,
  type Session,
  type Shopify,
} from "@shopify/shopify-api";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localStoreFetch } from "../../app/lib/local-store-fetch";
import { INVALID_TOKEN_ANSWER } from "./admin-api-routes";
import {
  EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS,
  ID_TOKEN_TYPE,
  OFFLINE_TOKEN_TYPE,
  REFRESH_TOKEN_GRANT,
  REFRESH_TOKEN_LIFETIME_SECONDS,
  TOKEN_EXCHANGE_GRANT,
} from "./oauth";
import {
  API_KEY,
  API_SECRET,
  SCOPES,
  SHOP,
  startFakeApp,
  withTestStore,
  type FakeApp,
} from "./test-support";
import { shopifyApiFor } from "./shopify-api-support";

// Expiring offline tokens as Shopify issues them (decision 023): an hour's access token with a
// 90-day refresh token, asked for with expiring=1 in token exchange or the code grant; the
// refresh grant; the migration of a non-expiring token; and the Admin API's 401 once one ran out.

const client = withTestStore();
const SHOP_NAME = SHOP.replace(".myshopify.com", "");
const HOUR_MS = EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS * 1000;
let app: FakeApp;
let shopify: Shopify;

interface TokenAnswer {
  access_token?: string;
  scope?: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  error?: string;
  error_description?: string;
}

beforeAll(async () => {
  app = await startFakeApp();
  shopify = shopifyApiFor(app.url);
  setAbstractFetchFunc(localStoreFetch(client.store.url));
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  await client.createShop(app.url);
  client.store.state.install(SHOP, SCOPES);
});

const tokenRequest = (body: Record<string, string>) =>
  client.request<TokenAnswer>(`/shops/${SHOP}/admin/oauth/access_token`, {
    body: { client_id: API_KEY, client_secret: API_SECRET, ...body },
  });

const refreshRaw = (refreshToken: string) =>
  tokenRequest({ grant_type: REFRESH_TOKEN_GRANT, refresh_token: refreshToken });

const migrateRaw = (token: string, expiring = "1") =>
  tokenRequest({
    grant_type: TOKEN_EXCHANGE_GRANT,
    subject_token: token,
    subject_token_type: OFFLINE_TOKEN_TYPE,
    requested_token_type: OFFLINE_TOKEN_TYPE,
    expiring,
  });

async function graphqlStatus(token: string): Promise<number> {
  const answer = await client.request(`/shops/${SHOP}/admin/api/2026-10/graphql.json`, {
    body: { query: "query ShopName { shop { name } }" },
    headers: { "X-Shopify-Access-Token": token },
  });
  if (answer.status === 401) expect(answer.body).toEqual(INVALID_TOKEN_ANSWER);
  return answer.status;
}

function currentToken(): string {
  return client.store.state.shop(SHOP)?.installation?.offlineAccessToken ?? "";
}

async function exchangeExpiring(): Promise<Session> {
  const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET);
  const { session } = await shopify.auth.tokenExchange({
    shop: SHOP,
    sessionToken: token,
    requestedTokenType: RequestedTokenType.OfflineAccessToken,
    expiring: true,
  });
  return session;
}

/** The failure of a library call, as Shopify's status and error body. */
async function failureOf(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpResponseError);
  const { code, body } = (error as HttpResponseError).response;
  return { code, body };
}

describe("expiring offline tokens from token exchange and the code grant", () => {
  it("answers expiring=1 with an hour's token and a 90-day refresh token, which replace the non-expiring one", async () => {
    const nonExpiring = currentToken();
    const before = Date.now();
    const session = await exchangeExpiring();

    expect(session.accessToken).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(session.accessToken).toBe(currentToken());
    expect(session.refreshToken).toMatch(/^shprt_[0-9a-f]{32}$/);
    expect(session.expires!.getTime() - before).toBeGreaterThanOrEqual(HOUR_MS - 1_000);
    expect(session.expires!.getTime() - Date.now()).toBeLessThanOrEqual(HOUR_MS);
    expect(session.refreshTokenExpires!.getTime() - before).toBeGreaterThan(89 * 86_400_000);
    expect(client.store.state.shop(SHOP)?.installation?.offlineAccessTokenExpiresAt).toEqual(
      expect.any(String),
    );
    expect(await graphqlStatus(session.accessToken!)).toBe(200);
    expect(await graphqlStatus(nonExpiring)).toBe(401);

    // Without expiring=1 the app gets a non-expiring token again, and the pair is replaced.
    const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET);
    const answer = await tokenRequest({
      grant_type: TOKEN_EXCHANGE_GRANT,
      subject_token: token,
      subject_token_type: ID_TOKEN_TYPE,
      requested_token_type: OFFLINE_TOKEN_TYPE,
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(["access_token", "scope"]);
    expect(answer.body.access_token).toBe(currentToken());
    expect(client.store.state.shop(SHOP)?.installation?.offlineAccessTokenExpiresAt).toBeNull();
    expect((await refreshRaw(session.refreshToken!)).status).toBe(400);
  });

  it("answers the code grant with expiring=1 in the same shape, and with a non-expiring token without it", async () => {
    async function codeGrant(expiring: string | undefined) {
      const authorize = await client.request(
        `/shops/${SHOP}/admin/oauth/authorize?client_id=${API_KEY}&scope=${SCOPES.join(",")}` +
          `&redirect_uri=${encodeURIComponent(`${app.url}/auth/callback`)}&state=s1`,
      );
      expect(authorize.status).toBe(302);
      const code = new URL(authorize.headers.get("location") ?? "").searchParams.get("code")!;
      return tokenRequest({ code, ...(expiring === undefined ? {} : { expiring }) });
    }

    const expiring = await codeGrant("1");
    expect(expiring).toMatchObject({
      status: 200,
      body: {
        access_token: currentToken(),
        scope: SCOPES.join(","),
        expires_in: EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS,
        refresh_token: expect.stringMatching(/^shprt_/),
        refresh_token_expires_in: REFRESH_TOKEN_LIFETIME_SECONDS,
      },
    });
    expect(REFRESH_TOKEN_LIFETIME_SECONDS).toBe(7_776_000);

    const plain = await codeGrant("0");
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body).sort()).toEqual(["access_token", "scope"]);
    expect(await graphqlStatus(plain.body.access_token!)).toBe(200);
  });
});

describe("the refresh token grant", () => {
  it("trades a refresh token for a new pair, as the library asks; the old access token lives out its hour", async () => {
    const first = await exchangeExpiring();
    client.clockOffsetMs = HOUR_MS - 60_000;

    const { session: second } = await shopify.auth.refreshToken({
      shop: SHOP,
      refreshToken: first.refreshToken!,
    });
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).toBe(currentToken());
    expect(second.expires!.getTime() - Date.now()).toBeGreaterThan(HOUR_MS - 5_000);
    expect(await graphqlStatus(second.accessToken!)).toBe(200);
    expect(await graphqlStatus(first.accessToken!)).toBe(200);

    client.clockOffsetMs = HOUR_MS;
    expect(await graphqlStatus(first.accessToken!)).toBe(401);
    expect(await graphqlStatus(second.accessToken!)).toBe(200);
  });

  it("lets a used refresh token be tried again until its replacement is used, then refuses it", async () => {
    const first = await exchangeExpiring();
    const lost = await refreshRaw(first.refreshToken!);
    expect(lost.status).toBe(200);

    // The answer was lost: the same token again gives a working pair.
    const retried = await refreshRaw(first.refreshToken!);
    expect(retried.status).toBe(200);
    expect(retried.body.refresh_token).not.toBe(lost.body.refresh_token);
    expect(await graphqlStatus(retried.body.access_token!)).toBe(200);

    // The app uses the replacement: the first token is retired.
    expect((await refreshRaw(retried.body.refresh_token!)).status).toBe(200);
    expect(await refreshRaw(first.refreshToken!)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: expect.any(String) },
    });
  });

  it("refuses an unknown, an expired and a revoked refresh token with invalid_grant", async () => {
    expect(
      await failureOf(shopify.auth.refreshToken({ shop: SHOP, refreshToken: "shprt_unknown" })),
    ).toEqual({
      code: 400,
      body: { error: "invalid_grant", error_description: expect.stringContaining("invalid") },
    });
    expect(await tokenRequest({ grant_type: REFRESH_TOKEN_GRANT })).toMatchObject({
      status: 400,
      body: { error: "invalid_request" },
    });

    const session = await exchangeExpiring();
    client.clockOffsetMs = REFRESH_TOKEN_LIFETIME_SECONDS * 1000;
    expect(await refreshRaw(session.refreshToken!)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The refresh token has expired." },
    });

    client.clockOffsetMs = 0;
    const live = await exchangeExpiring();
    client.store.state.uninstall(SHOP);
    client.store.state.install(SHOP, SCOPES);
    expect(await refreshRaw(live.refreshToken!)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    expect(
      await tokenRequest({
        grant_type: REFRESH_TOKEN_GRANT,
        refresh_token: live.refreshToken!,
        client_secret: "wrong",
      }),
    ).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });
});

describe("the token endpoint's faults (control API)", () => {
  it("counts refresh grants, and answers the next ones slowly or with an error while a fault lasts", async () => {
    const first = await exchangeExpiring();
    const endpoint = () => client.control<Record<string, unknown>>(`shops/${SHOP}/token_endpoint`);
    expect((await endpoint()).body).toEqual({ shop: SHOP, refresh_requests: 0, fault: null });

    const set = await client.control(`shops/${SHOP}/token_endpoint`, { status: 429, count: 2 });
    expect(set.body).toMatchObject({ fault: { status: 429, delay_ms: 0, remaining: 2 } });
    const throttled = await refreshRaw(first.refreshToken!);
    expect(throttled).toMatchObject({ status: 429, body: { errors: "Too many requests" } });
    expect(throttled.headers.get("retry-after")).toBe("1");
    expect(await failureOf(shopify.auth.refreshToken({ shop: SHOP, refreshToken: "x" }))).toEqual({
      code: 429,
      body: { errors: "Too many requests" },
    });

    await client.control(`shops/${SHOP}/token_endpoint`, { status: 500 });
    expect(await refreshRaw(first.refreshToken!)).toMatchObject({ status: 500 });

    // A slow answer is still a pair; the refresh token was not used by the failures.
    await client.control(`shops/${SHOP}/token_endpoint`, { delay_ms: 300 });
    const started = Date.now();
    const slow = await refreshRaw(first.refreshToken!);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(slow.status).toBe(200);
    expect(slow.body.access_token).toBe(currentToken());
    expect((await endpoint()).body).toEqual({ shop: SHOP, refresh_requests: 4, fault: null });

    expect((await client.control(`shops/${SHOP}/token_endpoint`, { status: 404 })).status).toBe(
      400,
    );
    await client.reset();
    await client.createShop(app.url);
    expect((await endpoint()).body).toMatchObject({ refresh_requests: 0 });
  });
});

describe("migrating a non-expiring offline token", () => {
  it("exchanges it for an expiring pair, as the library asks; the old token stops working", async () => {
    const nonExpiring = currentToken();
    const { session } = await shopify.auth.migrateToExpiringToken({
      shop: SHOP,
      nonExpiringOfflineAccessToken: nonExpiring,
    });
    expect(session.accessToken).toBe(currentToken());
    expect(session.refreshToken).toMatch(/^shprt_/);
    expect(session.expires).toBeInstanceOf(Date);
    expect(await graphqlStatus(session.accessToken!)).toBe(200);
    expect(await graphqlStatus(nonExpiring)).toBe(401);
  });

  it("answers the same pair to the same exchange for 7 days, until the pair is refreshed", async () => {
    const nonExpiring = currentToken();
    const first = await migrateRaw(nonExpiring);
    expect(first.status).toBe(200);

    client.clockOffsetMs = HOUR_MS * 2;
    const again = await migrateRaw(nonExpiring);
    expect(again.body).toMatchObject({
      access_token: first.body.access_token,
      refresh_token: first.body.refresh_token,
      expires_in: EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS,
    });
    // The access token's life is renewed, the refresh token's is not.
    expect(again.body.refresh_token_expires_in).toBeLessThan(REFRESH_TOKEN_LIFETIME_SECONDS);
    expect(await graphqlStatus(first.body.access_token!)).toBe(200);

    expect((await refreshRaw(first.body.refresh_token!)).status).toBe(200);
    expect(await migrateRaw(nonExpiring)).toMatchObject({
      status: 400,
      body: { error: "invalid_subject_token" },
    });
  });

  it("refuses an unknown token, a retry after 7 days, and an exchange without expiring=1", async () => {
    const nonExpiring = currentToken();
    expect(await migrateRaw(nonExpiring, "0")).toMatchObject({
      status: 400,
      body: { error: "invalid_request" },
    });
    expect(await graphqlStatus(nonExpiring)).toBe(200);
    expect(await migrateRaw("shpat_00000000000000000000000000000000")).toMatchObject({
      status: 400,
      body: { error: "invalid_subject_token" },
    });

    expect((await migrateRaw(nonExpiring)).status).toBe(200);
    client.clockOffsetMs = 7 * 86_400_000 + 1_000;
    expect((await migrateRaw(nonExpiring)).status).toBe(400);
  });
});

describe("expiring tokens on the Admin API", () => {
  it("answers 401 as Shopify once the store's clock passes the token's expiry", async () => {
    const session = await exchangeExpiring();
    client.clockOffsetMs = HOUR_MS - 1_000;
    expect(await graphqlStatus(session.accessToken!)).toBe(200);
    client.clockOffsetMs = HOUR_MS;
    expect(await graphqlStatus(session.accessToken!)).toBe(401);
    const logged = (
      await client.control<{ requests: { token: string | null; status: number }[] }>("graphql")
    ).body.requests;
    expect(logged.at(-1)).toMatchObject({ token: null, status: 401 });
  });
});
