import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  applyCartAction,
  Cart,
  CartError,
  readCartParams,
  type AjaxCartAction,
  type CartLine,
  readShop,
  type ShopData,
  type ShopProduct,
} from "./cart";
import {
  blockSettings,
  extensionDir,
  extensionLiquid,
  readBlockSchema,
  themeDir,
  themeLiquid,
} from "./liquid";

/*
 * A local storefront: a small Dawn-like theme (or a theme that adds to the cart with fetch
 * only) with the extension's real Liquid blocks, its assets, Shopify's Ajax Cart API and the
 * Section Rendering API, and /apps/svc/* handed to an app proxy function.
 */

export type ThemeKind = "dawn" | "native" | "fetch";
export type AppProxy = (request: Request, subpath: string) => Promise<Response>;

export interface StorefrontSettings {
  moneyFormat: string;
  /** The app embed "Protection cart rules" is on. */
  embed: boolean;
  /** The app block "Protection offer" is on the product template. */
  block: boolean;
  offerInCart: boolean;
  /** Holds every /apps/svc request this long first: a slow proxy. */
  proxyDelayMs: number;
  /** /apps/svc answers 502, as Shopify does when the app is down. */
  proxyDown: boolean;
}

export interface Storefront {
  url: string;
  shop: ShopData;
  settings: StorefrontSettings;
  /** Carts by token, the `cart` cookie of each browser context. */
  carts: Map<string, Cart>;
  /** Every /apps/svc request the storefront made, in order. */
  proxyRequests: { method: string; path: string; query: URLSearchParams; body?: unknown }[];
  /** Answers /apps/svc instead of the app, when set: a proxy that misbehaves on purpose. */
  proxyOverride?: AppProxy;
  /** Product metafields by product ID, namespace and key, as Liquid reads them. */
  metafields: ProductMetafields;
  /** Shopify's Admin API `metafieldsSet` on this shop's products: its answer's `data`. */
  metafieldsSet(inputs: MetafieldInput[]): unknown;
  close(): Promise<void>;
}

const SECTION_FILES: Record<string, string> = {
  "cart-drawer": "sections/cart-drawer",
  "cart-icon-bubble": "sections/cart-icon-bubble",
  "mini-cart": "sections/mini-cart",
  "template--1__cart-items": "sections/main-cart-items",
  "template--1__cart-footer": "sections/main-cart-footer",
};

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

export type MetafieldInput = {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
};
export type ProductMetafields = Map<
  number,
  Record<string, Record<string, { type: string; value: string }>>
>;

