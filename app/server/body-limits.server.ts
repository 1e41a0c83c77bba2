/*
 * The public edge's body rules (decisions 016 and 041), applied by server/serve.ts before a
 * request's body is read and while it arrives:
 * - each route has a cap (413 past it, known from Content-Length alone);
 * - the bytes actually received and held, not the lengths declared, count against one byte
 *   budget (503 when it is spent), so an idle connection costs nothing;
 * - a part of the budget is kept for requests that carry Shopify's webhook headers, and one
 *   address may hold only a share of that reserve;
 * - one address may send only so many unauthenticated bodies at once (429);
 * - a body must keep arriving at a minimum rate after the headers (408 below it).
 * Pure: no I/O, no timers, no framework; the caller passes the time.
 */

import { keyOfAddress } from "../lib/client-address";

export interface EdgeLimits {
  /** Any route not named below: the admin's forms, lifecycle and compliance webhooks. */
  maxBodyBytes: number;
  /** The order webhooks of the fast path (decision 009): the largest bodies Shopify sends. */
  orderWebhookMaxBodyBytes: number;
  /** Bytes of request bodies that may be held at once, all routes together, reserve included. */
  budgetBytes: number;
  /** The part of the budget only Shopify's webhook deliveries may use. */
  webhookReserveBytes: number;
  /** How much of that reserve the deliveries from one address may hold. */
  webhookReservePerSourceBytes: number;
  /** Unauthenticated bodies one address may be sending at once. */
  bodiesPerSource: number;
  /** A body must bring at least this many bytes per second, measured over each window. */
  minBodyBytesPerSecond: number;
  bodyRateWindowMs: number;
  /** Proxies of our own in front of the server: the client is that many hops away (decision 043). */
  trustedProxies: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** Paths whose bodies are small by nature get caps below the general one. */
const ROUTE_CAPS: readonly { prefix: string; maxBytes: number }[] = [
  // The storefront's cart report (proxy.cart_updates reads at most this much too).
  { prefix: "/proxy/", maxBytes: 256 * 1024 },
  // A shop domain in a form.
  { prefix: "/auth/login", maxBytes: 16 * 1024 },
];

/** The cap of a request's body: the route's, or the general one. */
export function maxBodyBytesFor(
  path: string,
  isOrderWebhook: boolean,
  limits: Pick<EdgeLimits, "maxBodyBytes" | "orderWebhookMaxBodyBytes">,
): number {
  if (isOrderWebhook) return limits.orderWebhookMaxBodyBytes;
  const route = ROUTE_CAPS.find((cap) => path.startsWith(cap.prefix));
  return route ? Math.min(route.maxBytes, limits.maxBodyBytes) : limits.maxBodyBytes;
}

type HeaderValue = string | string[] | undefined;

/**
 * Whether a request looks like one of Shopify's webhook deliveries: a POST to a webhook path
 * with the headers Shopify sends, well formed. Nothing here is verified (the HMAC covers the
 * body, which has not arrived): it only decides which share of the budget the body may use.
 */
export function claimsShopifyDelivery(
  method: string | undefined,
  path: string,
  headers: Record<string, HeaderValue>,
): boolean {
  const hmac = headers["x-shopify-hmac-sha256"];
  const topic = headers["x-shopify-topic"];
  const shop = headers["x-shopify-shop-domain"];
  const webhookId = headers["x-shopify-webhook-id"];
  return (
    method === "POST" &&
    typeof hmac === "string" &&
    /^[A-Za-z0-9+/]{43}=$/.test(hmac) &&
    typeof topic === "string" &&
    path === `/webhooks/${topic.toLowerCase()}` &&
    typeof shop === "string" &&
    /^[a-z0-9][a-z0-9-]{0,99}\.myshopify\.com$/.test(shop) &&
    typeof webhookId === "string" &&
    webhookId.length > 0
  );
}

/**
 * The key an address is limited by: the client address rule's key (decision 043), "unknown"
 * when no address is known.
 */
export function sourceKeyOf(address: string | undefined): string {
  return address ? keyOfAddress(address) : "unknown";
}

/** One admitted body while it arrives and until its request is answered. */
export interface BodyReceipt {
  readonly declaredBytes: number;
  readonly source: string;
  readonly shopifyDelivery: boolean;
  receivedBytes: number;
  /** Of the bytes held, those taken from the webhook reserve. */
  reserveBytes: number;
  windowStartedAt: number;
  windowBytes: number;
  /** Receiving: counts towards its source's bodies and the rate check. */
  receiving: boolean;
  released: boolean;
}

export type BodyAdmission =
  /** Read it, counting each chunk with `receive`; `receipt` is null for a request without a body. */
  | { kind: "admit"; receipt: BodyReceipt | null }
  | { kind: "too_large"; status: 413; maxBytes: number }
  /** A body without Content-Length (chunked): its size is not known before it is read. */
  | { kind: "length_required"; status: 411 }
  | { kind: "busy"; status: 503 }
  | { kind: "source_busy"; status: 429 };

export type ChunkVerdict = "ok" | "too_large" | "busy";

export interface BodyRequest {
  headers: { "content-length"?: string | undefined; "transfer-encoding"?: string | undefined };
  maxBytes: number;
  /** The socket's address (forwarding headers are not trusted here). */
  address: string | undefined;
  shopifyDelivery: boolean;
}

/** The bodies being received and held by one process, and the rules above over them. */
export class BodyLedger {
  readonly #generalCapacity: number;
  readonly #reserveCapacity: number;
  readonly #limits: EdgeLimits;
  #generalUsed = 0;
  #reserveUsed = 0;
  readonly #receivingBySource = new Map<string, number>();
  readonly #reserveBySource = new Map<string, number>();
  readonly #receiving = new Set<BodyReceipt>();

