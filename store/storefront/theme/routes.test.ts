import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { StoreState } from "../../state";
import { storefrontShopOf, type StorefrontRequest } from "../contract";
import { OFFER_BLOCK_ID } from "./editor";
import { optionValueId } from "./objects";
import { dawnTheme, registerThemeRoutes, renderSections, storefrontProducts } from "./routes";
import { fixedCarts, seedCatalog, type TestCatalog } from "./test-shop";
import { DAWN_DIR, describeWithDawn } from "./with-dawn";

interface Harness {
  app: FastifyInstance;
  catalog: TestCatalog;
  state: StoreState;
}

const open: FastifyInstance[] = [];

async function storefront(
  options: {
    filledCart?: boolean;
    block?: boolean;
    embed?: boolean;
    cartType?: StorefrontRequest["app"]["cartType"];
    theme?: StorefrontRequest["app"]["theme"];
  } = {},
): Promise<Harness> {
  const state = new StoreState();
  const catalog = seedCatalog(state);
  const app = Fastify();
  await registerThemeRoutes(app, {
    state,
    storefrontShop: () => storefrontShopOf(state.shops(), undefined),
    carts: fixedCarts(catalog, options.filledCart ?? false),
    app: () => ({
      block: options.block ?? true,
      embed: options.embed ?? true,
      theme: options.theme ?? "dawn",
      ...(options.cartType ? { cartType: options.cartType } : {}),
    }),
  });
  open.push(app);
  return { app, catalog, state };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((app) => app.close()));
});

beforeAll(() => {
  // Parse Dawn once up front so the first test's timeout is not spent on it.
  if (DAWN_DIR !== undefined) dawnTheme();
});

function expectCleanPage(html: string) {
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).not.toMatch(/Liquid error|Translation missing|undefined filter/i);
  expect(html).toContain("window.Shopify");
  expect(html).toContain('Shopify.routes.root = "/"');
}

