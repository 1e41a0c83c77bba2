import { getEnv } from "../env.server";
import { clientAddressOf } from "../lib/client-address";
import type { Logger } from "../logger.server";
import { logger } from "../logger.server";
import { metrics, type ProxyResult, type ProxyRoute } from "../metrics/registry.server";
import { verifyAppProxySignature } from "./app-proxy-signature";
import { TokenBuckets } from "./rate-limit";
import { summarizeIssues, type RequestIssue } from "./request-issues";
import { shopAdminOpener, type OpenShopAdmin } from "./shop-admin.server";

/*
 * What every app proxy route shares: Shopify's signature check (answered 401 when it fails),
 * JSON answers, and a log line for every unexpected failure. The signature is checked alone: the
 * shop's Admin API is opened only by a handler that needs it (decision 042).
 */

export type ProxyContext = {
  request: Request;
  shop: string;
  log: Logger;
  /**
   * Opens the shop's Admin API through its offline session, refreshing the token when due;
   * undefined when the shop has none or it cannot be had now (the handler answers without it).
   */
  admin: OpenShopAdmin;
};

export function proxyJson(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return Response.json(body, {
    status: init.status ?? 200,
    headers: { "Cache-Control": "no-store", ...init.headers },
  });
}

export function invalidRequest(what: string, issues: readonly RequestIssue[]): Response {
  return proxyJson(
    {
      error: {
        code: "invalid_request",
        message: `Invalid ${what}: ${summarizeIssues(issues)}`,
        issues,
      },
    },
    { status: 400 },
  );
}

/**
 * The loader or action for the other method of a proxy path, so that every answer stays JSON.
 * It takes the same arguments as a proxyRoute, so both route modules have one shape.
 */
export function methodNotAllowed(allowed: "GET" | "POST") {
  return async (_args: { request: Request }): Promise<Response> => notAllowed(allowed);
}

function notAllowed(allowed: "GET" | "POST"): Response {
  return proxyJson(
    {
      error: {
        code: "method_not_allowed",
        message: `This app proxy path only answers ${allowed}`,
      },
    },
    { status: 405, headers: { Allow: allowed } },
  );
}

function unauthorized(): Response {
  return proxyJson(
    {
      error: {
        code: "unauthorized",
        message: "The request does not carry a valid Shopify app proxy signature",
      },
    },
    { status: 401 },
  );
}