  constructor(limits: EdgeLimits) {
    this.#limits = limits;
    this.#reserveCapacity = Math.min(limits.webhookReserveBytes, limits.budgetBytes);
    this.#generalCapacity = limits.budgetBytes - this.#reserveCapacity;
  }

  /** Bytes held now, reserve included. */
  get used(): number {
    return this.#generalUsed + this.#reserveUsed;
  }

  get reserveUsed(): number {
    return this.#reserveUsed;
  }

  /** Bodies still arriving. */
  get receiving(): number {
    return this.#receiving.size;
  }

  /**
   * Whether a request's body may be read, from its headers alone. Every caller of this app
   * (Shopify's webhooks and app proxy, browsers posting forms or fetch bodies) sends
   * Content-Length; Node's parser then never delivers more than it says. Nothing is held yet:
   * the body is refused only when it could not fit in what is free now.
   */
  admit(request: BodyRequest, now: number): BodyAdmission {
    const declared = request.headers["content-length"];
    if (declared === undefined) {
      if (request.headers["transfer-encoding"] !== undefined) {
        return { kind: "length_required", status: 411 };
      }
      return { kind: "admit", receipt: null };
    }
    const bytes = Number(declared);
    if (!/^\d+$/.test(declared.trim()) || !Number.isSafeInteger(bytes)) {
      return { kind: "length_required", status: 411 };
    }
    if (bytes > request.maxBytes) {
      return { kind: "too_large", status: 413, maxBytes: request.maxBytes };
    }
    if (bytes === 0) return { kind: "admit", receipt: null };
    const source = sourceKeyOf(request.address);
    if (bytes > this.#roomFor(request.shopifyDelivery, source))
      return { kind: "busy", status: 503 };
    if (
      !request.shopifyDelivery &&
      (this.#receivingBySource.get(source) ?? 0) >= this.#limits.bodiesPerSource
    ) {
      return { kind: "source_busy", status: 429 };
    }
    const receipt: BodyReceipt = {
      declaredBytes: bytes,
      source,
      shopifyDelivery: request.shopifyDelivery,
      receivedBytes: 0,
      reserveBytes: 0,
      windowStartedAt: now,
      windowBytes: 0,
      receiving: true,
      released: false,
    };
    this.#receiving.add(receipt);
    if (!receipt.shopifyDelivery) increment(this.#receivingBySource, source, 1);
    return { kind: "admit", receipt };
  }

  /**
   * Counts a chunk that arrived. Past the declared length it is "too_large"; when the budget
   * (for a delivery: the general part, then its share of the reserve) cannot hold it, "busy".
   * Either way the caller refuses the request and releases the receipt.
   */
  receive(receipt: BodyReceipt, bytes: number): ChunkVerdict {
    if (receipt.released) return "busy";
    if (receipt.receivedBytes + bytes > receipt.declaredBytes) return "too_large";
    const general = Math.min(bytes, this.#generalCapacity - this.#generalUsed);
    const fromReserve = bytes - general;
    if (fromReserve > 0) {
      if (!receipt.shopifyDelivery || fromReserve > this.#reserveRoomOf(receipt.source)) {
        return "busy";
      }
      this.#reserveUsed += fromReserve;
      receipt.reserveBytes += fromReserve;
      increment(this.#reserveBySource, receipt.source, fromReserve);
    }
    this.#generalUsed += general;
    receipt.receivedBytes += bytes;
    receipt.windowBytes += bytes;
    return "ok";
  }

  /** The whole body arrived: it no longer counts as being sent, its bytes stay held. */
  complete(receipt: BodyReceipt): void {
    if (!receipt.receiving) return;
    receipt.receiving = false;
    this.#receiving.delete(receipt);
    if (!receipt.shopifyDelivery) increment(this.#receivingBySource, receipt.source, -1);
  }

  /** The request was answered or dropped: its bytes are free. Safe to call more than once. */
  release(receipt: BodyReceipt): void {
    if (receipt.released) return;
    this.complete(receipt);
    receipt.released = true;
    this.#generalUsed -= receipt.receivedBytes - receipt.reserveBytes;
    this.#reserveUsed -= receipt.reserveBytes;
    increment(this.#reserveBySource, receipt.source, -receipt.reserveBytes);
  }

  /**
   * Bodies still arriving whose current window ended with fewer bytes than the minimum rate
   * asks for (or than they still had to send, when that is less). The others start a new
   * window. The caller cuts those returned off (408) and releases them.
   */
  tooSlow(now: number): BodyReceipt[] {
    const { bodyRateWindowMs, minBodyBytesPerSecond } = this.#limits;
    const perWindow = Math.ceil((minBodyBytesPerSecond * bodyRateWindowMs) / 1000);
    const slow: BodyReceipt[] = [];
    for (const receipt of this.#receiving) {
      if (now - receipt.windowStartedAt < bodyRateWindowMs) continue;
      // What it still had to send when the window began, if that was less than a window's worth.
      const owed = Math.min(
        perWindow,
        receipt.declaredBytes - (receipt.receivedBytes - receipt.windowBytes),
      );
      if (receipt.windowBytes < owed) {
        slow.push(receipt);
      } else {
        receipt.windowStartedAt = now;
        receipt.windowBytes = 0;
      }
    }
    return slow;
  }

  #reserveRoomOf(source: string): number {
    const ofSource =
      this.#limits.webhookReservePerSourceBytes - (this.#reserveBySource.get(source) ?? 0);
    return Math.max(0, Math.min(this.#reserveCapacity - this.#reserveUsed, ofSource));
  }

  #roomFor(shopifyDelivery: boolean, source: string): number {
    const general = Math.max(0, this.#generalCapacity - this.#generalUsed);
    return shopifyDelivery ? general + this.#reserveRoomOf(source) : general;
  }
}

function increment(counts: Map<string, number>, key: string, by: number) {
  const value = (counts.get(key) ?? 0) + by;
  if (value > 0) counts.set(key, value);
  else counts.delete(key);
}
