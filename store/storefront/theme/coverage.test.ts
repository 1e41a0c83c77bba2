import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { toLiquidHtmlAST, walk, type LiquidHtmlNode } from "@shopify/liquid-html-parser";
import { beforeAll, expect, it } from "vitest";
import { StoreState } from "../../state";
import type { StorefrontRequest } from "../contract";
import { extensionDir, readThemeJson, themeDirOf } from "./files";
import { dawnTheme, emptyCarts, storefrontProducts } from "./routes";
import { seedCatalog } from "./test-shop";
import { describeWithDawn } from "./with-dawn";

/*
 * What Dawn's reachable Liquid uses, inventoried with Shopify's own parser, against what the
 * renderer implements: the layout, the index, product, collection and cart templates, the header
 * and footer groups, the sections Dawn's JS fetches by ID, every snippet they render, and our
 * extension's blocks. Anything used and not implemented fails here, not in a buyer's page.
 */

const FETCHED_SECTIONS = [
  "cart-drawer",
  "cart-icon-bubble",
  "cart-live-region-text",
  "cart-notification-product",
  "cart-notification-button",
  "main-cart-items",
  "main-cart-footer",
];

interface Inventory {
  files: Set<string>;
  tags: Set<string>;
  filters: Set<string>;
  lookups: Set<string>;
}

function sectionFilesOf(jsonFile: string): string[] {
  const json = readThemeJson(jsonFile);
  const sections = (json.sections ?? {}) as Record<string, { type: string }>;
  return Object.values(sections)
    .filter((section) => !section.type.startsWith("shopify://"))
    .map((section) => `sections/${section.type}.liquid`);
}

function inventory(): Inventory {
  const dir = themeDirOf("dawn");
  const found: Inventory = {
    files: new Set(),
    tags: new Set(),
    filters: new Set(),
    lookups: new Set(),
  };
  const queue = [
    "layout/theme.liquid",
    ...["index", "product", "collection", "cart"].flatMap((template) =>
      sectionFilesOf(path.join(dir, `templates/${template}.json`)),
    ),
    ...["header-group", "footer-group"].flatMap((group) =>
      sectionFilesOf(path.join(dir, `sections/${group}.json`)),
    ),
    ...FETCHED_SECTIONS.map((section) => `sections/${section}.liquid`),
    "sections/related-products.liquid",
  ].map((file) => path.join(dir, file));
  const ext = extensionDir();
  queue.push(
    path.join(ext, "blocks/protection-offer.liquid"),
    path.join(ext, "blocks/cart-rules.liquid"),
  );
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === undefined || found.files.has(file)) continue;
    found.files.add(file);
    const ast = toLiquidHtmlAST(readFileSync(file, "utf8"), {
      mode: "tolerant",
      allowUnclosedDocumentNode: false,
    });
    walk(ast, (node: LiquidHtmlNode) => {
      // Raw tags (style, schema, javascript, comment, doc) are their own node type.
      if (node.type === "LiquidRawTag") found.tags.add(node.name);
      if (node.type === "LiquidTag") {
        found.tags.add(node.name);
        if (
          node.name === "render" &&
          typeof node.markup === "object" &&
          node.markup.type === "RenderMarkup"
        ) {
          const snippet = node.markup.snippet;
          if (snippet.type === "String") {
            const snippetFile = path.join(dir, `snippets/${snippet.value}.liquid`);
            if (existsSync(snippetFile)) queue.push(snippetFile);
          }
        }
      }
      if (node.type === "LiquidFilter") found.filters.add(node.name);
      if (node.type === "VariableLookup" && node.name !== null) found.lookups.add(node.name);
    });
  }
  return found;
}

interface Documented {
  name: string;
  access?: { global?: boolean };
}

function shopifyList(file: string): Documented[] {
  const require = createRequire(import.meta.url);
  return JSON.parse(
    readFileSync(require.resolve(`@shopify/theme-check-docs-updater/data/${file}`), "utf8"),
  ) as Documented[];
}

let request: StorefrontRequest;

beforeAll(() => {
  const state = new StoreState();
  const catalog = seedCatalog(state);
  request = {
    shop: catalog.shop,
    products: storefrontProducts(state, catalog.shop),
    cart: emptyCarts.cartJson(catalog.shop, undefined),
    url: `/products/${catalog.snowboard.handle}`,
    locale: "en",
    app: { block: true, embed: true, theme: "dawn" },
  };
});

