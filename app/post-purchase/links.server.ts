import prisma from "../db.server";
import { getEnv } from "../env.server";
import { ORDER_PLACED_AT_QUERY } from "../graphql/OrderPlacedAt";
import { shopifyGid } from "../lib/shopify-id";
import type { Logger } from "../logger.server";
import type { OutboxStatus } from "../models/outbox-status";
import {
  findOrderPlacement,
  hasOrderCreateReceipt,
  listOrderEventHistory,
} from "../models/OrderPlacement.server";
import { getShopConnection } from "../models/ShopConnection.server";
import { getShopSettings } from "../models/ShopSettings.server";
import { describeResult } from "../protection/results";
import type { CheckoutType, Environment } from "../protection/types";
import { runAdminOperation, type AdminGraphql } from "../services/admin-api.server";
import {
  pauseShopWithUnreadableSecret,
  protectionClientForShop,
} from "../services/protection.server";
import { LoadingCache } from "../storefront/loading-cache";
import { TokenBuckets } from "../storefront/rate-limit";
import {
  decideLinkStep,
  linkAnswerOf,
  NONE_TTL_MS,
  READY_TTL_MS,
  type LinkAnswer,
  type Placement,
  type Surface,
} from "./links";
import {
  orderEventViewOf,
  protectedLinesOf,
  type OrderEventView,
  type ProtectedLine,
} from "./order-protection";

/*
 * The I/O of the post-purchase links (decision 034): the order's placement from the app's own
 * rows (always scoped by shop), Shopify's word on an order no webhook has told us of yet, and the
 * service's link, cached per shop, environment, order and checkout type.
 */

/** Shopify's answer on an order, kept briefly: the Thank-you page asks a few times in a row. */
const OWNERSHIP_TTL_MS = 60_000;
const MAX_ENTRIES = 20_000;

type Ownership = { exists: true; placedAt: number } | { exists: false };

let caches:
  | {
      ready: LoadingCache<LinkAnswer>;
      none: LoadingCache<true>;
      ownership: LoadingCache<Ownership | { failed: string }>;
    }
  | undefined;

function linkCaches() {
  caches ??= {
    ready: new LoadingCache({ maxEntries: MAX_ENTRIES, ttlMs: READY_TTL_MS }),
    none: new LoadingCache({ maxEntries: MAX_ENTRIES, ttlMs: NONE_TTL_MS }),
    ownership: new LoadingCache({ maxEntries: MAX_ENTRIES, ttlMs: OWNERSHIP_TTL_MS }),
  };
  return caches;
}

/** Forgets every cached link and ownership answer (tests). */
export function forgetPostPurchaseLinks() {
  caches = undefined;
  limits = undefined;
}

let limits:
  | { shops: TokenBuckets; visitors: TokenBuckets; tokens: TokenBuckets; adminCalls: TokenBuckets }
  | undefined;

function buyerLimits() {
  const env = getEnv();
  const perVisitor = {
    ratePerSecond: env.SVC_PROXY_CLIENT_RATE_PER_SECOND,
    burst: env.SVC_PROXY_CLIENT_BURST,
  };
  limits ??= {
    shops: new TokenBuckets({
      ratePerSecond: env.SVC_PROXY_SHOP_RATE_PER_SECOND,
      burst: env.SVC_PROXY_SHOP_BURST,
    }),
    visitors: new TokenBuckets(perVisitor),
    tokens: new TokenBuckets(perVisitor),
    adminCalls: new TokenBuckets({
      ratePerSecond: env.SVC_BUYER_ADMIN_RATE_PER_SECOND,
      burst: env.SVC_BUYER_ADMIN_BURST,
    }),
  };
  return limits;
}

export interface BuyerRequester {
  shop: string;
  /** The client's address (app/lib/client-address.ts), when one is known. */
  address: string | undefined;
  /** The session token: its customer (`sub`), else the token itself (`jti`). */
  token: string | undefined;
}

/**
 * The public edge's limits (decisions 016 and 043), for the buyer routes: one bucket per shop,
 * and within it one per client address and one per token, each with the visitor's settings.
 */
export function takeBuyerRateLimit(
  requester: BuyerRequester,
): { ok: true } | { ok: false; retryAfterSeconds: number } {
  const { shops, visitors, tokens } = buyerLimits();
  const { shop } = requester;
  for (const [buckets, key] of [
    [visitors, requester.address],
    [tokens, requester.token],
  ] as const) {
    if (key === undefined) continue;
    const taken = buckets.take(`${shop}\n${key}`);
    if (!taken.ok) return taken;
  }
  return shops.take(shop);
}

