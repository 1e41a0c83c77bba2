import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { StoreState } from "../../state";
import { storefrontShopOf, type StorefrontRequest } from "../contract";
import { OFFER_BLOCK_ID } from "./editor";
import {
  BASIC_THEME_DIR,
  defaultThemeName,
  describeStorefrontTheme,
  lookupTranslation,
  readThemeJson,
  schemaOf,
  themeDirOf,
} from "./files";
import { registerThemeRoutes, renderSections, storefrontProducts, themeNamed } from "./routes";
import { fixedCarts, seedCatalog, type TestCatalog } from "./test-shop";

/*
 * Our own basic theme (store/themes/basic), which the store renders when no Dawn is given: the
 * pages, the markup our extension and the theme's JS rely on, the Section Rendering API, and
 * the choice between it and Dawn. Its JS runs in test/storefront/basic-theme-buyer.test.ts.
 */

const open: FastifyInstance[] = [];

async function storefront(
  options: { filledCart?: boolean; app?: Partial<StorefrontRequest["app"]> } = {},
): Promise<{ app: FastifyInstance; catalog: TestCatalog }> {
  const state = new StoreState();
  const catalog = seedCatalog(state);
  const app = Fastify();
  await registerThemeRoutes(app, {
    state,
    storefrontShop: () => storefrontShopOf(state.shops(), undefined),
    carts: fixedCarts(catalog, options.filledCart ?? false),
    app: () => ({ block: true, embed: true, theme: "basic", ...options.app }),
  });
  open.push(app);
  return { app, catalog };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((app) => app.close()));
});

function expectCleanPage(html: string) {
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).not.toMatch(/Liquid error|Translation missing|undefined filter|\[object Object\]/i);
  expect(html).toContain('Shopify.theme = {"name":"Basic"');
  expect(html).toContain('Shopify.routes.root = "/"');
}

/** The HTML of the section whose wrapper has this id, up to the next wrapper. */
function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`id="shopify-section-${id}"`);
  expect(start, `section ${id}`).toBeGreaterThan(-1);
  const next = html.indexOf('id="shopify-section-', start + 1);
  return html.slice(start, next === -1 ? undefined : next);
}