describeWithDawn("Dawn's Liquid, inventoried with @shopify/liquid-html-parser", () => {
  it("uses only tags, filters and global objects the renderer implements", async () => {
    const found = inventory();
    // The trial counted 50 files and 62 filters (its 21 tags counted branches such as `else`).
    expect(found.files.size).toBeGreaterThanOrEqual(50);
    expect([...found.tags]).toEqual(
      expect.arrayContaining([
        "form",
        "style",
        "schema",
        "sections",
        "javascript",
        "paginate",
        "render",
      ]),
    );
    expect(found.filters.size).toBeGreaterThanOrEqual(62);

    const implemented = await dawnTheme().implemented(request);
    const unknownTags = [...found.tags].filter((tag) => !implemented.tags.includes(tag));
    const unknownFilters = [...found.filters].filter(
      (filter) => !implemented.filters.includes(filter),
    );
    const globalObjects = new Set(
      shopifyList("objects.json")
        .filter((object) => object.access?.global)
        .map((object) => object.name),
    );
    const usedGlobals = [...found.lookups].filter((name) => globalObjects.has(name));
    const missingGlobals = usedGlobals.filter((name) => !implemented.globals.includes(name));
    expect({ unknownTags, unknownFilters, missingGlobals }).toEqual({
      unknownTags: [],
      unknownFilters: [],
      missingGlobals: [],
    });
    expect(usedGlobals.length).toBeGreaterThanOrEqual(17);
  });

  it("names what Shopify defines that we do not implement, none of it used by Dawn's reachable files", async () => {
    const found = inventory();
    const implemented = await dawnTheme().implemented(request);
    const notImplemented = {
      tags: shopifyList("tags.json")
        .map((tag) => tag.name)
        .filter(
          (name) => !implemented.tags.includes(name) && !name.startsWith("end") && name !== "else",
        ),
      filters: shopifyList("filters.json")
        .map((filter) => filter.name)
        .filter((name) => !implemented.filters.includes(name)),
      globals: shopifyList("objects.json")
        .filter((object) => object.access?.global)
        .map((object) => object.name)
        .filter((name) => !implemented.globals.includes(name)),
    };
    // The list, named in the snapshot beside this file; it changes only when coverage does.
    expect(notImplemented).toMatchSnapshot();
    expect(notImplemented.tags.filter((tag) => found.tags.has(tag))).toEqual([]);
    expect(notImplemented.filters.filter((filter) => found.filters.has(filter))).toEqual([]);
    expect(notImplemented.globals.filter((name) => found.lookups.has(name))).toEqual([]);
    // Shopify's own lists are read, not guessed: these are among them and implemented.
    expect(shopifyList("filters.json").map((filter) => filter.name)).toEqual(
      expect.arrayContaining([
        "money",
        "translate",
        "asset_url",
        "image_url",
        "inline_asset_content",
      ]),
    );
  });
});

describeWithDawn("failing loudly, in Dawn", () => {
  it("throws on an unknown filter", async () => {
    await expect(dawnTheme().renderLiquid(request, "{{ 'x' | no_such_filter }}")).rejects.toThrow(
      /no_such_filter/,
    );
  });

  it("throws on a missing translation, and translates with interpolation and plurals", async () => {
    await expect(
      dawnTheme().renderLiquid(request, "{{ 'products.no_such_key' | t }}"),
    ).rejects.toThrow(/Translation missing: en\.products\.no_such_key/);
    expect(
      await dawnTheme().renderLiquid(request, "{{ 'sections.header.cart_count' | t: count: 1 }}"),
    ).toBe("1 item");
    expect(
      await dawnTheme().renderLiquid(request, "{{ 'sections.header.cart_count' | t: count: 3 }}"),
    ).toBe("3 items");
  });

  it("compares cart == empty as Shopify does, and formats money in the shop's currency", async () => {
    expect(await dawnTheme().renderLiquid(request, "{% if cart == empty %}empty{% endif %}")).toBe(
      "empty",
    );
    expect(
      await dawnTheme().renderLiquid(
        request,
        "{{ 123456 | money }} {{ 5000 | money_with_currency }}",
      ),
    ).toBe("€1,234.56 €50.00 EUR");
  });
});
