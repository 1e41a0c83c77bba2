import { describe, expect, it } from "vitest";
import { strictScalars } from "./scalars";
import { adminGraphqlFixture } from "./test-support";

describe("requests Shopify refuses before running them", () => {
  it("answers a body without a query 400, as Shopify documents", async () => {
    const store = adminGraphqlFixture();
    for (const body of [
      "not json",
      "{}",
      JSON.stringify({ query: "" }),
      JSON.stringify({ query: "{ shop { id } }", variables: 3 }),
    ]) {
      const outcome = await store.engine.execute({ shop: store.shop, apiVersion: "2026-10", body });
      expect(outcome.status).toBe(400);
      expect(outcome.body).toEqual({ errors: { query: "Required parameter missing or invalid" } });
    }
  });

  it("answers a version other than 2026-10 404, the previous 2026-07 included", async () => {
    const store = adminGraphqlFixture();
    for (const apiVersion of ["2024-01", "2026-07"]) {
      const outcome = await store.engine.execute({
        shop: store.shop,
        apiVersion,
        body: JSON.stringify({ query: "{ shop { id } }" }),
      });
      expect(outcome.status).toBe(404);
    }
  });

  it("answers a syntax error with graphql-ruby's parse error", async () => {
    const store = adminGraphqlFixture();
    const body = await store.run("query { shop { id }");
    expect(body.errors).toEqual([
      { message: "Unexpected end of document", locations: [{ line: 1, column: 20 }] },
    ]);
    expect((await store.run("query { shop { } }")).errors).toEqual([
      { message: 'Parse error on "}" (RCURLY) at [1, 16]', locations: [{ line: 1, column: 16 }] },
    ]);
  });

  it("answers a field the schema lacks with undefinedField, its location and path", async () => {
    const store = adminGraphqlFixture();
    const outcome = await store.request("query Currency {\n  shop {\n    currencyCodes\n  }\n}");
    expect(outcome.status).toBe(200);
    expect(outcome.body).toEqual({
      errors: [
        {
          message: "Field 'currencyCodes' doesn't exist on type 'Shop'",
          locations: [{ line: 3, column: 5 }],
          path: ["query Currency", "shop", "currencyCodes"],
          extensions: { code: "undefinedField", typeName: "Shop", fieldName: "currencyCodes" },
        },
      ],
      extensions: {
        cost: {
          requestedQueryCost: 0,
          actualQueryCost: 0,
          throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 100 },
        },
      },
    });
    expect(outcome.log.validationErrors).toEqual([
      "Field 'currencyCodes' doesn't exist on type 'Shop'",
    ]);
    expect(outcome.log.operationName).toBe("Currency");
  });

  it("rewrites the other common faults in graphql-ruby's words and codes", async () => {
    const { engine } = adminGraphqlFixture();
    const cases: [string, string][] = [
      [
        '{ product(handle: "x", id: "gid://shopify/Product/1") { id } }',
        "Field 'product' doesn't accept argument 'handle'",
      ],
      ["{ product { id } }", "Field 'product' is missing required arguments: id"],
      [
        "{ shop }",
        "Field must have selections (field 'shop' returns Shop but has no selections. Did you mean 'shop { ... }'?)",
      ],
      [
        "{ shop { name { x } } }",
        "Selections can't be made on scalars (field 'name' returns String but has selections [x])",
      ],
      ["query Q($id: ID!) { shop { id } }", "Variable $id is declared by Q but not used"],
      ["query Q { product(id: $id) { id } }", "Variable $id is used by Q but not declared"],
      [
        "query Q($id: String!) { product(id: $id) { id } }",
        "Type mismatch on variable $id and argument id (String! / ID!)",
      ],
      [
        "query Q($id: ID) { product(id: $id) { id } }",
        "Nullability mismatch on variable $id and argument id (ID / ID!)",
      ],
      [
        '{ products(first: "ten") { nodes { id } } }',
        "Argument 'first' on Field 'products' has an invalid value (\"ten\"). Expected type 'Int'.",
      ],
      ["{ shop { id @unknown } }", "Directive @unknown is not defined"],
    ];
    for (const [query, message] of cases) expect(engine.validate(query)).toEqual([message]);
  });

  it("coerces variables first: a wrong or missing one names the variable and each problem", async () => {
    const store = adminGraphqlFixture();
    const query = "query Owner($id: ID!) { productVariant(id: $id) { id } }";
    const missing = await store.run(query, {});
    expect(missing.errors).toEqual([
      {
        message: "Variable $id of type ID! was provided invalid value",
        locations: [{ line: 1, column: 13 }],
        extensions: {
          value: null,
          problems: [{ path: [], explanation: "Expected value to not be null" }],
        },
      },
    ]);
    const mutation = `mutation Set($productSet: ProductSetInput!) {
      productSet(input: $productSet) { product { id } userErrors { message } }
    }`;
    const wrong = await store.run(mutation, {
      productSet: { title: "T", colour: "red", variants: [{ optionValues: [], price: "12,50" }] },
    });
    expect(wrong.errors?.[0]).toMatchObject({
      message:
        'Variable $productSet of type ProductSetInput! was provided invalid value for variants.0.price (Could not coerce value "12,50" to Money), colour (Field is not defined on ProductSetInput)',
      extensions: {
        problems: [
          {
            path: ["variants", 0, "price"],
            explanation: 'Could not coerce value "12,50" to Money',
          },
          { path: ["colour"], explanation: "Field is not defined on ProductSetInput" },
        ],
      },
    });
    expect(store.state.products(store.shop.domain)).toEqual([]);
  });
});