/** Who pays for an Admin API lookup: the buyer routes have a capped share of the shop's budget. */
interface ShopifyCheck {
  /** The shop's Admin API: the admin's session, or the offline session for the buyer routes. */
  graphql: AdminGraphql | null;
  buyer: boolean;
}

/** Whether Shopify knows the order as this shop's, and when it was placed; cached briefly. */
async function askShopifyForOrder(
  { graphql, buyer }: ShopifyCheck,
  shop: string,
  orderId: string,
  log: Logger,
): Promise<Placement> {
  if (!graphql) {
    log.warn(
      { orderId },
      `Cannot check order ${orderId} of ${shop}: the shop has no offline session`,
    );
    return { kind: "unchecked" };
  }
  // Known and unknown orders alike are kept (OWNERSHIP_TTL_MS): a repeated ID costs one lookup.
  const { value } = await linkCaches().ownership.getOrLoad(`${shop}\n${orderId}`, async () => {
    if (buyer && !buyerLimits().adminCalls.take(shop).ok) {
      const failed = "the buyer routes' share of the shop's Admin API is spent for now";
      return { value: { failed }, cacheable: false };
    }
    let result;
    try {
      result = await runAdminOperation(graphql, shop, "OrderPlacedAt", ORDER_PLACED_AT_QUERY, {
        id: shopifyGid("Order", orderId),
      });
    } catch (thrown) {
      // An expired or revoked token: nobody is here to authenticate again.
      if (thrown instanceof Response) {
        return { value: { failed: `Shopify answered HTTP ${thrown.status}` }, cacheable: false };
      }
      throw thrown;
    }
    if (!result.ok) return { value: { failed: result.message }, cacheable: false };
    const order = result.data.order;
    const loaded: Ownership = order
      ? { exists: true, placedAt: Date.parse(order.createdAt) }
      : { exists: false };
    return { value: loaded, cacheable: true };
  });
  if ("failed" in value) {
    log.warn({ orderId }, `Failed to check order ${orderId} of ${shop}: ${value.failed}`);
    return { kind: "unchecked" };
  }
  return {
    kind: "unrecorded",
    shopify: value.exists
      ? { exists: true, placedAt: new Date(value.placedAt) }
      : { exists: false },
  };
}

/** The order's placement row, as findOrderPlacement reads it (null: none recorded). */
type PlacementRow = Awaited<ReturnType<typeof findOrderPlacement>>;

/**
 * What the app knows of the order's placement: the recorded row, a signed orders/create of this
 * shop without one (not reported, decision 034), or else Shopify's answer (none asked: `unasked`).
 */
async function placementOf(
  shop: string,
  orderId: string,
  row: PlacementRow,
  shopify: ShopifyCheck | null,
  log: Logger,
): Promise<Placement> {
  if (row) {
    return {
      kind: "recorded",
      status: row.status as OutboxStatus,
      environment: row.environment as Environment,
      placedAt: row.placedAt,
      customerId: row.customerId,
    };
  }
  if (await hasOrderCreateReceipt(prisma, shop, orderId)) return { kind: "not_reported" };
  if (!shopify) return { kind: "unasked" };
  return askShopifyForOrder(shopify, shop, orderId, log);
}

/** The service's link for a delivered placement, from the cache when it has one. */
async function linkFromService(
  shop: string,
  orderId: string,
  environment: Environment,
  checkoutType: CheckoutType,
  log: Logger,
): Promise<LinkAnswer> {
  const key = JSON.stringify([shop, environment, orderId, checkoutType]);
  const { ready, none } = linkCaches();
  if (none.get(key)) return { status: "none" };
  const { value } = await ready.getOrLoad(key, async () => {
    const connection = await getShopConnection(prisma, shop);
    if (!connection) return { value: { status: "none" } as LinkAnswer, cacheable: false };
    const built = protectionClientForShop(connection, environment, {
      timeoutMs: getEnv().SVC_STOREFRONT_TIMEOUT_MS,
    });
    if (built.status !== "ready") {
      if (built.status === "unreadable") {
        await pauseShopWithUnreadableSecret(prisma, shop, built, log);
      } else log.error({ orderId, environment }, `No ${checkoutType} link: ${built.message}`);
      return {
        value: {
          status: "error",
          error: { code: "service_unavailable", message: "The shop's service key is not usable" },
        } as LinkAnswer,
        cacheable: false,
      };
    }
    const result = await built.client.getCheckout({
      order_id: orderId,
      checkout_type: checkoutType,
    });
    const { answer, ttlMs } = linkAnswerOf(result, checkoutType);
    if (answer.status === "error") {
      log.error(
        { orderId, environment, checkoutType },
        `Failed to get the ${checkoutType} link of order ${orderId} of ${shop}: ${describeResult(result)}`,
      );
    }
    if (answer.status === "none" && ttlMs > 0) none.set(key, true);
    return { value: answer, cacheable: answer.status === "ready" && ttlMs > 0 };
  });
  return value;
}

