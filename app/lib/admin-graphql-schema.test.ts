import { readFileSync } from "node:fs";
import path from "node:path";
import {
  type IntrospectionQuery,
  buildClientSchema,
  buildSchema,
  introspectionFromSchema,
  parse,
} from "graphql";
import { describe, expect, it } from "vitest";
import {
  adminOperationSources,
  loadAdminIntrospection,
  REPO_ROOT,
} from "../../graphql/admin-schema.mjs";
import {
  appTomlOptionalScopes,
  appTomlScopes,
  coveredBy,
  effectiveScopes,
  parseRequiredAccess,
  pruneIntrospection,
  statedAccessOf,
  usageOf,
} from "./admin-graphql-schema";

describe("parseRequiredAccess", () => {
  it.each([
    ["`read_products` access scope.", ["read_products"]],
    [
      "`read_products` access scope or `read_publications` access scope.",
      ["read_products", "read_publications"],
    ],
    [
      "`read_privacy_settings` access scope, `read_content` access scope or `read_online_store_pages` access scope.",
      ["read_privacy_settings", "read_content", "read_online_store_pages"],
    ],
    ["Apps must have `read_discounts` access scope.", ["read_discounts"]],
    // What follows "Also:" is the staff member's permission, not the app's scope.
    [
      "`write_products` access scope. Also: The user must have a permission to create products.",
      ["write_products"],
    ],
    // Catalog's text, with a sentence about the user's permissions after it.
    [
      "products or product_listings read access scope. The user must have permission to view markets or customers or companies.",
      ["read_products", "read_product_listings"],
    ],
  ])("reads %j as a choice of scopes", (text, anyOf) => {
    expect(parseRequiredAccess(text)).toEqual({ kind: "scopes", anyOf });
  });

  it("reads a text about the staff member's permissions only as no scope", () => {
    expect(parseRequiredAccess("The user must have access to the shop's reports.")).toEqual({
      kind: "none",
    });
  });

  it.each([
    // metafieldsSet: depends on the owner.
    "the same access level needed to mutate the owner resource. For instance, if you want to set\na metafield on a product, you need the same permissions as you would need to mutate a product.\n",
    // Both scopes, for mutations: not a plain choice.
    "`read_markets` for queries and both `read_markets` as well as `write_markets` for mutations.",
    "`read_mobile_platform_applications` access scope. Please contact Shopify Support to enable this scope for your app.\n",
    "access to the checkout and accounts editor.",
  ])("leaves %j for a person to decide", (text) => {
    expect(parseRequiredAccess(text)).toEqual({ kind: "unreadable", text: text.trim() });
  });
});

describe("scopes", () => {
  it("lets a write scope imply its read scope, never the other way", () => {
    const scopes = effectiveScopes(["write_publications", "read_orders"]);
    expect(coveredBy(["read_publications"], scopes)).toBe(true);
    expect(coveredBy(["write_publications"], scopes)).toBe(true);
    expect(coveredBy(["write_orders"], scopes)).toBe(false);
    expect(coveredBy(["read_products", "read_product_listings"], scopes)).toBe(false);
  });

  it("reads the scopes of [access_scopes] only", () => {
    const toml = [
      'scopes = "write_everything"',
      "[access_scopes]",
      "# products: the protection items",
      'scopes = "read_orders, write_products" # trailing comment',
      "[auth]",
      'scopes = "write_nothing"',
    ].join("\n");
    expect(appTomlScopes(toml)).toEqual(["read_orders", "write_products"]);
    expect(() => appTomlScopes("[auth]\nredirect_urls = []\n")).toThrow(/access_scopes/);
  });

  it("reads the app's own shopify.app.toml", () => {
    const scopes = appTomlScopes(readFileSync(path.join(REPO_ROOT, "shopify.app.toml"), "utf8"));
    expect(scopes).toEqual(expect.arrayContaining(["write_products", "write_publications"]));
  });

  it("reads the optional scopes, asked for at run time, apart from the required ones", () => {
    const toml = readFileSync(path.join(REPO_ROOT, "shopify.app.toml"), "utf8");
    expect(appTomlOptionalScopes(toml)).toEqual(["write_merchant_managed_fulfillment_orders"]);
    expect(appTomlScopes(toml)).not.toContain("write_merchant_managed_fulfillment_orders");
    expect(appTomlOptionalScopes('[access_scopes]\nscopes = "read_orders"\n')).toEqual([]);
  });
});

/** A small schema with Shopify's access annotations, as the Admin introspection has them. */
function annotatedSchema() {
  const schema = buildSchema(`
    interface Node { id: ID! }
    interface Catalog { title: String! secret: String }
    type AppCatalog implements Catalog { title: String! secret: String appId: ID }
    type MarketCatalog implements Catalog { title: String! secret: String }
    type Product implements Node { id: ID! title: String! vendor: String! catalog: Catalog }
    type Order implements Node { id: ID! name: String! }
    enum SortKey { TITLE ID }
    enum Unused { A }
    input TagInput { name: String! nested: NestedInput }
    input NestedInput { value: Int }
    input UnusedInput { value: Int }
    type Query {
      node(id: ID!): Node
      products(first: Int, sortKey: SortKey): [Product!]!
      orders: [Order!]!
    }
    type Mutation { tagsAdd(id: ID!, tags: [TagInput!]!): Product }
  `);
  const introspection = introspectionFromSchema(schema) as IntrospectionQuery;
  const annotate = (typeName: string, fieldName: string | null, values: object) => {
    const type = introspection.__schema.types.find((candidate) => candidate.name === typeName);
    const fields = type && "fields" in type ? type.fields : [];
    const target = fieldName === null ? type : fields.find((field) => field.name === fieldName);
    if (!target) throw new Error(`No ${typeName}.${fieldName} in the test schema`);
    Object.assign(target, values);
  };
  annotate("Product", null, { requiredAccess: "`read_products` access scope." });
  annotate("Order", null, { requiredAccess: "`read_orders` access scope." });
  annotate("Catalog", null, {
    requiredAccess: "products or product_listings read access scope.",
  });
  annotate("Mutation", "tagsAdd", { requiredAccess: "`write_products` access scope." });
  annotate("AppCatalog", "secret", {
    accessRestricted: true,
    accessRestrictedReason: "Only for sales channels.",
  });
  annotate("Catalog", "secret", {
    accessRestricted: true,
    accessRestrictedReason: "Only for sales channels.",
  });
  return { schema, introspection };
}

