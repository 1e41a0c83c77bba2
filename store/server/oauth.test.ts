import "@shopify/shopify-api/adapters/node";
import {
  HttpResponseError,
  RequestedTokenType,
  type Session,
  type Shopify,
} from "@shopify/shopify-api";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { getJwt, USER_ID } from "@shopify/shopify-api/test-helpers";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localStoreFetch, localStoreUrl } from "../../app/lib/local-store-fetch";
import { INVALID_TOKEN_ANSWER } from "./admin-api-routes";
import {
  ID_TOKEN_TYPE,
  OFFLINE_TOKEN_TYPE,
  ONLINE_TOKEN_TYPE,
  TOKEN_EXCHANGE_GRANT,
} from "./oauth";
import {
  API_KEY,
  API_SECRET,
  BROWSER_USER_AGENT,
  SCOPES,
  SHOP,
  startFakeApp,
  withTestStore,
  type FakeApp,
  type ReceivedRequest,
} from "./test-support";
import { shopifyApiFor } from "./shopify-api-support";

const client = withTestStore();
const SHOP_NAME = SHOP.replace(".myshopify.com", "");
let app: FakeApp;
let shopify: Shopify;

function apiFor(appUrl: string, secret = API_SECRET): Shopify {
  return shopifyApiFor(appUrl, { embedded: false, secret });
}

/** The app's side of the code grant, with the library's own begin and callback. */
async function serveCodeGrant(
  request: ReceivedRequest,
  response: ServerResponse,
  raw: IncomingMessage,
): Promise<void> {
  const url = new URL(request.url, app.url);
  if (url.pathname === "/auth") {
    await shopify.auth.begin({
      shop: url.searchParams.get("shop") ?? "",
      callbackPath: "/auth/callback",
      isOnline: url.searchParams.get("online") === "1",
      rawRequest: raw,
      rawResponse: response,
    });
    return;
  }
  if (url.pathname === "/auth/callback") {
    const { session } = await shopify.auth.callback({ rawRequest: raw, rawResponse: response });
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        accessToken: session.accessToken,
        scope: session.scope,
        isOnline: session.isOnline,
        userId: session.onlineAccessInfo?.associated_user.id ?? null,
      }),
    );
    return;
  }
  response.writeHead(404).end();
}

beforeAll(async () => {
  app = await startFakeApp(serveCodeGrant);
  shopify = apiFor(app.url);
  // The library's calls to https://{shop}/admin/... reach the local store, as in the app.
  setAbstractFetchFunc(localStoreFetch(client.store.url));
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  await client.createShop(app.url);
});

function offlineToken(): string | undefined {
  return client.store.state.shop(SHOP)?.installation?.offlineAccessToken;
}

async function browserGet(url: string, cookies: string[] = []): Promise<Response> {
  return fetch(url, {
    redirect: "manual",
    headers: { "user-agent": BROWSER_USER_AGENT, cookie: cookies.join("; ") },
  });
}

/** Begin → the store's authorize page → the app's callback, as the merchant's browser goes. */
async function runCodeGrant(online: boolean) {
  const begin = await browserGet(`${app.url}/auth?shop=${SHOP}${online ? "&online=1" : ""}`);
  expect(begin.status).toBe(302);
  const cookies = begin.headers.getSetCookie().map((cookie) => cookie.split(";", 1)[0] ?? "");
  const authorizeUrl = begin.headers.get("location") ?? "";
  expect(authorizeUrl).toMatch(new RegExp(`^https://${SHOP}/admin/oauth/authorize\\?`));

  const authorize = await browserGet(localStoreUrl(authorizeUrl, client.store.url) ?? "");
  expect(authorize.status).toBe(302);
  const callbackUrl = new URL(authorize.headers.get("location") ?? "");
  const callback = await browserGet(callbackUrl.href, cookies);
  return { callbackUrl, callback, body: (await callback.json()) as Record<string, unknown> };
}