describe("the basic theme's pages", () => {
  it("renders the product page: the offer block between the variant picker and the product form, the embed before </body>", async () => {
    const { app, catalog } = await storefront();
    const response = await app.inject(`/products/${catalog.snowboard.handle}`);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expectCleanPage(html);
    expect(html).toContain("<title>Hydrogen Snowboard &ndash; Dawn Test</title>");
    const main = sectionOf(html, "template--24000000000002__main");
    expect(main).toContain('<h1 class="product__title">Hydrogen Snowboard</h1>');
    expect(main).toContain("€499.00");
    // The extension finds the theme's product form from the block, and the variant in its `id`.
    const picker = main.indexOf("data-variant-picker");
    const offer = main.indexOf("data-svc-offer");
    const form = main.indexOf('<form method="post" action="/cart/add"');
    expect(picker).toBeGreaterThan(-1);
    expect(offer).toBeGreaterThan(picker);
    expect(form).toBeGreaterThan(offer);
    expect(main).toContain(`name="svc-plan-${OFFER_BLOCK_ID}"`);
    const [small, large] = catalog.snowboard.variants;
    expect(main.slice(form)).toContain(
      `<input type="hidden" name="id" value="${small?.id}" data-variant-id>`,
    );
    expect(main.slice(form)).toMatch(/<input\s+class="quantity__input"[^>]*name="quantity"/);
    expect(main.slice(form)).toMatch(/<button\s+class="[^"]*product-form__add"\s+type="submit"/);
    // The picker's variants: IDs as text (past 2^53 here), one radio per option value.
    const variants = /<script type="application\/json" data-variants>([^<]*)<\/script>/.exec(main);
    expect(JSON.parse(variants?.[1] ?? "null")).toEqual([
      { id: small?.id, options: ["150 cm"], available: true, price: "€499.00" },
      { id: large?.id, options: ["160 cm"], available: true, price: "€549.00" },
    ]);
    expect(main.match(/type="radio"\s+id="template--\d+__main-option-1-\d"/g)).toHaveLength(2);
    // The app's assets in the head, its embed last in the body.
    expect(html).toMatch(
      /<script src="\/cdn\/shop\/extensions\/svc-protection\/assets\/svc-offer\.min\.js\?v=\w+" defer="defer"><\/script>/,
    );
    const embed = html.indexOf("data-svc-cart-rules");
    expect(embed).toBeGreaterThan(html.indexOf('id="shopify-section-cart-drawer"'));
    expect(html.slice(embed)).toMatch(/^[^]*<\/div>\s*<\/body>/);
    expect(html).toContain('<script src="/cdn/shop/t/1/assets/theme.js?v=');
  });

  it("shows the variant ?variant= selects: its price, its id in the form, its value checked", async () => {
    const { app, catalog } = await storefront();
    const large = catalog.snowboard.variants[1];
    const html = (await app.inject(`/products/${catalog.snowboard.handle}?variant=${large?.id}`))
      .body;
    expect(html).toContain("data-product-price >€549.00</p>");
    expect(html).toContain(`<input type="hidden" name="id" value="${large?.id}" data-variant-id>`);
    expect(html).toMatch(/value="160 cm"\s+checked/);
    expect(html).not.toMatch(/value="150 cm"\s+checked/);
  });

  it("renders the cart drawer by default, and none with the editor's cart type 'page'", async () => {
    const drawer = await storefront({ filledCart: true });
    const html = (await drawer.app.inject(`/products/${drawer.catalog.snowboard.handle}`)).body;
    expect(html).toContain('<body class="template-product" data-cart-type="drawer">');
    const section = sectionOf(html, "cart-drawer");
    expect(section).toMatch(/id="CartDrawerPanel"\s+role="dialog"\s+aria-modal="true"/);
    expect(section).toContain('id="CartDrawer-Item-1"');
    expect(section).toContain('name="checkout"');
    expect(html).toMatch(/id="cart-icon-bubble"[^>]*data-cart-drawer-open/);

    const page = await storefront({ app: { cartType: "page" } });
    const plain = (await page.app.inject(`/products/${page.catalog.snowboard.handle}`)).body;
    expectCleanPage(plain);
    expect(plain).toContain('data-cart-type="page"');
    expect(plain).not.toContain("shopify-section-cart-drawer");
    expect(plain).not.toContain("data-cart-drawer-open");
  });

  it("leaves the block and the embed out when the editor's switches are off", async () => {
    const { app, catalog } = await storefront({ app: { block: false, embed: false } });
    const html = (await app.inject(`/products/${catalog.snowboard.handle}`)).body;
    expectCleanPage(html);
    expect(html).not.toContain("svc-protection");
    expect(html).toContain('action="/cart/add"');
  });

  it("renders the cart page empty, and with its lines, quantities and checkout", async () => {
    const empty = await storefront();
    const emptyHtml = (await empty.app.inject("/cart")).body;
    expectCleanPage(emptyHtml);
    expect(emptyHtml).toContain("Your cart is empty.");
    expect(emptyHtml).not.toContain("cart-line");

    const filled = await storefront({ filledCart: true });
    const html = (await filled.app.inject({ url: "/cart", headers: { cookie: "cart=abc" } })).body;
    expectCleanPage(html);
    const cart = sectionOf(html, "template--24000000000004__main-cart");
    expect(cart).toContain('data-cart-section="template--24000000000004__main-cart"');
    expect(cart).toContain('<form method="post" action="/cart" id="CartForm"');
    expect(cart.match(/<li class="cart-line" id="CartItem-\d"/g)).toHaveLength(2);
    const board = filled.catalog.snowboard.variants[1];
    expect(cart).toContain(`data-line-key="${board?.id}:1abc"`);
    expect(cart).toContain('<a class="cart-line__title" href="');
    expect(cart).toContain(">Purchase protection</a>");
    // Private properties (the plan's reference) stay out of the buyer's view, as on Shopify.
    expect(cart).not.toContain("_svc_protected_product_ref");
    expect(cart.match(/name="updates\[\]"\s+value="2"/g)).toHaveLength(2);
    expect(cart).toContain("€1,148.00 EUR"); // 2 × 549.00 + 2 × 25.00
    expect(cart).toMatch(/type="submit" name="checkout"/);
    // The cart page is the cart: no drawer over it.
    expect(html).not.toContain("shopify-section-cart-drawer");
    expect(html).not.toContain("data-cart-drawer-open");
  });

  it("renders the index and the catalogue with the listed products only, and 404 for others", async () => {
    const { app, catalog } = await storefront();
    for (const url of ["/", "/collections/all"]) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expectCleanPage(response.body);
      expect(response.body).toContain(`href="/products/${catalog.snowboard.handle}"`);
      expect(response.body).toContain("From €499.00");
      expect(response.body).not.toContain(catalog.draft.title);
      expect(response.body).not.toContain(catalog.plan.title);
    }
    for (const handle of ["no-such-board", catalog.draft.handle, catalog.plan.handle]) {
      const missing = await app.inject(`/products/${handle}`);
      expect(missing.statusCode).toBe(404);
      expectCleanPage(missing.body);
      expect(missing.body).toContain("Page not found");
    }
  });
});

