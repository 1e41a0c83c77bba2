import http from "node:http";
import { performance } from "node:perf_hooks";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";

/** Signed orders/create deliveries, each a new order: the fixture with its top-level id rewritten. */
export class OrderWebhookFactory {
  private readonly before: string;
  private readonly after: string;
  private nextOrderId: number;

  constructor(
    template: string,
    private readonly shop: string,
    private readonly apiSecret: string,
    firstOrderId: number,
  ) {
    const match = /"id":\s*(\d+)/.exec(template);
    const templateId: unknown = (JSON.parse(template) as { id?: unknown }).id;
    if (!match || String(templateId) !== match[1]) {
      throw new Error(
        "Failed to prepare the orders/create fixture: its first id is not the order's",
      );
    }
    this.before = template.slice(0, match.index);
    this.after = template.slice(match.index + match[0].length);
    this.nextOrderId = firstOrderId;
  }

  next(): SignedDelivery {
    const orderId = String(this.nextOrderId++);
    const body = `${this.before}"id": ${orderId}${this.after}`;
    return {
      orderId,
      body,
      headers: {
        ...shopifyWebhookHeaders({
          topic: "orders/create",
          shop: this.shop,
          body,
          secret: this.apiSecret,
        }),
        "Content-Length": String(Buffer.byteLength(body)),
      },
    };
  }
}

export interface SignedDelivery {
  orderId: string;
  body: string;
  headers: Record<string, string>;
}

export interface LoadResult {
  sent: number;
  /** Answers by HTTP status; network errors are counted in `errors`. */
  statuses: Map<number, number>;
  errors: number;
  firstError: string | null;
  /** Orders whose delivery was answered 200. */
  acceptedOrderIds: string[];
  /**
   * Orders whose delivery was answered otherwise or not at all (reset, timed out): stored or
   * not, Shopify would send them again.
   */
  notAcceptedOrderIds: string[];
  /** From the first send to the last answer. */
  elapsedMs: number;
  /** Per answered request, in ms (open loop: from the scheduled send time). */
  latenciesMs: number[];
  /** Open loop only: how late the generator sent its most late request. */
  maxSendLagMs: number;
}

interface Answer {
  status: number | null;
  error: string | null;
}

function post(agent: http.Agent, port: number, delivery: SignedDelivery): Promise<Answer> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/webhooks/orders/create",
        headers: delivery.headers,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, error: null }));
        response.on("error", (error) => resolve({ status: null, error: error.message }));
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("no answer within 30 s")));
    request.on("error", (error) => resolve({ status: null, error: error.message }));
    request.end(delivery.body);
  });
}

function emptyResult(): LoadResult {
  return {
    sent: 0,
    statuses: new Map(),
    errors: 0,
    firstError: null,
    acceptedOrderIds: [],
    notAcceptedOrderIds: [],
    elapsedMs: 0,
    latenciesMs: [],
    maxSendLagMs: 0,
  };
}

function recordAnswer(result: LoadResult, delivery: SignedDelivery, answer: Answer, ms: number) {
  if (answer.status === null) {
    result.errors += 1;
    result.firstError ??= answer.error;
    result.notAcceptedOrderIds.push(delivery.orderId);
    return;
  }
  result.statuses.set(answer.status, (result.statuses.get(answer.status) ?? 0) + 1);
  result.latenciesMs.push(ms);
  if (answer.status === 200) result.acceptedOrderIds.push(delivery.orderId);
  else result.notAcceptedOrderIds.push(delivery.orderId);
}

/**
 * Closed loop: `connections` senders on keep-alive connections, each sending its next delivery
 * as soon as the previous one is answered, until `durationMs` or `maxRequests` is reached.
 */
export async function runClosedLoop(
  port: number,
  factory: OrderWebhookFactory,
  options: { connections: number; durationMs: number; maxRequests: number },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const result = emptyResult();
  const start = performance.now();
  const deadline = start + options.durationMs;
  const sender = async () => {
    while (result.sent < options.maxRequests && performance.now() < deadline) {
      result.sent += 1;
      const delivery = factory.next();
      const sentAt = performance.now();
      const answer = await post(agent, port, delivery);
      recordAnswer(result, delivery, answer, performance.now() - sentAt);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, sender));
  result.elapsedMs = performance.now() - start;
  agent.destroy();
  return result;
}

/**
 * Open loop: one delivery every 1/rate seconds on a fixed schedule, whether or not earlier
 * ones were answered. Latency runs from the scheduled time, so a late generator or a queue
 * in front of the server is counted, not hidden (no coordinated omission).
 */
export async function runOpenLoop(
  port: number,
  factory: OrderWebhookFactory,
  options: { ratePerSecond: number; durationMs: number },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const result = emptyResult();
  const total = Math.round((options.ratePerSecond * options.durationMs) / 1000);
  const intervalMs = 1000 / options.ratePerSecond;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  while (result.sent < total) {
    const due = start + result.sent * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait - 1));
    while (result.sent < total && start + result.sent * intervalMs <= performance.now()) {
      const scheduledAt = start + result.sent * intervalMs;
      result.sent += 1;
      result.maxSendLagMs = Math.max(result.maxSendLagMs, performance.now() - scheduledAt);
      const delivery = factory.next();
      inFlight.push(
        post(agent, port, delivery).then((answer) =>
          recordAnswer(result, delivery, answer, performance.now() - scheduledAt),
        ),
      );
    }
  }
  await Promise.all(inFlight);
  result.elapsedMs = performance.now() - start;
  agent.destroy();
  return result;
}

/** "10000 × 200" or "9990 × 200, 10 × 401, 3 network errors (ECONNRESET)". */
export function describeAnswers(result: LoadResult): string {
  const parts = [...result.statuses].map(([status, count]) => `${count} × ${status}`);
  if (result.errors) parts.push(`${result.errors} not answered (${result.firstError})`);
  return parts.join(", ") || "no answers";
}