describe("OAuth authorization code grant", () => {
  it("installs the app and hands the callback a signed code the library exchanges for the offline token", async () => {
    const { callbackUrl, callback, body } = await runCodeGrant(false);

    expect(callbackUrl.origin + callbackUrl.pathname).toBe(`${app.url}/auth/callback`);
    expect([...callbackUrl.searchParams.keys()].sort()).toEqual([
      "code",
      "hmac",
      "host",
      "shop",
      "state",
      "timestamp",
    ]);
    const query = Object.fromEntries(callbackUrl.searchParams);
    expect(await shopify.utils.validateHmac(query)).toBe(true);
    expect(await apiFor(app.url, "another-secret").utils.validateHmac(query)).toBe(false);
    expect(atob(query.host ?? "")).toBe(`admin.shopify.com/store/${SHOP_NAME}`);

    expect(callback.status).toBe(200);
    expect(offlineToken()).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(body).toEqual({
      accessToken: offlineToken(),
      // The library asks for the scopes it needs, each write scope standing for its read scope.
      scope: "write_orders,write_products",
      isOnline: false,
      userId: null,
    });
  });

  it("answers a per-user grant with an online token for the shop's owner", async () => {
    const { body } = await runCodeGrant(true);

    expect(body.isOnline).toBe(true);
    expect(body.accessToken).toMatch(/^shpua_[0-9a-f]{32}$/);
    expect(body.accessToken).not.toBe(offlineToken());
    expect(body.userId).toBe(70043922137);
  });

  it("accepts a code once, within a minute", async () => {
    const location = await authorizeDirectly();
    const code = location.searchParams.get("code") ?? "";
    const exchange = () =>
      client.request(`/shops/${SHOP}/admin/oauth/access_token`, {
        body: { client_id: API_KEY, client_secret: API_SECRET, code },
      });

    expect((await exchange()).body).toEqual({
      access_token: offlineToken(),
      scope: SCOPES.join(","),
    });
    expect(await exchange()).toMatchObject({
      status: 400,
      body: {
        error: "invalid_request",
        error_description: "The authorization code was not found or was already used",
      },
    });

    const late = (await authorizeDirectly()).searchParams.get("code") ?? "";
    client.clockOffsetMs = 61_000;
    const expired = await client.request(`/shops/${SHOP}/admin/oauth/access_token`, {
      rawBody: new URLSearchParams({
        client_id: API_KEY,
        client_secret: API_SECRET,
        code: late,
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(expired).toMatchObject({
      status: 400,
      body: { error: "invalid_request", error_description: "The authorization code has expired" },
    });
  });

  it("refuses an unknown app, a foreign redirect_uri and a wrong client secret", async () => {
    const authorize = (query: Record<string, string>) =>
      client.request(
        `/shops/${SHOP}/admin/oauth/authorize?${new URLSearchParams(query).toString()}`,
      );
    const good = {
      client_id: API_KEY,
      scope: "read_orders",
      redirect_uri: `${app.url}/auth/callback`,
      state: "n1",
    };

    const unknownApp = await authorize({ ...good, client_id: "someone-else" });
    expect(unknownApp.status).toBe(400);
    expect(unknownApp.text).toContain("client_id");
    const foreign = await authorize({ ...good, redirect_uri: "https://evil.example/callback" });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain("redirect_uri");
    expect(offlineToken()).toBeUndefined();
    expect(
      (await client.request(`/shops/nowhere.myshopify.com/admin/oauth/authorize`)).status,
    ).toBe(404);

    const code = (await authorizeDirectly()).searchParams.get("code") ?? "";
    const wrongSecret = await client.request(`/shops/${SHOP}/admin/oauth/access_token`, {
      body: { client_id: API_KEY, client_secret: "guessed", code },
    });
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });
});

async function authorizeDirectly(): Promise<URL> {
  const query = new URLSearchParams({
    client_id: API_KEY,
    scope: SCOPES.join(","),
    redirect_uri: `${app.url}/auth/callback`,
    state: "nonce-1",
  });
  const answer = await client.request(`/shops/${SHOP}/admin/oauth/authorize?${query.toString()}`);
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get("location") ?? "");
}

describe("token exchange", () => {
  const exchangeRaw = (subjectToken: string, requestedTokenType = OFFLINE_TOKEN_TYPE) =>
    client.request<{ error?: string; error_description?: string }>(
      `/shops/${SHOP}/admin/oauth/access_token`,
      {
        body: {
          client_id: API_KEY,
          client_secret: API_SECRET,
          grant_type: TOKEN_EXCHANGE_GRANT,
          subject_token: subjectToken,
          subject_token_type: ID_TOKEN_TYPE,
          requested_token_type: requestedTokenType,
        },
      },
    );
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it("trades a session token for the offline token of an installed shop, as the library asks", async () => {
    client.store.state.install(SHOP, SCOPES);
    const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET);

    const { session } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: token,
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
    });

    expect(session.accessToken).toBe(offlineToken());
    expect(session.isOnline).toBe(false);
    expect(session.scope).toBe(SCOPES.join(","));
  });

  it("issues an online token for the session token's user", async () => {
    client.store.state.install(SHOP, SCOPES);
    const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET);

    const { session }: { session: Session } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: token,
      requestedTokenType: RequestedTokenType.OnlineAccessToken,
    });

    expect(session.isOnline).toBe(true);
    expect(session.accessToken).toMatch(/^shpua_/);
    expect(session.onlineAccessInfo?.associated_user.id).toBe(USER_ID);
    expect(session.onlineAccessInfo?.associated_user_scope).toBe(SCOPES.join(","));
    expect(session.expires?.getTime()).toBeGreaterThan(Date.now() + 86_000_000);
  });

  it("refuses a session token before the shop has installed the app, as invalid_subject_token", async () => {
    const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET);

    const failure = await shopify.auth
      .tokenExchange({
        shop: SHOP,
        sessionToken: token,
        requestedTokenType: RequestedTokenType.OfflineAccessToken,
      })
      .catch((error: unknown) => error);

    // What @shopify/shopify-app-remix checks before it asks App Bridge for a new session token.
    expect(failure).toBeInstanceOf(HttpResponseError);
    const { response } = failure as HttpResponseError;
    expect(response.code).toBe(400);
    expect(response.body).toEqual({
      error: "invalid_subject_token",
      error_description: `The app is not installed on ${SHOP}.`,
    });
  });

  it.each([
    [
      "signed with another secret",
      () => getJwt(SHOP_NAME, API_KEY, "not-the-app-secret"),
      "has a signature that does not match the app's secret",
    ],
    [
      "expired beyond the 10 s leeway",
      () => getJwt(SHOP_NAME, API_KEY, API_SECRET, { exp: nowSeconds() - 15 }),
      "has expired",
    ],
    [
      "not valid before a later time",
      () => getJwt(SHOP_NAME, API_KEY, API_SECRET, { nbf: nowSeconds() + 60 }),
      "is not valid yet (nbf)",
    ],
    [
      "for another app",
      () => getJwt(SHOP_NAME, "another-api-key", API_SECRET),
      "was issued for another app (aud)",
    ],
    [
      "for another shop",
      () => getJwt("another-shop", API_KEY, API_SECRET),
      `was issued for another shop (dest is not https://${SHOP})`,
    ],
  ])("refuses a session token %s", async (_case, makeToken, reason) => {
    client.store.state.install(SHOP, SCOPES);
    const { token } = await makeToken();

    const answer = await exchangeRaw(token);

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: "invalid_subject_token",
      error_description: `The session token ${reason}.`,
    });
  });

  it("accepts a token that expired within the leeway, and refuses an unknown token type", async () => {
    client.store.state.install(SHOP, SCOPES);
    const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET, { exp: nowSeconds() - 5 });

    expect((await exchangeRaw(token)).status).toBe(200);
    expect(await exchangeRaw(token, "urn:shopify:params:oauth:token-type:forever")).toMatchObject({
      status: 400,
      body: { error: "invalid_request" },
    });
    expect((await exchangeRaw(token, ONLINE_TOKEN_TYPE)).status).toBe(200);
  });
});

