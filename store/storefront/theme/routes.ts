import { readFileSync } from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { StoreState } from "../../state";
import {
  storefrontProducts,
  storefrontRequestOf,
  type CartSource,
  type RenderSections,
  type StoreShop,
  type StorefrontRequest,
} from "../contract";
export { storefrontProducts };
import { appNamespaceOf, productJson } from "./objects";
import { defaultThemeName, type ThemeName } from "./files";
import {
  COMPILED_ASSET_PREFIX,
  EXTENSION_ASSET_PREFIX,
  StorefrontTheme,
  THEME_ASSET_PREFIX,
} from "./theme";

/*
 * The storefront's pages at the root of the store's origin, as Shopify serves a shop at its
 * domain: the published theme's index, product, collection and cart pages, the Section Rendering API on each
 * (`?section_id=`, `?sections=`), /products/<handle>.js, and the theme's and the extension's
 * assets at CDN-like paths.
 */

export interface ThemeRouteDeps {
  state: StoreState;
  storefrontShop: () => StoreShop | undefined;
  carts: CartSource;
  /** The theme editor's switches for our block and embed (both on as the merchant saved them). */
  app: () => StorefrontRequest["app"];
}

const themes = new Map<ThemeName, StorefrontTheme>();

/** A theme, parsed once per process (its templates are cached as they are first rendered). */
export function themeNamed(name: ThemeName): StorefrontTheme {
  let theme = themes.get(name);
  if (!theme) {
    theme = new StorefrontTheme({ name });
    themes.set(name, theme);
  }
  return theme;
}

/** Dawn; throws when SHOPIFY_THEMES_DIR does not give it. */
export const dawnTheme = (): StorefrontTheme => themeNamed("dawn");

/** The theme a request renders: the one the store was told to publish, else the default. */
export function themeOf(app: StorefrontRequest["app"]): StorefrontTheme {
  return themeNamed(app.theme ?? defaultThemeName());
}

/** The cart API's `sections` parameter, answered by the theme's sections (Section Rendering API). */
export const renderSections: RenderSections = (request, sectionIds) =>
  themeOf(request.app).renderSections(request, sectionIds);

export function cartTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie ?? "";
  for (const part of header.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === "cart" && value.length > 0) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? "localhost"}`;
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".gif": "image/gif",
  ".woff2": "font/woff2",
};

function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream";
}

export async function registerThemeRoutes(
  app: FastifyInstance,
  deps: ThemeRouteDeps,
): Promise<void> {
  const theme = () => themeOf(deps.app());

  const storefrontRequest = (request: FastifyRequest, shop: StoreShop): StorefrontRequest =>
    storefrontRequestOf(deps, shop, deps.carts.cartJson(shop, cartTokenOf(request)), request.url);

  const noShop = (reply: FastifyReply) =>
    reply.code(404).type("text/plain; charset=utf-8").send("This store has no shop to show yet");

  /** A page, or only its sections when the theme's JS asks for them by ID. */
  const answerPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const shop = deps.storefrontShop();
    if (!shop) return noShop(reply);
    const storefront = storefrontRequest(request, shop);
    const query = new URL(request.url, "http://storefront.invalid").searchParams;
    const sectionId = query.get("section_id");
    if (sectionId !== null) {
      const answers = await theme().renderSections(storefront, [sectionId], originOf(request));
      const html = answers[sectionId];
      if (html === null || html === undefined)
        return reply.code(404).type("text/plain; charset=utf-8").send(`No section ${sectionId}`);
      return reply.type("text/html; charset=utf-8").send(html);
    }
    const sections = query.get("sections");
    if (sections !== null) {
      const ids = sections.split(",").filter((id) => id !== "");
      return reply.send(await theme().renderSections(storefront, ids, originOf(request)));
    }
    const page = await theme().renderPage(storefront, originOf(request));
    return reply.code(page.status).type("text/html; charset=utf-8").send(page.html);
  };

  app.get("/", answerPage);
  app.get("/cart", answerPage);
  app.get("/collections/:handle", answerPage);
  app.get("/collections/:collection/products/:handle", answerPage);
  app.get("/recommendations/products", answerPage);
  app.get<{ Params: { handle: string } }>("/products/:handle", async (request, reply) => {
    if (!request.params.handle.endsWith(".js")) return answerPage(request, reply);
    const shop = deps.storefrontShop();
    if (!shop) return noShop(reply);
    const handle = request.params.handle.slice(0, -".js".length);
    const product = storefrontProducts(deps.state, shop).find(
      (candidate) => candidate.handle === handle,
    );
    if (!product)
      return reply.code(404).send({ status: 404, message: "Not Found", description: "Not Found" });
    return reply.send(productJson(product, appNamespaceOf(shop)));
  });

  // Shopify redirects a variant's URL to its product's, keeping the query (`section_id`).
  const variantRedirect = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
  ) => {
    const shop = deps.storefrontShop();
    if (!shop) return noShop(reply);
    const id = request.params.id;
    const product = deps.state
      .products(shop.domain)
      .find((candidate) => candidate.variants.some((variant) => variant.id === id));
    if (!product) return reply.code(404).type("text/plain; charset=utf-8").send(`No variant ${id}`);
    const query = new URL(request.url, "http://storefront.invalid").searchParams;
    query.set("variant", id);
    return reply.redirect(`/products/${product.handle}?${query.toString()}`, 302);
  };
  app.get("/variants/:id", variantRedirect);
  app.get("/variants/:id/", variantRedirect);

  const sendAsset =
    (kind: "theme" | "extension") =>
    async (request: FastifyRequest<{ Params: { "*": string } }>, reply: FastifyReply) => {
      const file = request.params["*"];
      let full: string;
      try {
        full = theme().assetPath(kind, file);
      } catch {
        return reply.code(404).type("text/plain; charset=utf-8").send(`No asset ${file}`);
      }
      return reply
        .type(contentTypeOf(file))
        .header("cache-control", "public, max-age=3600")
        .send(readFileSync(full));
    };
  app.get(`${THEME_ASSET_PREFIX}*`, sendAsset("theme"));
  app.get(`${EXTENSION_ASSET_PREFIX}*`, sendAsset("extension"));
  app.get(`${COMPILED_ASSET_PREFIX}scripts.js`, async (_request, reply) =>
    reply.type(contentTypeOf("scripts.js")).send(theme().compiledAssets.scripts),
  );
  app.get(`${COMPILED_ASSET_PREFIX}styles.css`, async (_request, reply) =>
    reply.type(contentTypeOf("styles.css")).send(theme().compiledAssets.styles),
  );
}

/** Carts before the Ajax Cart API has any: every buyer's cart is empty. */
export const emptyCarts: CartSource = {
  cartJson: (shop, token) => ({
    token: token ?? `empty-${shop.id}`,
    note: null,
    attributes: {},
    original_total_price: 0,
    total_price: 0,
    total_discount: 0,
    total_weight: 0,
    item_count: 0,
    items: [],
    requires_shipping: false,
    currency: shop.currency,
    items_subtotal_price: 0,
    cart_level_discount_applications: [],
  }),
};