describe("the basic theme's sections (Section Rendering API)", () => {
  it("answers ?sections= with the cart's sections, null for an unknown one", async () => {
    const { app } = await storefront({ filledCart: true });
    const response = await app.inject(
      "/cart?sections=cart-drawer,cart-icon-bubble,template--24000000000004__main-cart,nope",
    );
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, string | null>>();
    expect(body["cart-drawer"]).toMatch(
      /^<div id="shopify-section-cart-drawer" class="shopify-section">/,
    );
    expect(body["cart-drawer"]).toContain('id="CartDrawer-Item-2"');
    expect(body["cart-icon-bubble"]).toContain(
      '<span class="cart-count" aria-hidden="true">4</span>',
    );
    expect(body["cart-icon-bubble"]).toContain("4 items in your cart");
    expect(body["template--24000000000004__main-cart"]).toMatch(
      /^<section id="shopify-section-template--24000000000004__main-cart" class="shopify-section section section-main-cart">/,
    );
    expect(body.nope).toBeNull();
  });

  it("renders the cart API's sections through renderSections for the basic theme", async () => {
    const state = new StoreState();
    const catalog = seedCatalog(state);
    const request = (filled: boolean): StorefrontRequest => ({
      shop: catalog.shop,
      products: storefrontProducts(state, catalog.shop),
      cart: fixedCarts(catalog, filled).cartJson(catalog.shop, "t"),
      url: `/products/${catalog.snowboard.handle}`,
      locale: "en",
      app: { block: true, embed: true, theme: "basic" },
    });
    const filled = await renderSections(request(true), ["cart-drawer", "cart-icon-bubble"]);
    expect(filled["cart-drawer"]).toContain("Purchase protection");
    expect(filled["cart-icon-bubble"]).toContain("cart-count");
    const empty = await renderSections(request(false), ["cart-drawer", "cart-icon-bubble"]);
    expect(empty["cart-drawer"]).toContain("Your cart is empty.");
    expect(empty["cart-icon-bubble"]).not.toContain("cart-count");
    expect(empty["cart-icon-bubble"]).toContain("No items in your cart");
  });

  it("answers ?section_id= with one section alone, 404 for an unknown one", async () => {
    const { app, catalog } = await storefront();
    const main = await app.inject(
      `/products/${catalog.snowboard.handle}?section_id=template--24000000000002__main`,
    );
    expect(main.statusCode).toBe(200);
    expect(main.body).toMatch(/^<section id="shopify-section-template--24000000000002__main"/);
    expect(main.body).toContain("data-svc-offer");
    expect(main.body).not.toContain("<html");
    expect((await app.inject("/?section_id=no-such-section")).statusCode).toBe(404);
  });

  it("serves its assets and none from outside its assets folder", async () => {
    const { app } = await storefront();
    const script = await app.inject("/cdn/shop/t/1/assets/theme.js?v=1");
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toContain("javascript");
    expect(script.body).toContain("cart/change.js");
    expect((await app.inject("/cdn/shop/t/1/assets/theme.css")).statusCode).toBe(200);
    expect((await app.inject("/cdn/shop/t/1/assets/../config/settings_data.json")).statusCode).toBe(
      404,
    );
  });
});