describe("Admin API access tokens", () => {
  const graphql = (token?: string, shop = SHOP) =>
    client.request(`/shops/${shop}/admin/api/2026-10/graphql.json`, {
      body: { query: "query ShopName { shop { name } }" },
      headers: token === undefined ? {} : { "X-Shopify-Access-Token": token },
    });

  it("answers 401 as Shopify without a token, with a wrong one, and with a revoked one", async () => {
    client.store.state.install(SHOP, SCOPES);
    const token = offlineToken() ?? "";

    expect(await graphql()).toMatchObject({ status: 401, body: INVALID_TOKEN_ANSWER });
    expect(await graphql("shpat_00000000000000000000000000000000")).toMatchObject({
      status: 401,
      body: INVALID_TOKEN_ANSWER,
    });
    expect((await graphql(token)).status).toBe(200);
    expect((await graphql(token, "nowhere.myshopify.com")).status).toBe(404);

    client.store.state.uninstall(SHOP);
    expect(await graphql(token)).toMatchObject({ status: 401, body: INVALID_TOKEN_ANSWER });
  });

  it("accepts a live online token, and no longer once the app is uninstalled", async () => {
    client.store.state.install(SHOP, SCOPES);
    const { token: sessionToken } = await getJwt(SHOP_NAME, API_KEY, API_SECRET);
    const { session } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken,
      requestedTokenType: RequestedTokenType.OnlineAccessToken,
    });

    const answer = await graphql(session.accessToken);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: { shop: { name: expect.any(String) } } });
    const logged = (
      await client.control<{ requests: { token: string; operation_name: string }[] }>("graphql")
    ).body.requests;
    expect(logged.at(-1)).toMatchObject({ token: "online", operation_name: "ShopName" });

    client.clockOffsetMs = 86_400_000;
    expect((await graphql(session.accessToken)).status).toBe(401);
    client.clockOffsetMs = 0;
    client.store.state.uninstall(SHOP);
    expect((await graphql(session.accessToken)).status).toBe(401);
  });
});