describe("strict scalars", () => {
  const accepts = (scalar: keyof typeof strictScalars, value: unknown) => {
    try {
      strictScalars[scalar].parseValue(value);
      return true;
    } catch {
      return false;
    }
  };

  it("takes Money and Decimal only as decimal strings", () => {
    expect(accepts("Money", "19.99")).toBe(true);
    expect(accepts("Money", "-5")).toBe(true);
    expect(accepts("Money", 19.99)).toBe(false);
    expect(accepts("Money", "19,99")).toBe(false);
    expect(accepts("Decimal", "1e3")).toBe(false);
  });

  it("takes UnsignedInt64 as digits up to 2^64 - 1", () => {
    expect(accepts("UnsignedInt64", "18446744073709551615")).toBe(true);
    expect(accepts("UnsignedInt64", "18446744073709551616")).toBe(false);
    expect(accepts("UnsignedInt64", "-1")).toBe(false);
    expect(accepts("UnsignedInt64", 42)).toBe(false);
  });

  it("takes DateTime as ISO 8601 and writes it in UTC to the second", () => {
    expect(accepts("DateTime", "2026-11-24T10:00:00Z")).toBe(true);
    expect(accepts("DateTime", "2026-11-24T10:00:00+01:00")).toBe(true);
    expect(accepts("DateTime", "2026-11-24")).toBe(true);
    expect(accepts("DateTime", "yesterday")).toBe(false);
    expect(accepts("DateTime", "2026-13-01T00:00:00Z")).toBe(false);
    expect(strictScalars.DateTime.serialize("2026-11-24T10:00:00.123Z")).toBe(
      "2026-11-24T10:00:00Z",
    );
  });

  it("takes URL only as an absolute URL", () => {
    expect(accepts("URL", "https://example.myshopify.com/a?b=c")).toBe(true);
    expect(accepts("URL", "/relative/path")).toBe(false);
    expect(accepts("URL", "not a url")).toBe(false);
  });

  it("refuses a bad literal in the query as Shopify refuses it", async () => {
    const { engine } = adminGraphqlFixture();
    expect(
      engine.validate(
        `mutation { publishablePublish(id: "gid://shopify/Product/1", input: [{ publishDate: "soon" }]) { userErrors { message } } }`,
      ),
    ).toEqual([
      "Argument 'publishDate' on InputObject 'PublicationInput' has an invalid value (\"soon\"). Expected type 'DateTime'.",
    ]);
  });
});

describe("what the store does not emulate", () => {
  it("answers NOT_EMULATED for a field that validates but has no data, never a silent null", async () => {
    const store = adminGraphqlFixture();
    const body = await store.run("{ shop { name billingAddress { city } } }");
    expect(body.errors).toEqual([
      {
        message: "Shop.billingAddress is not emulated by the local store",
        locations: [{ line: 1, column: 15 }],
        path: ["shop", "billingAddress"],
        extensions: { code: "NOT_EMULATED" },
      },
    ]);
  });

  it("answers NOT_EMULATED for a search filter it cannot apply", async () => {
    const store = adminGraphqlFixture();
    const body = await store.run(
      '{ orders(first: 5, query: "financial_status:paid") { nodes { id } } }',
    );
    expect(body.errors?.[0]?.extensions).toEqual({ code: "NOT_EMULATED" });
    expect(body.errors?.[0]?.message).toContain("financial_status");
  });

  it("answers an error per malformed ID in nodes(ids:), and the other nodes", async () => {
    const store = adminGraphqlFixture();
    const body = await store.run(
      `{ nodes(ids: ["gid://shopify/Shop/${store.shop.id}", "oops"]) { id } }`,
    );
    expect(body.data).toEqual({ nodes: [{ id: `gid://shopify/Shop/${store.shop.id}` }, null] });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: "Invalid global id 'oops'",
        path: ["nodes", 1],
        extensions: { code: "argumentLiteralsIncompatible", typeName: "CoercionError" },
      }),
    ]);
  });
});

describe("the @idempotent directive outside refundCreate", () => {
  it("is refused on a mutation that does not support it, rather than ignored", async () => {
    const store = adminGraphqlFixture();
    const body = await store.run(
      `mutation { metafieldsSet(metafields: []) @idempotent(key: "k-1") { userErrors { message } } }`,
    );
    expect(body.data).toEqual({ metafieldsSet: null });
    expect(body.errors?.[0]).toMatchObject({
      message: "The @idempotent directive is not supported on the metafieldsSet mutation.",
      extensions: { code: "BAD_REQUEST" },
    });
  });
});