describeWithDawn("Dawn's pages", () => {
  it("renders the product page with our block in the product form area and the embed before </body>", async () => {
    const { app, catalog } = await storefront();
    const response = await app.inject(`/products/${catalog.snowboard.handle}`);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expectCleanPage(html);
    expect(html).toContain("<title>");
    expect(html).toContain("Hydrogen Snowboard");
    expect(html).toContain("€499,00".replace(",", "."));
    // The block sits in main-product's info column, before the buy buttons' product form.
    const offer = html.indexOf("data-svc-offer");
    const form = html.indexOf('action="/cart/add" id="product-form-template--');
    expect(offer).toBeGreaterThan(html.indexOf('id="shopify-section-template--'));
    expect(offer).toBeLessThan(form);
    expect(html).toContain(`data-product-id="${catalog.snowboard.id}"`);
    expect(html).toContain(`data-variant-id="${catalog.snowboard.variants[0]?.id}"`);
    expect(html).toContain('data-money-format="€{{amount}}"');
    expect(html).toContain("Protect your purchase");
    expect(html).toMatch(
      /<script src="\/cdn\/shop\/extensions\/svc-protection\/assets\/svc-offer\.min\.js\?v=\w+" defer="defer"><\/script>/,
    );
    // The offer's styles come inline with the block, not as a stylesheet in the head.
    expect(html.slice(html.indexOf("</head>"))).toMatch(/<style>\s*\.svc-offer \{/);
    expect(html).not.toMatch(/<link[^>]+svc-protection/);
    const embed = html.indexOf("data-svc-cart-rules");
    expect(embed).toBeGreaterThan(html.indexOf("data-svc-offer"));
    expect(html.slice(embed)).toMatch(/^[^]*<\/div>\s*<\/body>/);
    // Shopify's product form, and Dawn's variant input
    expect(html).toMatch(
      /<form method="post" action="\/cart\/add" id="product-form-template--\d+__main" accept-charset="UTF-8" class="form" enctype="multipart\/form-data" novalidate="novalidate" data-type="add-to-cart-form"><input type="hidden" name="form_type" value="product" \/><input type="hidden" name="utf8" value="✓" \/>/,
    );
    expect(html).toContain(
      'class="shopify-section shopify-section-group-header-group section-header"',
    );
    expect(html).toContain("/cdn/shop/t/1/compiled_assets/scripts.js");
  });

  it("leaves the block and the embed out when the editor's switches are off", async () => {
    const { app, catalog } = await storefront({ block: false, embed: false });
    const html = (await app.inject(`/products/${catalog.snowboard.handle}`)).body;
    expectCleanPage(html);
    expect(html).not.toContain("data-svc-offer");
    expect(html).not.toContain("data-svc-cart-rules");
    expect(html).not.toContain("svc-protection");
  });

  it("renders Dawn's cart notification, or its cart drawer when the editor saved that cart type", async () => {
    const notification = await storefront();
    const page = (
      await notification.app.inject(`/products/${notification.catalog.snowboard.handle}`)
    ).body;
    expect(page).toContain("<cart-notification");
    expect(page).not.toContain("<cart-drawer");
    const drawer = await storefront({ cartType: "drawer" });
    const html = (await drawer.app.inject(`/products/${drawer.catalog.snowboard.handle}`)).body;
    expectCleanPage(html);
    expect(html).toContain("<cart-drawer");
    expect(html).not.toContain("<cart-notification");
    expect(html).toContain("data-svc-cart-rules");
  });

  it("shows the variant that ?variant= and Dawn's ?option_values= select", async () => {
    const { app, catalog } = await storefront();
    const large = catalog.snowboard.variants[1];
    if (!large) throw new Error("no large variant");
    const byId = (await app.inject(`/products/${catalog.snowboard.handle}?variant=${large.id}`))
      .body;
    expect(byId).toContain(`data-variant-id="${large.id}"`);
    expect(byId).toContain("€549.00");
    const valueId = optionValueId(catalog.snowboard.id, "Size", "160 cm");
    const main = (
      await app.inject(
        `/products/${catalog.snowboard.handle}?section_id=template--24000000000002__main&option_values=${valueId}`,
      )
    ).body;
    expect(main).toMatch(
      /^<section id="shopify-section-template--24000000000002__main" class="shopify-section section">/,
    );
    expect(main).toContain(`data-variant-id="${large.id}"`);
    expect(main).not.toContain("<html");
  });

  it("answers 404 with Dawn's 404 page for an unknown or unlisted product", async () => {
    const { app, catalog } = await storefront();
    const unknown = await app.inject("/products/no-such-board");
    expect(unknown.statusCode).toBe(404);
    expectCleanPage(unknown.body);
    expect((await app.inject(`/products/${catalog.draft.handle}`)).statusCode).toBe(404);
    expect((await app.inject(`/products/${catalog.plan.handle}`)).statusCode).toBe(404);
  });

  it("renders the index and the collection with only the listed products", async () => {
    const { app, catalog } = await storefront();
    for (const url of ["/", "/collections/all"]) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expectCleanPage(response.body);
      expect(response.body).toContain(`/products/${catalog.snowboard.handle}`);
      expect(response.body).not.toContain(catalog.draft.title);
      expect(response.body).not.toContain(catalog.plan.title);
    }
  });

  it("renders the cart page empty, and with the cart's lines", async () => {
    const empty = await storefront();
    const emptyHtml = (await empty.app.inject("/cart")).body;
    expectCleanPage(emptyHtml);
    expect(emptyHtml).toContain("Your cart is empty");
    expect(emptyHtml).toMatch(/<cart-items class="[^"]* is-empty"/);

    const filled = await storefront({ filledCart: true });
    const response = await filled.app.inject({
      url: "/cart",
      headers: { cookie: "other=1; cart=abc123" },
    });
    expectCleanPage(response.body);
    expect(response.body).toMatch(
      /<cart-items class="[^"]*section-template--\d+__cart-items-padding"/,
    );
    expect(response.body).not.toMatch(/<cart-items class="[^"]* is-empty"/);
    expect(response.body).toContain("Purchase protection");
    expect(response.body).toContain("Hydrogen Snowboard");
    expect(response.body).toContain("€1,148.00"); // 2 × 549.00 + 2 × 25.00
  });
});

