import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { toShopifyJson, type JsonObject } from "../json";
import type { StoreShop } from "../model";
import type { StoreState } from "../state";
import {
  applyCartAction,
  CartError,
  readCartParams,
  type AjaxCartAction,
  type CartLine,
  type StoreCarts,
} from "./cart";
import { storefrontRequestOf, type RenderSections, type StorefrontRequest } from "./contract";

/*
 * The Ajax Cart API's routes at the storefront's root, as Dawn's JavaScript calls them: GET
 * /cart.js, POST /cart/{add,change,update,clear}(.js), JSON or form bodies, and the Section
 * Rendering API's `sections` parameter, rendered after the change. A plain form post (no .js,
 * no XMLHttpRequest, no JSON accept) is redirected to the cart page, as Shopify does.
 */

export interface CartRoutesDeps {
  state: StoreState;
  storefrontShop: () => StoreShop | undefined;
  carts: StoreCarts;
  renderSections: RenderSections;
  /** The theme editor's switches for the app's block and embed. */
  app: () => StorefrontRequest["app"];
}

export const CART_COOKIE = "cart";
/** Shopify renders at most five sections per request. */
const MAX_SECTIONS = 5;

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (name !== "" && !(name in cookies)) {
      try {
        cookies[name] = decodeURIComponent(value);
      } catch {
        cookies[name] = value;
      }
    }
  }
  return cookies;
}

export function cartCookie(token: string): string {
  return `${CART_COOKIE}=${token}; Path=/; SameSite=Lax`;
}

/** A fastify scope whose bodies stay raw bytes, read as a web Request (cart-routes, checkout). */
export function keepRawBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => {
    done(null, body);
  });
}

/** The fastify request as a web Request, its body the raw bytes. */
export function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const entry of value) headers.append(name, entry);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const body = hasBody && Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : undefined;
  return new Request(`http://${request.headers.host ?? "localhost"}${request.url}`, {
    method: request.method,
    headers,
    ...(body ? { body } : {}),
  });
}

function sectionIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === "string" ? [value] : [];
  const ids = list
    .flatMap((entry) => entry.split(","))
    .map((id) => id.trim())
    .filter(Boolean);
  return [...new Set(ids)].slice(0, MAX_SECTIONS);
}

function wantsJson(request: FastifyRequest, js: boolean): boolean {
  return (
    js ||
    request.headers["x-requested-with"] === "XMLHttpRequest" ||
    /json|javascript/.test(request.headers.accept ?? "")
  );
}

function sendJson(reply: FastifyReply, status: number, text: string) {
  return reply
    .code(status)
    .header("content-type", "application/json; charset=utf-8")
    .header("cache-control", "no-cache, no-store")
    .send(text);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export function registerCartRoutes(app: FastifyInstance, deps: CartRoutesDeps): void {
  void app.register(async (scope) => {
    keepRawBodies(scope);

    const noShop = (reply: FastifyReply) =>
      reply.code(404).type("text/plain").send("This store has no shop for its storefront yet");

    for (const path of ["/cart.js", "/cart.json"]) {
      scope.get(path, async (request, reply) => {
        const shop = deps.storefrontShop();
        if (!shop) return noShop(reply);
        const token = parseCookies(request.headers.cookie)[CART_COOKIE];
        const { cart, created } = deps.carts.open(shop, token);
        if (created) void reply.header("set-cookie", cartCookie(cart.token));
        return sendJson(reply, 200, cart.jsonText());
      });
    }

    // Dawn's cart page and cart notification post their cart form here, "Check out" as
    // `checkout`: Shopify applies the form as /cart/update does, then goes to the checkout.
    scope.post("/cart", async (request, reply) =>
      answerCartAction("update", false, request, reply),
    );

    for (const action of ["add", "change", "update", "clear"] as const) {
      for (const suffix of ["", ".js"]) {
        scope.post(`/cart/${action}${suffix}`, async (request, reply) =>
          answerCartAction(action, suffix === ".js", request, reply),
        );
      }
    }

    async function answerCartAction(
      action: AjaxCartAction,
      js: boolean,
      request: FastifyRequest,
      reply: FastifyReply,
    ) {
      const shop = deps.storefrontShop();
      if (!shop) return noShop(reply);
      const json = wantsJson(request, js);
      const token = parseCookies(request.headers.cookie)[CART_COOKIE];
      const { cart, created } = deps.carts.open(shop, token);
      if (created) void reply.header("set-cookie", cartCookie(cart.token));

      let params: Record<string, unknown>;
      try {
        params = await readCartParams(webRequest(request));
      } catch {
        const error = new CartError(400, "The request body could not be read", "Bad Request");
        return sendError(reply, error, json);
      }
      let added: CartLine[];
      try {
        added = applyCartAction(cart, action, params);
      } catch (error) {
        if (!(error instanceof CartError)) throw error;
        return sendError(reply, error, json);
      }

      if (!json) {
        const returnTo = typeof params.return_to === "string" ? params.return_to : "";
        // Only a path on this storefront, as Shopify refuses open redirects.
        const location =
          "checkout" in params ? "/checkout" : /^\/(?!\/)/.test(returnTo) ? returnTo : "/cart";
        return reply.code(302).header("location", location).send();
      }

      let body: JsonObject;
      if (action === "add") {
        const lines = added.map((line) => cart.lineJsonValue(line));
        const [first] = lines;
        body = "items" in params || lines.length !== 1 || !first ? { items: lines } : first;
      } else body = cart.jsonValue();

      const sections = sectionIds(params.sections);
      if (sections.length > 0) {
        const sectionsUrl =
          typeof params.sections_url === "string" && params.sections_url.startsWith("/")
            ? params.sections_url
            : "/";
        const rendered = await deps.renderSections(
          storefrontRequestOf(deps, shop, cart.toJSON(), sectionsUrl),
          sections,
        );
        body = {
          ...body,
          sections: Object.fromEntries(sections.map((id) => [id, rendered[id] ?? null])),
        };
      }
      return sendJson(reply, 200, toShopifyJson(body));
    }

    function sendError(reply: FastifyReply, error: CartError, json: boolean) {
      if (json) return sendJson(reply, error.httpStatus, JSON.stringify(error.body));
      return reply
        .code(error.httpStatus)
        .type("text/html; charset=utf-8")
        .send(
          `<!doctype html><title>${escapeHtml(error.title)}</title><h1>${escapeHtml(error.title)}</h1>` +
            `<p>${escapeHtml(error.description)}</p><p><a href="/cart">Back to the cart</a></p>`,
        );
    }
  });
}
