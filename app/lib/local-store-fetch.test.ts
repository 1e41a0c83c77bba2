import { afterEach, describe, expect, it, vi } from "vitest";
import { localStoreFetch, localStoreUrl } from "./local-store-fetch";

const ORIGIN = "http://127.0.0.1:4020";

describe("localStoreUrl", () => {
  it.each([
    [
      "https://demo.myshopify.com/admin/api/2026-10/graphql.json",
      "http://127.0.0.1:4020/shops/demo.myshopify.com/admin/api/2026-10/graphql.json",
    ],
    [
      "https://demo.myshopify.com/admin/oauth/access_token",
      "http://127.0.0.1:4020/shops/demo.myshopify.com/admin/oauth/access_token",
    ],
    [
      "https://Demo-2.myshopify.com/admin/oauth/authorize?client_id=abc&scope=read_orders",
      "http://127.0.0.1:4020/shops/demo-2.myshopify.com/admin/oauth/authorize?client_id=abc&scope=read_orders",
    ],
  ])("sends %s to the local store", (url, expected) => {
    expect(localStoreUrl(url, ORIGIN)).toBe(expected);
    expect(localStoreUrl(url, `${ORIGIN}/`)).toBe(expected);
  });

  it.each([
    "http://127.0.0.1:4010/events",
    "https://api.protection.example/plans",
    "http://demo.myshopify.com/admin/oauth/access_token",
    "https://demo.myshopify.com/products/widget.json",
    "https://admin.shopify.com/store/demo/apps",
    "not a url",
  ])("passes %s through", (url) => {
    expect(localStoreUrl(url, ORIGIN)).toBeNull();
  });
});

describe("localStoreFetch", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("rewrites Shopify admin calls, keeps method, headers and body, and passes others through", async () => {
    const seen: { url: string; method: string; token: string | null; body: string }[] = [];
    const stub = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      seen.push({
        url: request.url,
        method: request.method,
        token: request.headers.get("X-Shopify-Access-Token"),
        body: await request.text(),
      });
      return new Response("{}");
    });
    const storeFetch = localStoreFetch(ORIGIN, stub);

    await storeFetch("https://demo.myshopify.com/admin/api/2026-10/graphql.json", {
      method: "POST",
      headers: { "X-Shopify-Access-Token": "shpat_abc" },
      body: '{"query":"{ shop { name } }"}',
    });
    await storeFetch(
      new Request("https://demo.myshopify.com/admin/oauth/access_token", {
        method: "POST",
        body: '{"code":"1"}',
      }),
    );
    await storeFetch(new URL("http://127.0.0.1:4010/events"), { method: "POST", body: "{}" });

    expect(seen).toEqual([
      {
        url: "http://127.0.0.1:4020/shops/demo.myshopify.com/admin/api/2026-10/graphql.json",
        method: "POST",
        token: "shpat_abc",
        body: '{"query":"{ shop { name } }"}',
      },
      {
        url: "http://127.0.0.1:4020/shops/demo.myshopify.com/admin/oauth/access_token",
        method: "POST",
        token: null,
        body: '{"code":"1"}',
      },
      { url: "http://127.0.0.1:4010/events", method: "POST", token: null, body: "{}" },
    ]);
  });

  it("looks up globalThis.fetch at call time, so a stub installed later is used", async () => {
    const storeFetch = localStoreFetch(ORIGIN);
    const stub = vi.fn(async () => new Response("stubbed"));
    vi.stubGlobal("fetch", stub);

    const answer = await storeFetch("https://demo.myshopify.com/admin/oauth/access_token");

    expect(await answer.text()).toBe("stubbed");
    expect(stub).toHaveBeenCalledWith(
      "http://127.0.0.1:4020/shops/demo.myshopify.com/admin/oauth/access_token",
      undefined,
    );
  });
});