function tooManyRequests(retryAfterSeconds: number): Response {
  return proxyJson(
    {
      error: {
        code: "rate_limited",
        message: "Too many requests from this storefront or visitor; try again shortly",
      },
    },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

let limits: { shops: TokenBuckets; clients: TokenBuckets } | undefined;

/**
 * Takes a token from the shop's bucket and the visitor's (decision 016). The visitor is the
 * logged-in customer when Shopify names one (signed), else the first address of X-Forwarded-For,
 * where Shopify's proxy puts the visitor's IP. A request with neither only counts for its shop.
 */
function takeRateLimit(
  request: Request,
  shop: string,
): { by: "shop" | "visitor"; retryAfterSeconds: number } | undefined {
  const env = getEnv();
  limits ??= {
    shops: new TokenBuckets({
      ratePerSecond: env.SVC_PROXY_SHOP_RATE_PER_SECOND,
      burst: env.SVC_PROXY_SHOP_BURST,
    }),
    clients: new TokenBuckets({
      ratePerSecond: env.SVC_PROXY_CLIENT_RATE_PER_SECOND,
      burst: env.SVC_PROXY_CLIENT_BURST,
    }),
  };
  const visitor = visitorOf(request);
  if (visitor !== undefined) {
    const taken = limits.clients.take(`${shop}\n${visitor}`);
    if (!taken.ok) return { by: "visitor", retryAfterSeconds: taken.retryAfterSeconds };
  }
  const taken = limits.shops.take(shop);
  if (!taken.ok) return { by: "shop", retryAfterSeconds: taken.retryAfterSeconds };
  return undefined;
}

function visitorOf(request: Request): string | undefined {
  const customer = new URL(request.url).searchParams.get("logged_in_customer_id");
  if (customer) return `customer:${customer.slice(0, 40)}`;
  // Shopify's proxy is one more trusted hop: the address it forwards, not one a visitor wrote (043).
  const forwarded = clientAddressOf({
    forwardedFor: request.headers.get("x-forwarded-for"),
    socketAddress: undefined,
    trustedProxies: getEnv().SVC_TRUSTED_PROXY_COUNT + 1,
    exact: true,
  });
  return forwarded ? `ip:${forwarded}` : undefined;
}

/** Forgets every rate limit bucket, so that the next request starts full (tests). */
export function forgetRateLimits() {
  limits = undefined;
}

/** Requests answered with the fallback (no plans, `unavailable` says why), for the metrics. */
const fallbacks = new WeakSet<Request>();

/** Marks the request as answered with the storefront's fallback rather than the service's. */
export function noteFallback(request: Request): void {
  fallbacks.add(request);
}

function proxyResultOf(request: Request, status: number): ProxyResult {
  if (status === 401 || status === 403) return "unauthorized";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "error";
  if (status >= 400) return "invalid";
  return fallbacks.has(request) ? "fallback" : "ok";
}

/**
 * Wraps a proxy route: the handler runs only for a request Shopify signed, with the shop from the
 * signed query. A missing or wrong signature, or a timestamp more than 90 s off, is answered 401,
 * as the storefront contract says. Every answer counts in svc_proxy_requests_total.
 */
export function proxyRoute(route: string, handler: (context: ProxyContext) => Promise<Response>) {
  const routeLabel: ProxyRoute = route === "proxy.plans" ? "plans" : "cart_updates";
  const answer = signedProxyRoute(route, handler);
  return async (args: { request: Request }): Promise<Response> => {
    const response = await answer(args);
    metrics.proxyRequests.inc({
      route: routeLabel,
      result: proxyResultOf(args.request, response.status),
    });
    return response;
  };
}

function signedProxyRoute(route: string, handler: (context: ProxyContext) => Promise<Response>) {
  return async ({ request }: { request: Request }): Promise<Response> => {
    const params = new URL(request.url).searchParams;
    const claimedShop = params.get("shop") ?? "";
    const log = logger.child({ shop: claimedShop, route });
    try {
      const env = getEnv();
      const signature = verifyAppProxySignature(
        params,
        env.SHOPIFY_API_SECRET,
        Math.floor(Date.now() / 1000),
      );
      if (!signature.valid) {
        log.info({ reason: signature.reason }, `Refused an app proxy request: ${signature.reason}`);
        return unauthorized();
      }
      if (claimedShop === "") {
        log.info("Refused an app proxy request: it names no shop");
        return unauthorized();
      }
      const limited = takeRateLimit(request, claimedShop);
      if (limited) {
        log.warn(
          { limitedBy: limited.by, retryAfterSeconds: limited.retryAfterSeconds },
          `Refused an app proxy request with 429: the ${limited.by}'s rate limit is spent`,
        );
        return tooManyRequests(limited.retryAfterSeconds);
      }
      const admin = shopAdminOpener(claimedShop, log);
      return await handler({ request, shop: claimedShop, log, admin });
    } catch (error) {
      log.error(
        { err: asError(error) },
        `Failed to answer ${request.method} ${route} for ${claimedShop || "an unknown shop"}`,
      );
      return proxyJson(
        { error: { code: "internal_error", message: "The app could not answer this request" } },
        { status: 500 },
      );
    }
  };
}

/** A thrown Response logs as `{}`: its status says what happened. */
function asError(thrown: unknown): unknown {
  if (!(thrown instanceof Response)) return thrown;
  return new Error(`A Response ${thrown.status} ${thrown.statusText} was thrown`.trim());
}

/**
 * The request body as text, refused without reading further once it passes `maxBytes` (by its
 * Content-Length or by what arrives) or when it is not UTF-8.
 */
export async function readBodyText(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  const tooLarge = { ok: false, message: `The body is larger than ${maxBytes} bytes` } as const;
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge;
  if (!request.body) return { ok: true, text: "" };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return tooLarge;
    }
    chunks.push(value);
  }
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(concat(chunks)) };
  } catch {
    return { ok: false, message: "The body is not UTF-8 text" };
  }
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
