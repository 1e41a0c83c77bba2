import { readFileSync } from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { StoreShop } from "../model";
import type { StoreState } from "../state";
import { adminHostParameter, SHOP_OWNER_USER_ID } from "../server/oauth";
import { mintSessionToken } from "../server/session-token";
import { storefrontShopOf } from "./contract";
import { renderAdminNotice, renderAdminShell, type AdminShellConfig } from "./admin/shell-page";
import { LOCAL_APP_BRIDGE_PATH } from "../../app/lib/local-admin";

/*
 * The embedded admin of the local store (issue 18, decision 030): `/admin/apps/<handle>[/<path>]`
 * is Shopify's admin page around the app's iframe, for the shop the storefront serves. The frame
 * loads the installed app's URL with embedded=1, shop, host, locale and a session token signed
 * with the app's secret; the App Bridge stand-in inside it (admin/app-bridge.js, served where the
 * app looks for it when it runs against this store) asks the page for fresh tokens, which the
 * store mints here. A development and test tool: the app never points at a store in production.
 */

/** Where the app looks for App Bridge when it runs against a local store (app/lib/local-admin.ts). */
export const APP_BRIDGE_PATH = LOCAL_APP_BRIDGE_PATH;
export const APP_BRIDGE_FILE = path.join(import.meta.dirname, "admin", "app-bridge.js");
const SHELL_SCRIPT_FILE = path.join(import.meta.dirname, "admin", "shell.js");
const SHELL_STYLE_FILE = path.join(import.meta.dirname, "admin", "shell.css");

export interface EmbeddedAdminDeps {
  state: StoreState;
  /** shopify.app.toml's `handle`: the only app this store's admin knows. */
  appHandle: string;
  /** The app's name in the navigation (the handle when not given). */
  appName?: string;
  /** The shop whose admin this is (as the storefront's: the first shop created by default). */
  storefrontShop?: string;
  now: () => Date;
}

interface AppParams {
  handle: string;
  "*"?: string;
}

/** Where the merchant lands in the app: the app's URL plus the admin URL's path after the handle. */
export function appFrameUrl(input: {
  shop: StoreShop;
  subpath: string;
  query: URLSearchParams;
  locale: string;
  idToken: string;
}): string {
  const base = input.shop.app.url.replace(/\/+$/, "");
  const url = new URL(`${base}/${input.subpath.replace(/^\/+/, "")}`);
  for (const [name, value] of input.query) url.searchParams.append(name, value);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", input.shop.domain);
  url.searchParams.set("host", adminHostParameter(input.shop.domain));
  url.searchParams.set("locale", input.locale);
  url.searchParams.set("id_token", input.idToken);
  return url.toString();
}

/** The shape Shopify's resource picker answers, for the shop's products or their variants. */
export function resourcePickerItems(
  shop: StoreShop,
  products: readonly StoreProductLike[],
  type: string,
) {
  const price = (minor: number) =>
    (minor / 10 ** shop.currencyDecimals).toFixed(shop.currencyDecimals);
  const listed = products.filter((product) => product.status !== "ARCHIVED");
  if (type === "variant") {
    return listed.flatMap((product) =>
      product.variants.map((variant) => ({
        id: `gid://shopify/ProductVariant/${variant.id}`,
        title: variant.title,
        displayName: `${product.title} - ${variant.title}`,
        price: price(variant.price),
        product: { id: `gid://shopify/Product/${product.id}`, title: product.title },
      })),
    );
  }
  return listed.map((product) => ({
    id: `gid://shopify/Product/${product.id}`,
    title: product.title,
    handle: product.handle,
    variants: product.variants.map((variant) => ({
      id: `gid://shopify/ProductVariant/${variant.id}`,
      title: variant.title,
      price: price(variant.price),
    })),
  }));
}

type StoreProductLike = ReturnType<StoreState["products"]>[number];

function localeOf(request: FastifyRequest): string {
  const value = (request.query as Record<string, unknown>).locale;
  return typeof value === "string" && /^[a-z]{2}(-[A-Z]{2})?$/.test(value) ? value : "en";
}

function queryWithout(request: FastifyRequest, names: string[]): URLSearchParams {
  const search = new URLSearchParams(request.url.split("?")[1] ?? "");
  for (const name of names) search.delete(name);
  return search;
}

/** The page's own origin, as the browser sees it (a request from the admin page has it). */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return origin === undefined || origin === `${request.protocol}://${request.headers.host}`;
}

