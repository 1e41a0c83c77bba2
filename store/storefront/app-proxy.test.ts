import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { shopifyApiFor } from "../server/shopify-api-support";
import { startFakeApp, type FakeApp } from "../server/test-support";
import { appProxySignature, proxyTarget, registerAppProxy, signedProxyQuery } from "./app-proxy";
import { testShop } from "./test-shop.test-support";

const SECRET = "shpss_app_proxy_test_secret";

describe("The app proxy's signature", () => {
  // The app's proxy routes check it with authenticate.public.appProxy, which asks the Shopify
  // library's validateHmac with the appProxy signator: the same check runs here.
  const library = shopifyApiFor("https://svc-protection.test", { secret: SECRET });
  const storefrontQuery = new URLSearchParams([
    ["variant_id", "9007199254740993"],
    ["tag", "a"],
    ["tag", "b"],
    ["signature", "forged-by-the-buyer"],
    ["shop", "other.myshopify.com"],
  ]);
  const sign = () =>
    signedProxyQuery(storefrontQuery, {
      shop: "demo.myshopify.com",
      pathPrefix: "/apps/svc",
      secret: SECRET,
      now: new Date(),
    });

  it("verifies with the app's verifier, with Shopify's parameters set over the buyer's", async () => {
    const query = sign();
    expect(await library.utils.validateHmac(query, { signator: "appProxy" })).toBe(true);
    expect(query.get("shop")).toBe("demo.myshopify.com");
    expect(query.get("logged_in_customer_id")).toBe("");
    expect(query.get("path_prefix")).toBe("/apps/svc");
    expect(query.getAll("tag")).toEqual(["a", "b"]);
    expect(query.getAll("signature")).toHaveLength(1);
  });

  it("fails the app's verifier when the query is changed or another secret signed it", async () => {
    const tampered = sign();
    tampered.set("variant_id", "1");
    expect(await library.utils.validateHmac(tampered, { signator: "appProxy" })).toBe(false);
    const other = sign();
    other.set("signature", appProxySignature(other, "another-secret"));
    expect(await library.utils.validateHmac(other, { signator: "appProxy" })).toBe(false);
  });

  it("is Shopify's documented example", () => {
    // shopify.dev's app proxy example: the query and the secret "hush".
    const params = new URLSearchParams(
      "extra=1&extra=2&shop=shop-name.myshopify.com&logged_in_customer_id=1&path_prefix=%2Fapps%2Fawesome_reviews&timestamp=1317327555",
    );
    expect(appProxySignature(params, "hush")).toBe(
      "4c68c8624d737112c91818c11017d24d334b524cb5c2b8ba08daa056f7395ddb",
    );
  });
});

describe("proxyTarget", () => {
  it("joins the app's URL, the proxy URL's path and the rest", () => {
    expect(
      proxyTarget("http://127.0.0.1:3000", "https://localhost:3000/proxy", "/plans").href,
    ).toBe("http://127.0.0.1:3000/proxy/plans");
    expect(proxyTarget("http://app.test/base/", "https://x.test/proxy/", "a/b").href).toBe(
      "http://app.test/base/proxy/a/b",
    );
  });
});

