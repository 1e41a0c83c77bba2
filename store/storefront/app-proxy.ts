import { createHmac } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { StoreShop } from "../model";
import type { AppProxyConfig } from "../server/app-config";
import { keepRawBodies, webRequest } from "./cart-routes";

/*
 * Shopify's app proxy: the storefront's /<prefix>/<subpath>/<rest> (/apps/svc/plans) goes to the
 * installed app's proxy URL + <rest>, with the storefront's query plus shop,
 * logged_in_customer_id, path_prefix and timestamp, signed with the app's secret. The buyer's
 * cookies stay behind, as Shopify strips them; the app's status, content type and body come back.
 */

/**
 * Shopify's app proxy signature: every query parameter but `signature`, sorted by name, written
 * `name=value` (repeated values joined with ","), concatenated with no separator, HMAC-SHA256 in
 * hex with the app's API secret.
 */
export function appProxySignature(params: URLSearchParams, secret: string): string {
  const values = new Map<string, string[]>();
  for (const [name, value] of params) {
    if (name === "signature") continue;
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  const message = [...values.keys()]
    .sort()
    .map((name) => `${name}=${(values.get(name) ?? []).join(",")}`)
    .join("");
  return createHmac("sha256", secret).update(message).digest("hex");
}

/** Shopify's own parameters: a buyer cannot set them. */
const SHOPIFY_PARAMS = ["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"];

/** The query the app receives: the storefront's, then Shopify's parameters, signed. */
export function signedProxyQuery(
  storefrontQuery: URLSearchParams,
  options: { shop: string; pathPrefix: string; secret: string; customerId?: string; now: Date },
): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of storefrontQuery) {
    if (!SHOPIFY_PARAMS.includes(name)) params.append(name, value);
  }
  params.set("shop", options.shop);
  params.set("logged_in_customer_id", options.customerId ?? "");
  params.set("path_prefix", options.pathPrefix);
  params.set("timestamp", String(Math.floor(options.now.getTime() / 1000)));
  params.set("signature", appProxySignature(params, options.secret));
  return params;
}

/** The app's URL for a proxied path: the app's origin, the proxy URL's path, then the rest. */
export function proxyTarget(appUrl: string, proxyUrl: string, rest: string): URL {
  const app = new URL(appUrl);
  const base = `${app.pathname.replace(/\/$/, "")}${new URL(proxyUrl).pathname.replace(/\/$/, "")}`;
  return new URL(`${base}/${rest.replace(/^\//, "")}`, app.origin);
}

export interface AppProxyDeps {
  storefrontShop: () => StoreShop | undefined;
  config: AppProxyConfig;
  now?: () => Date;
  /** How long the app has to answer; Shopify's gateway gives up after about 10 s. */
  timeoutMs?: number;
}

export const APP_PROXY_TIMEOUT_MS = 10_000;

/** Request headers passed on; cookies and the rest are Shopify's own business. */
const FORWARDED_REQUEST_HEADERS = ["accept", "accept-language", "content-type", "user-agent"];
/** Response headers passed back; never Set-Cookie, which Shopify strips. */
const FORWARDED_RESPONSE_HEADERS = ["content-type", "cache-control", "location"];

function gatewayPage(reply: FastifyReply, status: 502 | 504, message: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(`<!doctype html><title>${status}</title><h1>${status}</h1><p>${message}</p>`);
}

export function registerAppProxy(app: FastifyInstance, deps: AppProxyDeps): void {
  const { prefix, subpath } = deps.config;
  const pathPrefix = `/${prefix}/${subpath}`;
  const now = deps.now ?? (() => new Date());
  const timeoutMs = deps.timeoutMs ?? APP_PROXY_TIMEOUT_MS;

  void app.register(async (scope) => {
    keepRawBodies(scope);
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      const shop = deps.storefrontShop();
      if (!shop || !shop.installation) {
        return reply.code(404).type("text/plain").send("No app is installed for this proxy");
      }
      const url = new URL(request.url, "http://storefront.invalid");
      const rest = url.pathname.slice(pathPrefix.length);
      const target = proxyTarget(shop.app.url, deps.config.url, rest);
      const query = signedProxyQuery(url.searchParams, {
        shop: shop.domain,
        pathPrefix,
        secret: shop.app.apiSecret,
        now: now(),
      });
      target.search = query.toString();

      const incoming = webRequest(request);
      const headers = new Headers();
      for (const name of FORWARDED_REQUEST_HEADERS) {
        const value = incoming.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      headers.set("x-forwarded-for", request.ip);
      headers.set("x-forwarded-host", request.headers.host ?? "");
      const hasBody = request.method !== "GET" && request.method !== "HEAD";

      let answer: Response;
      try {
        answer = await fetch(target, {
          method: request.method,
          headers,
          redirect: "manual",
          signal: AbortSignal.timeout(timeoutMs),
          ...(hasBody ? { body: await incoming.arrayBuffer() } : {}),
        });
      } catch (error) {
        const name = error instanceof Error ? error.name : "";
        if (name === "TimeoutError" || name === "AbortError") {
          return gatewayPage(reply, 504, "The app did not answer in time.");
        }
        return gatewayPage(reply, 502, "The app could not be reached.");
      }
      let body: Buffer;
      try {
        body = Buffer.from(await answer.arrayBuffer());
      } catch {
        return gatewayPage(reply, 504, "The app did not finish its answer in time.");
      }
      void reply.code(answer.status);
      for (const name of FORWARDED_RESPONSE_HEADERS) {
        const value = answer.headers.get(name);
        if (value !== null) void reply.header(name, value);
      }
      return reply.send(body);
    };
    scope.all(pathPrefix, forward);
    scope.all(`${pathPrefix}/*`, forward);
  });
}