export async function startStorefront(proxy: AppProxy): Promise<Storefront> {
  const shop = readShop();
  const settings: StorefrontSettings = {
    moneyFormat: shop.shop.money_format,
    embed: true,
    block: true,
    offerInCart: false,
    proxyDelayMs: 0,
    proxyDown: false,
  };
  const carts = new Map<string, Cart>();
  const proxyRequests: Storefront["proxyRequests"] = [];
  const metafields: ProductMetafields = new Map();

  const server = createServer((incoming, outgoing) => {
    handle(incoming, outgoing).catch((error: unknown) => {
      console.error("storefront harness:", error);
      if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end(String(error));
    });
  });

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse) {
    const request = await toRequest(incoming);
    const url = new URL(request.url);
    const cookies = parseCookies(request.headers.get("cookie"));
    const send = async (response: Response, setCookies: string[] = []) => {
      const headers: Record<string, string | string[]> = Object.fromEntries(response.headers);
      if (setCookies.length) headers["set-cookie"] = setCookies;
      outgoing.writeHead(response.status, headers);
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    };

    if (url.pathname.startsWith("/extensions/svc-protection/assets/")) {
      return send(await asset(path.join(extensionDir, "assets"), url.pathname));
    }
    if (url.pathname.startsWith("/theme/assets/")) {
      return send(await asset(path.join(themeDir, "assets"), url.pathname));
    }
    if (url.pathname.startsWith("/apps/svc/")) {
      const subpath = url.pathname.slice("/apps/svc/".length);
      proxyRequests.push({
        method: request.method,
        path: subpath,
        query: url.searchParams,
        ...(request.method === "POST" ? { body: parseJson(await request.clone().text()) } : {}),
      });
      // The set-up in force when the request arrived answers it, even after a delay: a request a
      // slow-proxy test held back must not reach the next test's proxy.
      const answer = storefront.proxyOverride ?? proxy;
      const { proxyDelayMs, proxyDown } = settings;
      if (proxyDelayMs > 0) await delay(proxyDelayMs);
      if (proxyDown) return send(new Response("<h1>Bad gateway</h1>", { status: 502 }));
      return send(await answer(request, subpath));
    }

    const setCookies: string[] = [];
    let cart = carts.get(cookies.cart ?? "");
    if (!cart) {
      cart = new Cart(shop);
      carts.set(cart.token, cart);
      setCookies.push(`cart=${cart.token}; Path=/; SameSite=Lax`);
    }
    const locale = /^\/de(\/|$)/.test(url.pathname) ? "de" : "en";
    const pathname = locale === "de" ? url.pathname.slice(3) || "/" : url.pathname;
    const theme = (
      ["dawn", "native", "fetch"].includes(cookies.harness_theme ?? "")
        ? cookies.harness_theme
        : "dawn"
    ) as ThemeKind;
    const page = new Page(shop, settings, cart, locale, theme, metafields);

    const cartAction = /^\/cart\/(add|change|update|clear)(\.js)?$/.exec(pathname);
    if (cartAction) {
      const [, action, js] = cartAction;
      const wantsJson =
        js !== undefined ||
        request.headers.get("x-requested-with") === "XMLHttpRequest" ||
        /json|javascript/.test(request.headers.get("accept") ?? "");
      let params: Record<string, unknown>;
      try {
        params = await readCartParams(request);
      } catch {
        return send(
          Response.json({ status: 400, message: "Bad request" }, { status: 400 }),
          setCookies,
        );
      }
      let added: CartLine[];
      try {
        added = applyCartAction(cart, action as AjaxCartAction, params);
      } catch (error) {
        if (!(error instanceof CartError)) throw error;
        return send(Response.json(error.body, { status: error.httpStatus }), setCookies);
      }
      if (!wantsJson) {
        const returnTo = typeof params.return_to === "string" ? params.return_to : undefined;
        return send(redirect(returnTo ?? page.routes.cart_url), setCookies);
      }
      let body: Record<string, unknown>;
      if (action === "add") {
        const lines = added.map((line) => cart.lineJson(line));
        body = "items" in params || lines.length !== 1 ? { items: lines } : { ...lines[0] };
      } else body = cart.toJSON();
      const sections = sectionList(params.sections);
      if (sections.length) body.sections = await page.sections(sections);
      return send(Response.json(body), setCookies);
    }

    if (pathname === "/cart.js") return send(Response.json(cart.toJSON()), setCookies);

    const sections = url.searchParams.get("sections");
    if (request.method === "GET" && sections !== null) {
      return send(Response.json(await page.sections(sectionList(sections))), setCookies);
    }

    const productMatch = /^\/products\/([\w-]+)$/.exec(pathname);
    const product = productMatch && shop.products.find((p) => p.handle === productMatch[1]);
    if (product) {
      const html = await page.productPage(product, url.searchParams.get("variant"));
      return send(htmlResponse(html), setCookies);
    }
    if (pathname === "/cart") return send(htmlResponse(await page.cartPage()), setCookies);
    if (pathname === "/") return send(htmlResponse(await page.homePage()), setCookies);
    return send(new Response("Not found", { status: 404 }), setCookies);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const storefront: Storefront = {
    url: `http://127.0.0.1:${port}`,
    shop,
    settings,
    carts,
    proxyRequests,
    metafields,
    metafieldsSet: (inputs) => metafieldsSet(shop, metafields, inputs),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return storefront;
}

/**
 * `metafieldsSet` as Shopify answers it (its `data`): every input is stored, or none when one
 * names a product the shop does not have. The `$app` namespace is kept as written; Shopify
 * resolves it to the app's reserved one, and Liquid's `$app` reads the same.
 */
function metafieldsSet(shop: ShopData, metafields: ProductMetafields, inputs: MetafieldInput[]) {
  const userErrors = inputs.flatMap((input, index) => {
    const id = Number(/^gid:\/\/shopify\/Product\/(\d+)$/.exec(input.ownerId)?.[1]);
    if (shop.products.some((product) => product.id === id)) return [];
    return [
      {
        field: ["metafields", String(index), "ownerId"],
        message: "Owner does not exist.",
        code: "INVALID",
      },
    ];
  });
  if (userErrors.length) return { metafieldsSet: { metafields: [], userErrors } };
  for (const input of inputs) {
    const id = Number(input.ownerId.split("/").pop());
    const product = metafields.get(id) ?? {};
    product[input.namespace] = {
      ...product[input.namespace],
      [input.key]: { type: input.type, value: input.value },
    };
    metafields.set(id, product);
  }
  const updatedAt = new Date().toISOString();
  return {
    metafieldsSet: {
      metafields: inputs.map(({ key, namespace }) => ({ key, namespace, updatedAt })),
      userErrors: [],
    },
  };
}

/** A product's metafields as Liquid sees them: a JSON value is parsed. */
function liquidMetafields(stored: ProductMetafields, productId: number) {
  return Object.fromEntries(
    Object.entries(stored.get(productId) ?? {}).map(([namespace, keys]) => [
      namespace,
      Object.fromEntries(
        Object.entries(keys).map(([key, { type, value }]) => [
          key,
          { type, value: type === "json" ? (JSON.parse(value) as unknown) : value },
        ]),
      ),
    ]),
  );
}

/** One storefront request's rendering context: shop, cart, locale, theme. */
class Page {
  readonly routes;

  constructor(
    private readonly shop: ShopData,
    private readonly settings: StorefrontSettings,
    private readonly cart: Cart,
    private readonly locale: "en" | "de",
    private readonly theme: ThemeKind,
    private readonly metafields: ProductMetafields,
  ) {
    const root = locale === "de" ? "/de/" : "/";
    this.routes = {
      root_url: locale === "de" ? "/de" : "/",
      cart_url: `${root}cart`,
      cart_add_url: `${root}cart/add`,
      cart_change_url: `${root}cart/change`,
    };
  }

  private scope(extra: Record<string, unknown> = {}) {
    return {
      shop: { ...this.shop.shop, money_format: this.settings.moneyFormat },
      cart: { ...this.cart.toJSON(), currency: { iso_code: this.shop.shop.currency } },
      request: { locale: { iso_code: this.locale } },
      routes: this.routes,
      theme_kind: this.theme,
      ...extra,
    };
  }

  async sections(ids: string[]): Promise<Record<string, string | null>> {
    const rendered: Record<string, string | null> = {};
    for (const id of ids) {
      const file = SECTION_FILES[id];
      rendered[id] = file ? await this.section(id, file) : null;
    }
    return rendered;
  }

  private async section(id: string, file: string): Promise<string> {
    const html = await themeLiquid.renderFile(file, this.scope({ section: { id } }));
    return `<div id="shopify-section-${id}" class="shopify-section">${html}</div>`;
  }

  private async layout(title: string, content: string): Promise<string> {
    const head: string[] = [];
    const embeds: string[] = [];
    const assets = new Set<string>();
    const loadAssets = (block: string) => {
      const schema = readBlockSchema(block);
      for (const [name, tag] of [
        [schema.stylesheet, (href: string) => `<link rel="stylesheet" href="${href}">`],
        [schema.javascript, (src: string) => `<script src="${src}" defer></script>`],
      ] as const) {
        if (!name || assets.has(name)) continue;
        assets.add(name);
        head.push(tag(`/extensions/svc-protection/assets/${name}`));
      }
    };
    if (this.settings.block && content.includes("data-svc-offer")) loadAssets("protection-offer");
    if (this.settings.embed) {
      loadAssets("cart-rules");
      embeds.push(
        await extensionLiquid.renderFile(
          "cart-rules",
          this.scope({
            block: {
              id: "AbCdEfEmbed",
              settings: blockSettings("cart-rules", { offer_in_cart: this.settings.offerInCart }),
              shopify_attributes: "",
            },
          }),
        ),
      );
    }
    const shopifyGlobal = {
      shop: this.shop.shop.domain,
      locale: this.locale,
      currency: { active: this.shop.shop.currency, rate: "1.0" },
      routes: { root: this.locale === "de" ? "/de/" : "/" },
    };
    const contentForHeader = [
      `<script>window.Shopify = ${JSON.stringify(shopifyGlobal)};</script>`,
      ...head,
    ].join("\n");
    const drawer =
      this.theme === "fetch"
        ? await this.section("mini-cart", "sections/mini-cart")
        : await themeLiquid.renderFile("sections/cart-drawer", this.scope());
    return themeLiquid.renderFile(
      "layout",
      this.scope({
        page_title: title,
        content_for_header: contentForHeader,
        content_for_layout: content,
        cart_drawer: drawer,
        app_embeds: embeds.join("\n"),
        theme_script: this.theme === "fetch" ? "fetch-theme.js" : "dawn.js",
      }),
    );
  }

  async productPage(product: ShopProduct, variantParam: string | null): Promise<string> {
    const selected =
      product.variants.find((variant) => String(variant.id) === variantParam) ??
      product.variants[0];
    const liquidProduct = {
      ...product,
      selected_or_first_available_variant: selected,
      metafields: liquidMetafields(this.metafields, product.id),
    };
    const appBlock = this.settings.block
      ? await extensionLiquid.renderFile(
          "protection-offer",
          this.scope({
            product: liquidProduct,
            block: {
              id: "AbCdEfOffer",
              settings: blockSettings("protection-offer"),
              shopify_attributes: 'data-shopify-editor-block="{}"',
            },
          }),
        )
      : "";
    const content = await themeLiquid.renderFile(
      "templates/product",
      this.scope({ product: liquidProduct, app_block: appBlock }),
    );
    return this.layout(product.title, content);
  }

  async cartPage(): Promise<string> {
    const content = await themeLiquid.renderFile(
      "templates/cart",
      this.scope({
        main_cart_items: await themeLiquid.renderFile(
          "sections/main-cart-items",
          this.scope({ section: { id: "template--1__cart-items" } }),
        ),
        main_cart_footer: await themeLiquid.renderFile(
          "sections/main-cart-footer",
          this.scope({ section: { id: "template--1__cart-footer" } }),
        ),
      }),
    );
    return this.layout("Cart", content);
  }

  async homePage(): Promise<string> {
    const links = this.shop.products
      .map(
        (p) =>
          `<li><a href="${this.routes.root_url.replace(/\/$/, "")}/products/${p.handle}">${p.title}</a></li>`,
      )
      .join("");
    return this.layout(this.shop.shop.name, `<ul class="page-width">${links}</ul>`);
  }
}

function sectionList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string" && value !== "") return value.split(",").map((id) => id.trim());
  return [];
}

async function toRequest(incoming: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = incoming.method ?? "GET";
  return new Request(`http://${incoming.headers.host ?? "127.0.0.1"}${incoming.url ?? "/"}`, {
    method,
    headers,
    ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
  });
}

function parseCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name) cookies[name] = decodeURIComponent(value.join("="));
  }
  return cookies;
}

async function asset(dir: string, pathname: string): Promise<Response> {
  const name = path.basename(decodeURIComponent(pathname));
  try {
    const body = await readFile(path.join(dir, name));
    return new Response(body, {
      headers: {
        "content-type": CONTENT_TYPES[path.extname(name)] ?? "application/octet-stream",
        "cache-control": "no-cache",
      },
    });
  } catch {
    return new Response("Not found", { status: 404 });
  }
}

const htmlResponse = (html: string) =>
  new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });

const redirect = (location: string) => new Response(null, { status: 302, headers: { location } });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
