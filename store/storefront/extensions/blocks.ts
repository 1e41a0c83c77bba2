import { readFileSync } from "node:fs";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Order, StoreShop } from "../../model";
import type { StoreState } from "../../state";
import { mintCheckoutSessionToken } from "../../server/session-token";
import type { CheckoutHostConfig } from "./host/config";
import {
  DEFAULT_EXTENSIONS_DIR,
  extensionTranslations,
  findUiExtensionTarget,
  UiExtensionBundles,
  type UiExtensionTarget,
} from "./ui-extensions";

/*
 * The app's checkout UI extension blocks on the store's Thank-you page, where Shopify renders
 * them (decision 032). The page gets a slot, an iframe on the store's origin in which the
 * block runs as in Shopify's sandbox: a host script defines the global `shopify` (the order's
 * confirmation, session tokens, i18n), then the extension's own module, bundled from the
 * repository, renders into the frame's body and calls the app at its absolute URL.
 */

export const THANK_YOU_TARGET = "purchase.thank-you.block.render";
const HOST_SCRIPT_PATH = "/extensions/host/checkout.js";
const STAND_IN_STYLES = readFileSync(
  new URL("./host/polaris-stand-in.css", import.meta.url),
  "utf8",
);

export interface CheckoutBlocksDeps {
  state: StoreState;
  storefrontShop: () => StoreShop | undefined;
  now: () => Date;
  /** Where the app's extensions are (the repository's extensions/ by default). */
  extensionsDir?: string;
}

/** What a Thank-you page shows its blocks for. */
export interface ThankYouBlockInput {
  shop: StoreShop;
  checkoutToken: string;
  /** The buyer's language (the storefront's). */
  locale: string;
}

/** The Thank-you page's slot: HTML for the checkout page, empty when it has no block. */
export type ThankYouBlocks = (input: ThankYouBlockInput) => string;

const LOCALE = /^[a-z]{2}(-[A-Z]{2})?$/;