export interface LinkRequest {
  shop: string;
  orderId: string;
  surface: Surface;
  /** The shop's Admin API: the admin's session, or the offline session for the buyer routes. */
  graphql: AdminGraphql | null;
  /** The Order status page's signed-in customer (the token's `sub`). */
  customer?: string;
  log: Logger;
  now?: Date;
}

/** The post-purchase link of one order of one shop, as the contract answers it. */
export async function findPostPurchaseLink(request: LinkRequest): Promise<LinkAnswer> {
  const { shop, orderId, surface, log } = request;
  const settings = await getShopSettings(prisma, shop);
  // The switch is read first: a switched-off shop costs no lookups at all.
  if (surface !== "admin" && !settings.selfServiceLink) {
    log.info({ orderId, surface }, `No self-service link for order ${orderId}: switched off`);
    return { status: "none" };
  }
  const row = await findOrderPlacement(prisma, shop, orderId);
  // The Order status page matches its customer on recorded orders only: Shopify is not asked.
  const shopify =
    surface === "order_status" ? null : { graphql: request.graphql, buyer: surface !== "admin" };
  const placement = await placementOf(shop, orderId, row, shopify, log);
  return linkOfPlacement(request, placement, settings.selfServiceLink);
}

/** The link the order's placement allows: an answer of the app's own, or the service's link. */
async function linkOfPlacement(
  request: LinkRequest,
  placement: Placement,
  selfServiceLink: boolean,
): Promise<LinkAnswer> {
  const { shop, orderId, surface, log } = request;
  const step = decideLinkStep({
    placement,
    surface,
    selfServiceLink,
    customer: request.customer,
    now: request.now ?? new Date(),
  });
  if (step.kind === "answer") {
    log.info(
      { orderId, surface, answer: step.answer.status },
      `Link of order ${orderId}: ${step.reason}`,
    );
    return step.answer;
  }
  return linkFromService(shop, orderId, step.environment, step.checkoutType, log);
}

export interface OrderProtectionView {
  order: { id: string; name: string | null; environment: Environment | null };
  protected_lines: ProtectedLine[];
  events: OrderEventView[];
  guided_checkout: LinkAnswer;
}

export type OrderProtectionResult =
  { kind: "found"; view: OrderProtectionView } | { kind: "not_found" } | { kind: "unchecked" };

/** The admin's view of one of the shop's orders; `not_found` for an order that is not the shop's. */
export async function findOrderProtection(
  shop: string,
  orderId: string,
  graphql: AdminGraphql,
  log: Logger,
): Promise<OrderProtectionResult> {
  const { events, orderName } = await listOrderEventHistory(prisma, shop, orderId);
  const row = await findOrderPlacement(prisma, shop, orderId);
  const placement = await placementOf(shop, orderId, row, { graphql, buyer: false }, log);
  // An order without events is the shop's only if its orders/create came, or Shopify says so.
  if (events.length === 0) {
    if (placement.kind === "unchecked") return { kind: "unchecked" };
    if (placement.kind === "unrecorded" && !placement.shopify.exists) return { kind: "not_found" };
  }
  const { selfServiceLink } = await getShopSettings(prisma, shop);
  const guided = await linkOfPlacement(
    { shop, orderId, surface: "admin", graphql, log },
    placement,
    selfServiceLink,
  );
  return {
    kind: "found",
    view: {
      order: {
        id: orderId,
        name: orderName,
        environment: (row?.environment ?? events[0]?.environment ?? null) as Environment | null,
      },
      protected_lines: row ? protectedLinesOf(row.payload) : [],
      events: events.map(orderEventViewOf),
      guided_checkout: guided,
    },
  };
}
