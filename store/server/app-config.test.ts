import { describe, expect, it } from "vitest";
import { appConfigFromToml, loadAppConfig, parseToml } from "./app-config";

describe("loadAppConfig (the repository's shopify.app.toml)", () => {
  it("reads the scopes, the webhook API version and every subscription", () => {
    const config = loadAppConfig();

    expect(config.scopes).toEqual([
      "read_orders",
      "write_orders",
      "read_products",
      "write_products",
      "write_publications",
      "write_order_edits",
    ]);
    // Asked for on the settings page when plan fulfilment is turned on (decision 025).
    expect(config.optionalScopes).toEqual(["write_merchant_managed_fulfillment_orders"]);
    expect(
      appConfigFromToml(
        '[access_scopes]\nscopes = "read_orders"\n[webhooks]\napi_version = "2026-10"\n',
      ).optionalScopes,
    ).toEqual([]);
    expect(config.webhookApiVersion).toBe("2026-10");
    expect(config.subscriptions).toContainEqual({
      topics: ["orders/create"],
      uri: "/webhooks/orders/create",
    });
    expect(config.subscriptions).toContainEqual({
      topics: ["customers/redact"],
      uri: "/webhooks/customers/redact",
    });
    expect(config.subscriptions.flatMap((subscription) => subscription.topics)).toEqual(
      expect.arrayContaining(["app/uninstalled", "refunds/create", "orders/edited"]),
    );
  });
});

describe("parseToml", () => {
  it("reads tables, arrays of tables, dotted keys, arrays over lines, strings and scalars", () => {
    const toml = parseToml(`
# a comment
name = "svc" # trailing comment
count = 1_000
ratio = 0.5
enabled = true
literal = 'C:\\path'
escaped = "tab\\tquote\\" \\u00e9"

[access]
scopes = [
  "read_orders", # first
  'write_orders',
]

[[hooks]]
topics = ["a/b"]
uri = "/a"

[[hooks]]
topics = ["c/d"]
uri = "/c"

[product.metafields.app.hint]
access.admin = "merchant_read"
`);
    expect(toml).toEqual({
      name: "svc",
      count: 1000,
      ratio: 0.5,
      enabled: true,
      literal: "C:\\path",
      escaped: 'tab\tquote" é',
      access: { scopes: ["read_orders", "write_orders"] },
      hooks: [
        { topics: ["a/b"], uri: "/a" },
        { topics: ["c/d"], uri: "/c" },
      ],
      product: { metafields: { app: { hint: { access: { admin: "merchant_read" } } } } },
    });
  });

  it.each([
    ['name = "open', /line 1: unterminated string/],
    ["a = 1\na = 2", /line 2: "a" is defined twice/],
    ["a = 1 b", /line 1: unexpected "b"/],
    ['text = """long"""', /line 1: multi-line strings are not supported/],
    ["when = 1979-05-27", /line 1: unsupported value "1979-05-27"/],
  ])("fails on %j with the line", (text, message) => {
    expect(() => parseToml(text)).toThrow(message);
  });
});

describe("appConfigFromToml", () => {
  it("names the file and the field that is wrong", () => {
    expect(() =>
      appConfigFromToml(
        '[webhooks]\napi_version = "2026-10"\n[[webhooks.subscriptions]]\nuri = "/x"\n',
        "app.toml",
      ),
    ).toThrow("Failed to read app.toml: webhooks.subscriptions[0] has no topics");
    expect(() => appConfigFromToml("[access_scopes]\nscopes = 3\n")).toThrow(
      "Failed to read shopify.app.toml: access_scopes.scopes must be a string",
    );
  });
});

describe("[app_proxy]", () => {
  const base = '[webhooks]\napi_version = "2026-10"\n';

  it("reads the repository's proxy: /apps/svc/* to the app's /proxy", () => {
    expect(loadAppConfig().appProxy).toEqual({
      url: "https://localhost:3000/proxy",
      prefix: "apps",
      subpath: "svc",
    });
  });

  it("is absent without the table, and refuses a prefix Shopify does not offer", () => {
    expect(appConfigFromToml(base).appProxy).toBeUndefined();
    expect(() =>
      appConfigFromToml(
        `${base}[app_proxy]\nurl = "https://app.test/p"\nprefix = "shop"\nsubpath = "x"\n`,
      ),
    ).toThrow("app_proxy.prefix must be one of apps, a, community, tools");
    expect(() =>
      appConfigFromToml(`${base}[app_proxy]\nurl = "https://app.test/p"\nprefix = "a"\n`),
    ).toThrow("app_proxy.subpath is required");
  });
});