describe("usageOf and statedAccessOf", () => {
  it("finds each field where it is selected, type conditions and variable types", () => {
    const { schema } = annotatedSchema();
    const usage = usageOf(
      schema,
      parse(
        `query Q($id: ID!) { node(id: $id) { __typename ... on Product { title catalog { title } } } }`,
      ),
    );
    expect(usage.fields).toEqual([
      { typeName: "Query", fieldName: "node" },
      { typeName: "Product", fieldName: "title" },
      { typeName: "Product", fieldName: "catalog" },
      { typeName: "Catalog", fieldName: "title" },
    ]);
    expect(usage.types.sort()).toEqual(["Catalog", "ID", "Node", "Product", "String"]);
  });

  it("states the access of each type and field used, and the restricted fields", () => {
    const { schema, introspection } = annotatedSchema();
    const usage = usageOf(
      schema,
      parse(
        `mutation M($tags: [TagInput!]!) { tagsAdd(id: "1", tags: $tags) { catalog { secret } } }`,
      ),
    );
    const { access, restricted } = statedAccessOf(introspection, usage);
    expect(access).toEqual([
      { coordinate: "Product", requirement: { kind: "scopes", anyOf: ["read_products"] } },
      {
        coordinate: "Catalog",
        requirement: { kind: "scopes", anyOf: ["read_products", "read_product_listings"] },
      },
      {
        coordinate: "Mutation.tagsAdd",
        requirement: { kind: "scopes", anyOf: ["write_products"] },
      },
    ]);
    expect(restricted).toEqual([
      { coordinate: "Catalog.secret", reason: "Only for sales channels." },
    ]);
  });
});

describe("pruneIntrospection", () => {
  it("keeps what the operations select and reach, and drops the rest", () => {
    const { schema, introspection } = annotatedSchema();
    const usages = [
      usageOf(schema, parse(`query { products(first: 1) { id catalog { title } } }`)),
      usageOf(
        schema,
        parse(`mutation($tags: [TagInput!]!) { tagsAdd(id: "1", tags: $tags) { id } }`),
      ),
    ];
    const slice = buildClientSchema(pruneIntrospection(schema, introspection, usages));
    const fieldsOf = (name: string) => {
      const type = slice.getType(name);
      return type && "getFields" in type ? Object.keys(type.getFields()).sort() : undefined;
    };
    expect(fieldsOf("Query")).toEqual(["products"]);
    expect(fieldsOf("Product")).toEqual(["catalog", "id"]);
    // Selected on the interface: picked on each of its types by the generated code.
    expect(fieldsOf("Catalog")).toEqual(["title"]);
    expect(fieldsOf("AppCatalog")).toEqual(["title"]);
    expect(fieldsOf("MarketCatalog")).toEqual(["title"]);
    // Argument types and every input type a variable reaches.
    expect(slice.getType("SortKey")).toBeDefined();
    expect(fieldsOf("TagInput")).toEqual(["name", "nested"]);
    expect(fieldsOf("NestedInput")).toEqual(["value"]);
    for (const dropped of ["Order", "Unused", "UnusedInput"]) {
      expect(slice.getType(dropped)).toBeUndefined();
    }
  });
});

describe("the committed Admin schema", () => {
  const introspection = loadAdminIntrospection("2026-10");
  const schema = buildClientSchema(introspection);
  const scopes = effectiveScopes(["read_orders", "write_products", "write_publications"]);

  it("states the access of a field the app's scopes do not cover", () => {
    const usage = usageOf(schema, parse(`query { customers(first: 1) { nodes { id } } }`));
    const { access } = statedAccessOf(introspection, usage);
    const unmet = access.filter(
      ({ requirement }) => requirement.kind === "scopes" && !coveredBy(requirement.anyOf, scopes),
    );
    expect(unmet.map(({ coordinate }) => coordinate)).toContain("Customer");
  });

  it("finds each operation of app/graphql/ and what Shopify says it needs", () => {
    const operations = adminOperationSources();
    expect(operations.length).toBeGreaterThanOrEqual(8);
    const byName = new Map(
      operations.map(({ file, source }) => [
        path.basename(file, ".ts"),
        statedAccessOf(introspection, usageOf(schema, parse(source))).access,
      ]),
    );
    expect(byName.get("CreateProtectionProduct")).toContainEqual({
      coordinate: "Mutation.productSet",
      requirement: { kind: "scopes", anyOf: ["write_products"] },
    });
    expect(byName.get("SetPlanAvailability")).toContainEqual({
      coordinate: "Mutation.metafieldsSet",
      requirement: expect.objectContaining({ kind: "unreadable" }),
    });
  });
});