describeWithDawn("Section Rendering API, on Dawn", () => {
  it("answers ?sections= with a JSON map, null for an unknown section", async () => {
    const { app } = await storefront({ filledCart: true });
    const response = await app.inject("/cart?sections=cart-icon-bubble,main-cart-items,nope");
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, string | null>>();
    expect(body["cart-icon-bubble"]).toMatch(
      /^<div id="shopify-section-cart-icon-bubble" class="shopify-section">/,
    );
    expect(body["cart-icon-bubble"]).toContain('<span aria-hidden="true">4</span>');
    expect(body["main-cart-items"]).toContain("cart-items");
    expect(body.nope).toBeNull();
  });

  it("renders the cart API's sections through renderSections, each cart == empty as Shopify", async () => {
    const state = new StoreState();
    const catalog = seedCatalog(state);
    const request = (filled: boolean): StorefrontRequest => ({
      shop: catalog.shop,
      products: storefrontProducts(state, catalog.shop),
      cart: fixedCarts(catalog, filled).cartJson(catalog.shop, "t"),
      url: `/products/${catalog.snowboard.handle}`,
      locale: "en",
      app: { block: true, embed: true, theme: "dawn" },
    });
    const ids = [
      "cart-notification-product",
      "cart-notification-button",
      "cart-icon-bubble",
      "cart-drawer",
      "cart-live-region-text",
      "main-cart-footer",
    ];
    const filled = await renderSections(request(true), ids);
    for (const id of ids) expect(filled[id], id).toContain(`id="shopify-section-${id}"`);
    expect(filled["cart-notification-product"]).toContain("cart-notification-product-");
    expect(filled["cart-notification-product"]).toContain("Purchase protection");
    expect(filled["cart-icon-bubble"]).toContain("cart-count-bubble");
    const empty = await renderSections(request(false), [
      "cart-icon-bubble",
      "cart-notification-product",
    ]);
    expect(empty["cart-icon-bubble"]).not.toContain("cart-count-bubble");
    expect(empty["cart-notification-product"]).not.toContain("cart-item");
  });

  it("answers ?section_id= with the section alone, 404 for an unknown one", async () => {
    const { app } = await storefront();
    const drawer = await app.inject("/?section_id=cart-drawer");
    expect(drawer.statusCode).toBe(200);
    expect(drawer.body).toMatch(/^<div id="shopify-section-cart-drawer" class="shopify-section">/);
    expect((await app.inject("/?section_id=no-such-section")).statusCode).toBe(404);
  });

  it("renders the app block's section with the block id the editor saved", async () => {
    const { app, catalog } = await storefront();
    const main = (
      await app.inject(
        `/products/${catalog.snowboard.handle}?section_id=template--24000000000002__main`,
      )
    ).body;
    expect(main).toContain(`name="svc-plan-${OFFER_BLOCK_ID}"`);
  });
});

describe("product JSON and variants, on any theme", () => {
  it("answers /products/<handle>.js as Shopify's product JSON", async () => {
    const { app, catalog } = await storefront({ theme: "basic" });
    const response = await app.inject(`/products/${catalog.snowboard.handle}.js`);
    expect(response.statusCode).toBe(200);
    const product = response.json<{
      title: string;
      variants: { id: string; price: number; option1: string }[];
      options: { name: string; values: string[] }[];
    }>();
    expect(product.title).toBe("Hydrogen Snowboard");
    expect(product.variants.map((variant) => [variant.option1, variant.price])).toEqual([
      ["150 cm", 49_900],
      ["160 cm", 54_900],
    ]);
    expect(product.options).toEqual([{ name: "Size", position: 1, values: ["150 cm", "160 cm"] }]);
    expect((await app.inject("/products/nothing.js")).statusCode).toBe(404);
  });

  it("redirects /variants/<id> to its product with the query kept", async () => {
    const { app, catalog } = await storefront({ theme: "basic" });
    const large = catalog.snowboard.variants[1];
    const response = await app.inject(`/variants/${large?.id}/?section_id=x`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(
      `/products/${catalog.snowboard.handle}?section_id=x&variant=${large?.id}`,
    );
  });
});

describeWithDawn("Dawn's assets", () => {
  it("serves Dawn's assets, the compiled {% javascript %} and the extension's assets", async () => {
    const { app } = await storefront();
    const global = await app.inject("/cdn/shop/t/1/assets/global.js?v=1");
    expect(global.statusCode).toBe(200);
    expect(global.headers["content-type"]).toContain("javascript");
    const compiled = await app.inject("/cdn/shop/t/1/compiled_assets/scripts.js");
    expect(compiled.body).toContain("StickyHeader");
    const offer = await app.inject("/cdn/shop/extensions/svc-protection/assets/svc-offer.min.js");
    expect(offer.statusCode).toBe(200);
    expect((await app.inject("/cdn/shop/t/1/assets/../config/settings_data.json")).statusCode).toBe(
      404,
    );
    expect((await app.inject("/cdn/shop/t/1/assets/nope.js")).statusCode).toBe(404);
  });
});