export async function registerEmbeddedAdmin(
  app: FastifyInstance,
  deps: EmbeddedAdminDeps,
): Promise<void> {
  const appBridge = readFileSync(APP_BRIDGE_FILE, "utf8");
  const shellScript = readFileSync(SHELL_SCRIPT_FILE, "utf8");
  const shellStyle = readFileSync(SHELL_STYLE_FILE, "utf8");
  const appName = deps.appName ?? deps.appHandle;
  const shopOf = () => storefrontShopOf(deps.state.shops(), deps.storefrontShop);
  const tokenFor = (shop: StoreShop) =>
    mintSessionToken({
      shop: shop.domain,
      apiKey: shop.app.apiKey,
      apiSecret: shop.app.apiSecret,
      userId: SHOP_OWNER_USER_ID,
      now: deps.now(),
    });

  /** The shop whose app can be opened, or the page that says why not. */
  function installedShop(
    request: FastifyRequest<{ Params: AppParams }>,
    reply: FastifyReply,
  ): StoreShop | undefined {
    const notice = (status: number, title: string, lines: string[]) => {
      void reply
        .code(status)
        .type("text/html; charset=utf-8")
        .send(renderAdminNotice({ style: shellStyle, title, lines, shopName: shop?.name }));
      return undefined;
    };
    const shop = shopOf();
    if (request.params.handle !== deps.appHandle)
      return notice(404, "No such app", [
        `This store's admin has one app, ${deps.appHandle} (shopify.app.toml's handle): open /admin/apps/${deps.appHandle}.`,
      ]);
    if (!shop)
      return notice(404, "No shop yet", [
        deps.storefrontShop === undefined
          ? "The store has no shop. Create one with POST /__store/shops (store/README.md)."
          : `The store has no shop ${deps.storefrontShop}. Create it with POST /__store/shops.`,
      ]);
    if (!shop.installation)
      return notice(409, `${appName} is not installed`, [
        `${shop.name} (${shop.domain}) has not installed ${appName}.`,
        `Install it with POST /__store/shops/${shop.domain}/install (the app must be running at ${shop.app.url}), then reload this page.`,
      ]);
    return shop;
  }

  app.get(APP_BRIDGE_PATH, async (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("Cache-Control", "no-cache")
      .send(appBridge),
  );

  app.get("/admin", async (_request, reply) => reply.redirect(`/admin/apps/${deps.appHandle}`));

  const shell = async (request: FastifyRequest<{ Params: AppParams }>, reply: FastifyReply) => {
    const shop = installedShop(request, reply);
    if (!shop) return reply;
    const locale = localeOf(request);
    const subpath = request.params["*"] ?? "";
    const config: AdminShellConfig = {
      handle: deps.appHandle,
      appName,
      shop: shop.domain,
      shopName: shop.name,
      adminBase: `/admin/apps/${deps.appHandle}`,
      appOrigin: new URL(shop.app.url).origin,
      appBase: shop.app.url.replace(/\/+$/, ""),
      host: adminHostParameter(shop.domain),
      locale,
      frameUrl: appFrameUrl({
        shop,
        subpath,
        query: queryWithout(request, ["locale"]),
        locale,
        idToken: tokenFor(shop).token,
      }),
    };
    return reply
      .type("text/html; charset=utf-8")
      .header("Cache-Control", "no-store")
      .send(renderAdminShell({ config, style: shellStyle, script: shellScript }));
  };
  app.get("/admin/apps/:handle", shell);
  app.get("/admin/apps/:handle/*", shell);

  app.post<{ Params: AppParams }>("/admin/apps/:handle/session-token", async (request, reply) => {
    if (!sameOrigin(request))
      return reply.code(403).send({ error: "forbidden", message: "Only the admin page asks" });
    const shop = shopOf();
    if (request.params.handle !== deps.appHandle || !shop?.installation)
      return reply.code(404).send({ error: "not_found", message: "The app is not installed" });
    const { token, claims } = tokenFor(shop);
    return reply.header("Cache-Control", "no-store").send({ token, expiresAt: claims.exp });
  });

  app.post<{ Params: AppParams }>("/admin/apps/:handle/resource-picker", async (request, reply) => {
    if (!sameOrigin(request))
      return reply.code(403).send({ error: "forbidden", message: "Only the admin page asks" });
    const shop = shopOf();
    if (request.params.handle !== deps.appHandle || !shop)
      return reply.code(404).send({ error: "not_found", message: "No such app or shop" });
    const body = (request.body ?? {}) as { type?: unknown };
    const type = body.type === "variant" ? "variant" : "product";
    return reply.send({
      type,
      items: resourcePickerItems(shop, deps.state.products(shop.domain), type),
    });
  });
}
