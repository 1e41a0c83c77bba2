/*
 * The public edge's body rules (decision 016), applied by server/serve.ts before a request's
 * body is read: each route has a cap (413 past it, known from Content-Length alone), and all the
 * bodies being read at once share one byte budget (503 when it is spent), so no number of
 * connections can make the process buffer more than the budget. Pure: no I/O, no framework.
 */

export interface EdgeLimits {
  /** Any route not named below: the admin's forms, lifecycle and compliance webhooks. */
  maxBodyBytes: number;
  /** The order webhooks of the fast path (decision 009): the largest bodies Shopify sends. */
  orderWebhookMaxBodyBytes: number;
  /** Bytes of request bodies that may be in flight at once, all routes together. */
  budgetBytes: number;
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

/** Bytes reserved by requests whose bodies are being read; released when each one is answered. */
export class ByteBudget {
  readonly #capacity: number;
  #used = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get used(): number {
    return this.#used;
  }

  tryReserve(bytes: number): boolean {
    if (this.#used + bytes > this.#capacity) return false;
    this.#used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }
}

export type BodyAdmission =
  /** Read it: `bytes` are reserved in the budget until the request is answered. */
  | { kind: "admit"; bytes: number }
  | { kind: "too_large"; status: 413; maxBytes: number }
  /** A body without Content-Length (chunked): its size is not known before it is read. */
  | { kind: "length_required"; status: 411 }
  | { kind: "busy"; status: 503 };

/**
 * Whether a request's body may be read, from its headers alone. Every caller of this app
 * (Shopify's webhooks and app proxy, browsers posting forms or fetch bodies) sends
 * Content-Length; Node's parser then never delivers more than it says.
 */
export function admitBody(
  headers: { "content-length"?: string | undefined; "transfer-encoding"?: string | undefined },
  maxBytes: number,
  budget: ByteBudget,
): BodyAdmission {
  const declared = headers["content-length"];
  if (declared === undefined) {
    if (headers["transfer-encoding"] !== undefined) return { kind: "length_required", status: 411 };
    return { kind: "admit", bytes: 0 };
  }
  const bytes = Number(declared);
  if (!Number.isSafeInteger(bytes) || bytes < 0) return { kind: "length_required", status: 411 };
  if (bytes > maxBytes) return { kind: "too_large", status: 413, maxBytes };
  if (bytes > 0 && !budget.tryReserve(bytes)) return { kind: "busy", status: 503 };
  return { kind: "admit", bytes };
}