describe("Forwarding /apps/svc/* to the installed app", () => {
  let fakeApp: FakeApp;
  let store: FastifyInstance;
  let fixture: ReturnType<typeof testShop>;
  const library = () => shopifyApiFor(fakeApp.url, { secret: fixture.shop.app.apiSecret });

  beforeAll(async () => {
    fakeApp = await startFakeApp();
  });
  afterAll(async () => {
    await fakeApp.close();
  });
  beforeEach(() => {
    fakeApp.received.length = 0;
    fixture = testShop();
  });
  afterEach(async () => {
    await store.close();
  });

  function buildStore(options: { installed?: boolean; timeoutMs?: number; appUrl?: string } = {}) {
    const { state, shop } = fixture;
    if (options.installed ?? true) state.install(shop.domain, ["read_products"]);
    store = Fastify();
    registerAppProxy(store, {
      storefrontShop: () => {
        const current = state.shop(shop.domain);
        return (
          current && { ...current, app: { ...current.app, url: options.appUrl ?? fakeApp.url } }
        );
      },
      config: { url: "https://localhost:3000/proxy", prefix: "apps", subpath: "svc" },
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    return store;
  }

  it("forwards a GET with the storefront's query, signed, without the buyer's cookies", async () => {
    fakeApp.handle = (_request, response) => {
      response
        .writeHead(200, {
          "content-type": "application/json",
          "set-cookie": "app=1",
          "x-internal": "yes",
        })
        .end('{"plans":[]}');
    };
    const answer = await buildStore().inject({
      method: "GET",
      url: "/apps/svc/plans?variant_id=42&currency=EUR",
      headers: { cookie: "cart=abc; _secure_session_id=xyz", accept: "application/json" },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["set-cookie"]).toBeUndefined();
    expect(answer.headers["x-internal"]).toBeUndefined();
    expect(answer.body).toBe('{"plans":[]}');

    const [received] = fakeApp.received;
    const url = new URL(received?.url ?? "", fakeApp.url);
    expect(received?.method).toBe("GET");
    expect(url.pathname).toBe("/proxy/plans");
    expect(url.searchParams.get("variant_id")).toBe("42");
    expect(url.searchParams.get("shop")).toBe(fixture.shop.domain);
    expect(url.searchParams.get("logged_in_customer_id")).toBe("");
    expect(url.searchParams.get("path_prefix")).toBe("/apps/svc");
    expect(Number(url.searchParams.get("timestamp"))).toBeCloseTo(Date.now() / 1000, -1);
    expect(received?.headers.cookie).toBeUndefined();
    expect(received?.headers.accept).toBe("application/json");
    expect(await library().utils.validateHmac(url.searchParams, { signator: "appProxy" })).toBe(
      true,
    );
  });

  it("forwards a POST's method, content type and body, and answers the app's status", async () => {
    fakeApp.handle = (_request, response) => {
      response.writeHead(422, { "content-type": "application/json" }).end('{"error":"no"}');
    };
    const body = JSON.stringify({ cart_token: "t", lines: [{ key: "1:a", quantity: 2 }] });
    const answer = await buildStore().inject({
      method: "POST",
      url: "/apps/svc/cart_updates",
      headers: { "content-type": "application/json" },
      payload: body,
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.body).toBe('{"error":"no"}');
    const [received] = fakeApp.received;
    expect(received?.method).toBe("POST");
    expect(received?.url.startsWith("/proxy/cart_updates?")).toBe(true);
    expect(received?.headers["content-type"]).toBe("application/json");
    expect(received?.body).toBe(body);
  });

  it("answers 502 when the app cannot be reached", async () => {
    const answer = await buildStore({ appUrl: "http://127.0.0.1:9" }).inject({
      method: "GET",
      url: "/apps/svc/plans",
    });
    expect(answer.statusCode).toBe(502);
  });

  it("answers 504 when the app does not answer in time", async () => {
    fakeApp.handle = async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      response.writeHead(200).end("late");
    };
    const answer = await buildStore({ timeoutMs: 100 }).inject({
      method: "GET",
      url: "/apps/svc/plans",
    });
    expect(answer.statusCode).toBe(504);
  });

  it("answers 404 while the shop has not installed the app, and leaves other paths alone", async () => {
    const notInstalled = await buildStore({ installed: false }).inject({
      method: "GET",
      url: "/apps/svc/plans",
    });
    expect(notInstalled.statusCode).toBe(404);
    expect(fakeApp.received).toHaveLength(0);
    await store.close();
    const other = await buildStore().inject({ method: "GET", url: "/apps/other/plans" });
    expect(other.statusCode).toBe(404);
    expect(fakeApp.received).toHaveLength(0);
  });
});