/** The buyer's language from the page's `?locale=`, else the storefront's one locale. */
export function buyerLocaleOf(request: FastifyRequest): string {
  const value = (request.query as Record<string, unknown> | undefined)?.locale;
  return typeof value === "string" && LOCALE.test(value) ? value : "en";
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const framePath = (checkoutToken: string, target: string) =>
  `/checkouts/${encodeURIComponent(checkoutToken)}/blocks/${target}`;
const bundlePath = (extension: UiExtensionTarget) =>
  `/extensions/${extension.handle}/${extension.target}.js`;
export const sessionTokenPath = (checkoutToken: string) =>
  `/checkouts/${encodeURIComponent(checkoutToken)}/session-token`;

/** The order a checkout placed in the shop. */
function orderOfCheckout(state: StoreState, shop: StoreShop, token: string): Order | undefined {
  return state.orders(shop.domain).find((order) => (order.checkoutToken ?? order.token) === token);
}

/** Shopify's confirmation number is a short alphanumeric code; the store derives one. */
function confirmationNumberOf(order: Order): string {
  return order.token
    .replace(/[^0-9a-z]/gi, "")
    .slice(0, 9)
    .toUpperCase();
}

function isFirstOrder(state: StoreState, shop: StoreShop, order: Order): boolean {
  const email = order.customer?.email ?? order.email;
  return !state
    .orders(shop.domain)
    .some(
      (other) =>
        other.id !== order.id &&
        (other.customer?.email ?? other.email) === email &&
        other.createdAt <= order.createdAt,
    );
}

export function hostConfigOf(input: {
  state: StoreState;
  shop: StoreShop;
  order: Order;
  checkoutToken: string;
  extension: UiExtensionTarget;
  locale: string;
}): CheckoutHostConfig {
  const { locale, translations } = extensionTranslations(input.extension, input.locale);
  return {
    target: THANK_YOU_TARGET,
    locale,
    translations,
    currency: input.order.presentmentCurrency,
    orderConfirmation: {
      order: { id: `gid://shopify/OrderIdentity/${input.order.id}` },
      number: confirmationNumberOf(input.order),
      isFirstOrder: isFirstOrder(input.state, input.shop, input.order),
    },
    sessionTokenUrl: sessionTokenPath(input.checkoutToken),
  };
}

function framePage(config: CheckoutHostConfig, extension: UiExtensionTarget): string {
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  // Deferred in order: the host defines `shopify` before the extension's module runs.
  return (
    `<!doctype html><html lang="${escapeHtml(config.locale)}"><head><meta charset="utf-8">` +
    `<style>${STAND_IN_STYLES}</style><script>window.__svcHostConfig = ${json};</script>` +
    `<script src="${HOST_SCRIPT_PATH}" defer></script>` +
    `<script src="${escapeHtml(bundlePath(extension))}" defer></script></head><body></body></html>`
  );
}

/** The page's own origin, as the browser sees it. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return origin === undefined || origin === `${request.protocol}://${request.headers.host}`;
}

/**
 * Registers the blocks' frame, scripts and session tokens, and answers the Thank-you page's
 * slot: shown only when the shop has the app installed and the app has the extension.
 */
export function registerCheckoutBlocks(
  app: FastifyInstance,
  deps: CheckoutBlocksDeps,
): ThankYouBlocks {
  const bundles = new UiExtensionBundles();
  const extensionsDir = deps.extensionsDir ?? DEFAULT_EXTENSIONS_DIR;
  const thankYouExtension = () => findUiExtensionTarget(THANK_YOU_TARGET, extensionsDir);

  /** The checkout's shop, order and block, when the block is shown for it. */
  const blockOf = (token: string) => {
    const shop = deps.storefrontShop();
    const extension = thankYouExtension();
    if (!shop?.installation || !extension) return undefined;
    const order = orderOfCheckout(deps.state, shop, token);
    return order ? { shop, order, extension } : undefined;
  };
  const notFound = { error: "not_found", message: "No block for this checkout" };

  app.get<{ Params: { token: string } }>(
    `/checkouts/:token/blocks/${THANK_YOU_TARGET}`,
    async (request, reply) => {
      const block = blockOf(request.params.token);
      if (!block) return reply.code(404).send(notFound);
      const config = hostConfigOf({
        state: deps.state,
        ...block,
        checkoutToken: request.params.token,
        locale: buyerLocaleOf(request),
      });
      return reply
        .type("text/html; charset=utf-8")
        .header("Cache-Control", "no-store")
        .send(framePage(config, block.extension));
    },
  );

  app.post<{ Params: { token: string } }>(
    "/checkouts/:token/session-token",
    async (request, reply) => {
      if (!sameOrigin(request))
        return reply.code(403).send({ error: "forbidden", message: "Only the checkout asks" });
      const block = blockOf(request.params.token);
      if (!block) return reply.code(404).send(notFound);
      const { app: installed, domain } = block.shop;
      const { token, claims } = mintCheckoutSessionToken({
        shop: domain,
        apiKey: installed.apiKey,
        apiSecret: installed.apiSecret,
        now: deps.now(),
      });
      return reply.header("Cache-Control", "no-store").send({ token, expiresAt: claims.exp });
    },
  );

  app.get(HOST_SCRIPT_PATH, async (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("Cache-Control", "no-cache")
      .send(await bundles.checkoutHost()),
  );

  app.get<{ Params: { handle: string; target: string } }>(
    "/extensions/:handle/:target",
    async (request, reply) => {
      const shop = deps.storefrontShop();
      const target = request.params.target.replace(/\.js$/, "");
      const extension = findUiExtensionTarget(target, extensionsDir);
      if (!shop?.installation || !extension || extension.handle !== request.params.handle)
        return reply.code(404).send({ error: "not_found", message: "No such extension target" });
      return reply
        .type("text/javascript; charset=utf-8")
        .header("Cache-Control", "no-cache")
        .send(await bundles.target(extension, shop.app.url));
    },
  );

  return ({ shop, checkoutToken, locale }) => {
    const extension = thankYouExtension();
    if (!shop.installation || !extension) return "";
    const src = `${framePath(checkoutToken, THANK_YOU_TARGET)}?locale=${encodeURIComponent(locale)}`;
    return (
      `<section id="checkout-blocks" data-target="${THANK_YOU_TARGET}">` +
      `<iframe title="${escapeHtml(extension.handle)}" data-extension="${escapeHtml(extension.handle)}" ` +
      `src="${escapeHtml(src)}" style="border:0;width:100%;height:0;display:block"></iframe></section>`
    );
  };
}