describe("catalog reads and refusals", () => {
  it("filters and sorts products with the search syntax it emulates", async () => {
    const store = adminGraphqlFixture();
    for (const title of ["Lamp", "Chair", "Lamp shade"]) {
      store.state.setProduct(store.shop.domain, { title, variants: [] }, { kind: "merchant" });
    }
    const titles = async (query: string) => {
      const body = await store.run(
        `query Titles($query: String) { products(first: 10, query: $query, sortKey: TITLE) { nodes { title } } }`,
        { query },
      );
      expect(body.errors).toBeUndefined();
      return (body.data as { products: { nodes: { title: string }[] } }).products.nodes.map(
        (n) => n.title,
      );
    };
    expect(await titles("")).toEqual(["Chair", "Lamp", "Lamp shade"]);
    expect(await titles("title:lamp*")).toEqual(["Lamp", "Lamp shade"]);
    expect(await titles("title:lamp")).toEqual(["Lamp"]);
    expect(await titles("-title:lamp*")).toEqual(["Chair"]);
  });

  it("answers a publication the shop lacks as userErrors, and publishes nothing", async () => {
    const store = adminGraphqlFixture();
    const product = store.state.setProduct(
      store.shop.domain,
      { title: "Lamp", variants: [] },
      { kind: "merchant" },
    );
    const body = await store.run(
      `mutation Publish($id: ID!) {
        publishablePublish(id: $id, input: [{ publicationId: "gid://shopify/Publication/1" }]) {
          userErrors { field message }
        }
      }`,
      { id: `gid://shopify/Product/${product.id}` },
    );
    expect(body.data).toEqual({
      publishablePublish: {
        userErrors: [{ field: ["input", "0", "publicationId"], message: expect.any(String) }],
      },
    });
    expect(store.state.product(store.shop.domain, product.id)?.publicationIds).toEqual([]);
  });
});

describe("calculated query cost and the leaky bucket", () => {
  const NESTED = "{ products(first: 10) { nodes { id variants(first: 5) { nodes { id } } } } }";

  it("prices a query by Shopify's rules and charges what it really returned", async () => {
    const store = adminGraphqlFixture();
    store.state.setProduct(
      store.shop.domain,
      {
        title: "Lamp",
        variants: [
          { title: "Red", price: 100 },
          { title: "Blue", price: 100 },
        ],
      },
      { kind: "merchant" },
    );
    const body = await store.run(NESTED);
    // 2 + 10 × (1 product + 2 + 5 × 1 variant) requested; 2 + 1 × (1 + 2 + 2) returned.
    expect(body.extensions?.cost).toEqual({
      requestedQueryCost: 82,
      actualQueryCost: 7,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1993, restoreRate: 100 },
    });
  });

  it("prices a mutation at 10", async () => {
    const store = adminGraphqlFixture();
    const body = await store.run(
      `mutation { metafieldsSet(metafields: []) { metafields { id } userErrors { message } } }`,
    );
    expect(body.extensions?.cost.requestedQueryCost).toBe(10);
  });

  it("refuses a query over 1,000 points with MAX_COST_EXCEEDED, before it runs", async () => {
    const store = adminGraphqlFixture();
    const body = await store.run(
      "{ products(first: 250) { nodes { variants(first: 250) { nodes { id } } } } }",
    );
    expect(body.errors).toEqual([
      expect.objectContaining({
        extensions: expect.objectContaining({
          code: "MAX_COST_EXCEEDED",
          cost: 63252,
          maxCost: 1000,
        }),
      }),
    ]);
    expect(body.errors?.[0]?.message).toMatch(
      /^Query cost is 63252, which exceeds the single query max cost limit \(1000\)/,
    );
    expect(body.extensions?.cost.actualQueryCost).toBeNull();
  });

  it("throttles once the bucket is empty and refills it at the plan's rate", async () => {
    const store = adminGraphqlFixture();
    store.engine.emptyBucket(store.shop.domain);
    const throttled = await store.request(NESTED);
    expect(throttled.status).toBe(200);
    expect(throttled.body).toEqual({
      errors: [
        {
          message: "Throttled",
          extensions: {
            code: "THROTTLED",
            documentation: "https://shopify.dev/api/usage/rate-limits",
          },
        },
      ],
      extensions: {
        cost: {
          requestedQueryCost: 82,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 },
        },
      },
    });
    store.advance(1000);
    const body = await store.run(NESTED);
    expect(body.errors).toBeUndefined();
    expect(body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(100 - 2);
  });

  it("gives Plus shops 1,000 points a second in a 20,000 point bucket", async () => {
    const store = adminGraphqlFixture({ plan: "plus" });
    const body = await store.run("{ shop { id } }");
    expect(body.extensions?.cost.throttleStatus).toEqual({
      maximumAvailable: 20000,
      currentlyAvailable: 19999,
      restoreRate: 1000,
    });
  });
});
