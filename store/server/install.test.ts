import "@shopify/shopify-api/adapters/node";
import { RequestedTokenType, type Session, type Shopify } from "@shopify/shopify-api";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { isbot } from "isbot";
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localStoreFetch } from "../../app/lib/local-store-fetch";
import { loadAppConfig } from "./app-config";
import {
  SHOP,
  startFakeApp,
  withTestStore,
  type FakeApp,
  type ReceivedRequest,
} from "./test-support";
import { shopifyApiFor } from "./shopify-api-support";

/*
 * A managed install against a tiny app that does what our Remix app's embedded auth does: check
 * the session token the admin passes, then trade it at the store's token exchange, with
 * @shopify/shopify-api, its calls to https://{shop}/admin/... rewritten by localStoreFetch.
 */

const client = withTestStore();
const tomlScopes = loadAppConfig().scopes;
let app: FakeApp;
let shopify: Shopify;
const sessions = new Map<string, Session>();

async function serveEmbeddedApp(request: ReceivedRequest, response: ServerResponse): Promise<void> {
  const url = new URL(request.url, app.url);
  if (url.pathname === "/webhooks/app/uninstalled") {
    sessions.delete(String(request.headers["x-shopify-shop-domain"]));
    response.writeHead(200).end();
    return;
  }
  if (url.pathname !== "/app") {
    response.writeHead(404).end();
    return;
  }
  // As @shopify/shopify-app-remix does: bots get 410, and a held session is used as it is.
  if (isbot(request.headers["user-agent"])) {
    response.writeHead(410).end();
    return;
  }
  const shop = shopify.utils.sanitizeShop(url.searchParams.get("shop") ?? "");
  const host = shopify.utils.sanitizeHost(url.searchParams.get("host") ?? "");
  const idToken = url.searchParams.get("id_token") ?? "";
  if (url.searchParams.get("embedded") !== "1" || !shop || !host) {
    response.writeHead(400).end("bad embedded parameters");
    return;
  }
  if (sessions.has(shop)) {
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>App home</p>");
    return;
  }
  const payload = await shopify.session.decodeSessionToken(idToken);
  if (new URL(payload.dest).hostname !== shop) {
    response.writeHead(400).end("session token for another shop");
    return;
  }
  const { session } = await shopify.auth.tokenExchange({
    shop,
    sessionToken: idToken,
    requestedTokenType: RequestedTokenType.OfflineAccessToken,
  });
  sessions.set(shop, session);
  response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>App home</p>");
}

beforeAll(async () => {
  app = await startFakeApp();
  shopify = shopifyApiFor(app.url, { scopes: tomlScopes });
  setAbstractFetchFunc(localStoreFetch(client.store.url));
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  sessions.clear();
  app.received.length = 0;
  app.handle = serveEmbeddedApp;
  await client.createShop(app.url);
});

const install = (shop = SHOP) =>
  client.control<Record<string, unknown>>(`shops/${shop}/install`, {});

describe("POST /__store/shops/:shop/install", () => {
  it("grants the toml's scopes, loads the app with a session token, and returns once the app holds the offline token", async () => {
    const answer = await install();

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ shop: SHOP, installed: true, offline_session: true });
    const installation = client.store.state.shop(SHOP)?.installation;
    expect(installation?.scopes).toEqual(tomlScopes);
    expect(sessions.get(SHOP)?.accessToken).toBe(installation?.offlineAccessToken);
    expect(sessions.get(SHOP)?.scope).toBe(tomlScopes.join(","));

    const [page] = app.received;
    const pageUrl = new URL(page?.url ?? "", app.url);
    expect(pageUrl.pathname).toBe("/app");
    expect(atob(pageUrl.searchParams.get("host") ?? "")).toBe(
      `admin.shopify.com/store/${SHOP.replace(".myshopify.com", "")}`,
    );

    // The app's token opens the Admin API, through the same rewritten fetch.
    const session = sessions.get(SHOP);
    if (!session) throw new Error("The app holds no session");
    const graphql = new shopify.clients.Graphql({ session });
    const shopName = await graphql.request<{ shop: { myshopifyDomain: string } }>(
      "query ShopDomain { shop { myshopifyDomain } }",
    );
    expect(shopName.data?.shop.myshopifyDomain).toBe(SHOP);
  });

  it("keeps the installation and its token when installed again", async () => {
    expect((await install()).status).toBe(200);
    const firstToken = client.store.state.shop(SHOP)?.installation?.offlineAccessToken;
    sessions.clear();

    expect((await install()).status).toBe(200);
    expect(sessions.get(SHOP)?.accessToken).toBe(firstToken);
  });

  it("reports an app that still holds a session from an earlier store run, and recovers after uninstall", async () => {
    expect((await install()).status).toBe(200);
    await client.reset();
    await client.createShop(app.url);

    const stale = await install();
    expect(stale.status).toBe(502);
    expect(stale.body).toMatchObject({ error: "install_failed", app_status: 200 });
    expect(String(stale.body.message)).toContain(
      "never exchanged its session token for an offline access token",
    );
    expect(String(stale.body.message)).toContain(`POST /__store/shops/${SHOP}/uninstall`);

    expect((await client.control(`shops/${SHOP}/uninstall`, {})).status).toBe(200);
    expect((await client.control("webhooks/idle?timeout_ms=5000")).status).toBe(200);
    expect(sessions.has(SHOP)).toBe(false);
    expect((await install()).status).toBe(200);
    expect(sessions.get(SHOP)?.accessToken).toBe(
      client.store.state.shop(SHOP)?.installation?.offlineAccessToken,
    );
  });

  it("fails with 502 naming the app's answer when the app page does not load", async () => {
    app.handle = (_request, response) => {
      response.writeHead(500).end("boom");
    };

    const answer = await install();

    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ error: "install_failed", app_status: 500 });
    expect(String(answer.body.message)).toContain("the app answered 500 to GET");
    expect(String(answer.body.message)).not.toContain("id_token=ey");
  });

  it("fails with 502 when the app loads but never exchanges the session token", async () => {
    app.handle = (_request, response) => {
      response.writeHead(200).end("already has a session");
    };

    const answer = await install();

    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ error: "install_failed", app_status: 200 });
    expect(String(answer.body.message)).toContain(
      "never exchanged its session token for an offline access token",
    );
  });

  it("fails with 502 when the app cannot be reached, and 404 for an unknown shop", async () => {
    const gone = await startFakeApp();
    await gone.close();
    await client.reset();
    await client.createShop(gone.url);

    const answer = await install();

    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ error: "install_failed", app_status: null });
    expect((await install("nowhere.myshopify.com")).status).toBe(404);
  });
});