describe("the basic theme's Liquid", () => {
  const state = new StoreState();
  const catalog = seedCatalog(state);
  const request: StorefrontRequest = {
    shop: catalog.shop,
    products: storefrontProducts(state, catalog.shop),
    cart: fixedCarts(catalog, false).cartJson(catalog.shop, "t"),
    url: "/",
    locale: "en",
    app: { block: true, embed: true, theme: "basic" },
  };
  const basic = themeNamed("basic");

  it("fails loudly on an unknown filter and a missing translation, and translates plurals", async () => {
    await expect(basic.renderLiquid(request, "{{ 'x' | no_such_filter }}")).rejects.toThrow(
      /no_such_filter/,
    );
    await expect(basic.renderLiquid(request, "{{ 'cart.no_such_key' | t }}")).rejects.toThrow(
      /Translation missing: en\.cart\.no_such_key \(Basic\)/,
    );
    expect(await basic.renderLiquid(request, "{{ 'header.cart_count' | t: count: 1 }}")).toBe(
      "1 item in your cart",
    );
    expect(await basic.renderLiquid(request, "{{ 'header.cart_count' | t: count: 3 }}")).toBe(
      "3 items in your cart",
    );
  });

  it("has every schema's t: label in its schema locale", () => {
    const locale = readThemeJson(path.join(BASIC_THEME_DIR, "locales/en.default.schema.json"));
    const labels: string[] = [];
    const collect = (value: unknown) => {
      if (typeof value === "string" && value.startsWith("t:")) labels.push(value.slice(2));
      else if (Array.isArray(value)) value.forEach(collect);
      else if (typeof value === "object" && value !== null) Object.values(value).forEach(collect);
    };
    const sections = path.join(BASIC_THEME_DIR, "sections");
    for (const file of readdirSync(sections)) {
      const text = readFileSync(path.join(sections, file), "utf8");
      collect(file.endsWith(".json") ? JSON.parse(text) : schemaOf(text, file));
    }
    collect(readThemeJson(path.join(BASIC_THEME_DIR, "config/settings_schema.json")));
    expect(labels.length).toBeGreaterThan(20);
    expect(labels.filter((key) => typeof lookupTranslation(locale, key) !== "string")).toEqual([]);
  });
});

describe("which theme the store renders", () => {
  const themes = mkdtempSync(path.join(tmpdir(), "svc-themes-"));
  afterAll(() => rmSync(themes, { recursive: true, force: true }));

  it("renders the basic theme without SHOPIFY_THEMES_DIR, and never looks beside the clone", () => {
    expect(defaultThemeName({})).toBe("basic");
    expect(themeDirOf("basic", {})).toBe(BASIC_THEME_DIR);
    expect(() => themeDirOf("dawn", {})).toThrow(
      "Dawn not found: set SHOPIFY_THEMES_DIR to a folder holding dawn/",
    );
    expect(describeStorefrontTheme({})).toMatch(/^the basic theme \(store\/themes\/basic\)/);
  });

  it("renders Dawn from SHOPIFY_THEMES_DIR when it holds dawn/, and refuses one that does not", () => {
    expect(() => defaultThemeName({ SHOPIFY_THEMES_DIR: themes })).toThrow(
      `SHOPIFY_THEMES_DIR=${themes} holds no Dawn`,
    );
    mkdirSync(path.join(themes, "dawn/layout"), { recursive: true });
    writeFileSync(path.join(themes, "dawn/layout/theme.liquid"), "");
    const env = { SHOPIFY_THEMES_DIR: themes };
    expect(defaultThemeName(env)).toBe("dawn");
    expect(themeDirOf("dawn", env)).toBe(path.join(themes, "dawn"));
    expect(describeStorefrontTheme(env)).toBe(`Shopify's Dawn from ${path.join(themes, "dawn")}`);
  });
});
