import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getEnv } from "../env.server";
import { clientAddressOf, socketAddressOf } from "../lib/client-address";
import { logger } from "../logger.server";
import type { AdminGraphql } from "../services/admin-api.server";
import { authenticate } from "../shopify.server";
import { isShopDomain } from "../webhooks/signed-facts";
import { offlineAdminFor } from "../workers.server";
import { httpStatusOf, parseOrderId, type LinkAnswer } from "./links";
import { findOrderProtection, findPostPurchaseLink, takeBuyerRateLimit } from "./links.server";

/*
 * The HTTP side of the post-purchase routes (contract: links-contract.md): the library's
 * authentication (its preflight answer and its `cors` wrapper), JSON with no-store, and a log
 * line for every unexpected failure. The shop comes only from the verified token.
 */

type Cors = (response: Response) => Response;

function json(cors: Cors, body: unknown, status = 200, headers: Record<string, string> = {}) {
  return cors(
    Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } }),
  );
}

const errorBody = (code: string, message: string) => ({ error: { code, message } });

/** The shop a checkout or customer account token is for: `dest` is its myshopify.com domain. */
export function shopOfDestination(dest: unknown): string | null {
  if (typeof dest !== "string") return null;
  const domain = dest.replace(/^https:\/\//, "");
  return isShopDomain(domain) ? domain : null;
}

/** The shop's Admin API through its offline session, opened only when a check needs it. */
function offlineGraphql(shop: string): AdminGraphql {
  return async (query, options) => {
    const graphql = await offlineAdminFor(shop);
    if (!graphql) throw new Error(`${shop} has no offline session`);
    return graphql(query, options);
  };
}

/** A token's own rate limit key: its customer across tokens, else the one token (`jti`). */
function tokenKeyOf(customer: string | undefined, jti: unknown): string | undefined {
  if (customer !== undefined) return `customer:${customer.slice(0, 64)}`;
  return typeof jti === "string" && jti !== "" ? `token:${jti.slice(0, 64)}` : undefined;
}

export type BuyerSurface = "thank_you" | "order_status";

/** The loader of a buyer route: the Thank-you page's or the Order status page's. */
export function buyerLinkLoader(surface: BuyerSurface, route: string) {
  return async ({ request, context }: LoaderFunctionArgs): Promise<Response> => {
    const authenticateBuyer =
      surface === "thank_you" ? authenticate.public.checkout : authenticate.public.customerAccount;
    const { sessionToken, cors } = await authenticateBuyer(request);
    const shop = shopOfDestination(sessionToken.dest);
    // The library checks the signature and the time; the audience is checked here.
    if (shop === null || sessionToken.aud !== getEnv().SHOPIFY_API_KEY) {
      logger.warn(
        { route, dest: sessionToken.dest },
        "Refused a session token for another app or shop",
      );
      return json(cors, errorBody("invalid_token", "The session token is not for this app"), 401);
    }
    const parsed = parseOrderId(new URL(request.url).searchParams.get("order_id"));
    if (!parsed.ok) return json(cors, errorBody("invalid_order_id", parsed.message), 400);
    const { orderId } = parsed;
    const log = logger.child({ shop, orderId, route });
    const customer =
      typeof sessionToken.sub === "string" && sessionToken.sub !== ""
        ? sessionToken.sub
        : undefined;
    // The client's address as our own proxies saw it, never an entry the client wrote (043).
    const address = clientAddressOf({
      forwardedFor: request.headers.get("x-forwarded-for"),
      socketAddress: socketAddressOf(context),
      trustedProxies: getEnv().SVC_TRUSTED_PROXY_COUNT,
    });
    const limited = takeBuyerRateLimit({
      shop,
      address,
      token: tokenKeyOf(customer, sessionToken.jti),
    });
    if (!limited.ok) {
      log.warn("Post-purchase link refused: rate limited");
      return json(cors, errorBody("rate_limited", "Too many requests; try again shortly"), 429, {
        "Retry-After": String(limited.retryAfterSeconds),
      });
    }
    // The Order status page is a signed-in customer's: a token without one gets nothing.
    if (surface === "order_status" && customer === undefined) {
      log.warn("No self-service link: the customer account token names no customer");
      return json(cors, { status: "none" } satisfies LinkAnswer);
    }
    try {
      const answer = await findPostPurchaseLink({
        shop,
        orderId,
        surface,
        graphql: offlineGraphql(shop),
        customer,
        log,
      });
      return json(cors, answer, httpStatusOf(answer));
    } catch (error) {
      log.error({ err: error }, `Failed to answer the self-service link of order ${orderId}`);
      return json(cors, errorBody("internal_error", "The link could not be read"), 500);
    }
  };
}

/** The admin route: the order's protection and its guided checkout link, for the shop's staff. */
export async function adminOrderProtectionLoader({ request }: LoaderFunctionArgs) {
  const { session, admin, cors } = await authenticate.admin(request);
  const shop = session.shop;
  const parsed = parseOrderId(new URL(request.url).searchParams.get("order_id"));
  if (!parsed.ok) return json(cors, errorBody("invalid_order_id", parsed.message), 400);
  const { orderId } = parsed;
  const log = logger.child({ shop, orderId, route: "api.admin.order-protection" });
  try {
    const result = await findOrderProtection(shop, orderId, admin.graphql, log);
    if (result.kind === "not_found") {
      return json(cors, errorBody("order_not_found", `${shop} has no order ${orderId}`), 404);
    }
    if (result.kind === "unchecked") {
      return json(
        cors,
        errorBody("shopify_unavailable", `Shopify could not confirm order ${orderId}; try again`),
        503,
      );
    }
    return json(cors, result.view);
  } catch (error) {
    if (error instanceof Response) throw error;
    log.error({ err: error }, `Failed to read the protection of order ${orderId}`);
    return json(cors, errorBody("internal_error", "The order's protection could not be read"), 500);
  }
}

/**
 * Remix sends every method but GET and HEAD to the action: the authenticate call answers the
 * CORS preflight (OPTIONS); anything else is not allowed.
 */
export function preflightAction(
  authenticateRequest: (request: Request) => Promise<{ cors: Cors }>,
) {
  return async ({ request }: ActionFunctionArgs): Promise<Response> => {
    const { cors } = await authenticateRequest(request);
    return json(cors, errorBody("method_not_allowed", "Only GET is answered here"), 405, {
      Allow: "GET",
    });
  };
}
