import { createHmac, randomUUID } from "node:crypto";
import { isComplianceTopic, type StoreShop, type WebhookBody, type WebhookSink } from "../model";
import type { WebhookSubscription } from "./app-config";

/*
 * Delivers the store's webhooks as Shopify does: to the subscriptions in shopify.app.toml, signed
 * with the app's secret, with Shopify's headers, retried with back-off on a non-2xx answer or none
 * within 5 s (8 retries over about 4 hours), the same body and IDs on every retry. Deliveries run
 * in the background: the action that fired them never waits.
 */

/** Shopify's schedule: 8 retries, exponential, about 4 hours in all (changelog 2024-09-10). */
export const SHOPIFY_RETRY_DELAYS_MS: readonly number[] = [
  10_000, 30_000, 60_000, 300_000, 900_000, 1_800_000, 3_600_000, 7_200_000,
];
export const MAX_RETRIES = 8;
export const DEFAULT_DELIVERY_TIMEOUT_MS = 5_000;

export interface DeliveryAttempt {
  shop: string;
  topic: string;
  webhook_id: string;
  event_id: string;
  triggered_at: string;
  /** The subject's admin_graphql_api_id. */
  subject: string;
  url: string;
  /** 1 for the first delivery, 2 for the first retry, ... */
  attempt: number;
  outcome: "delivered" | "failed" | "dropped";
  /** The app's HTTP status; null when it never answered (or the delivery was dropped). */
  status: number | null;
  error: string | null;
  sent_at: string;
  duration_ms: number;
  /** When the next retry goes out; null when none will. */
  next_attempt_at: string | null;
}

export interface DropRule {
  remaining: number;
  /** Only deliveries of this topic; null matches every topic. */
  topic: string | null;
}

interface Webhook {
  shop: string;
  topic: string;
  webhookId: string;
  eventId: string;
  triggeredAt: string;
  subject: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  attempts: number;
}

export interface WebhookDeliveryOptions {
  subscriptions: readonly WebhookSubscription[];
  apiVersion: string;
  /** Delay before each retry; its length is the number of retries (at most 8). */
  retryDelaysMs?: readonly number[];
  /** How long the app has to answer one delivery. */
  timeoutMs?: number;
  now?: () => Date;
}

const TIMED_OUT = Symbol("timed out");
const CANCELLED = Symbol("cancelled");

export function signWebhookBody(body: string, apiSecret: string): string {
  return createHmac("sha256", apiSecret).update(body, "utf8").digest("base64");
}

function deliveryUrl(appUrl: string, uri: string): string | null {
  if (/^https?:\/\//i.test(uri)) return uri;
  // pubsub:// and arn: (EventBridge) addresses are not emulated.
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) return null;
  return `${appUrl.replace(/\/+$/, "")}/${uri.replace(/^\/+/, "")}`;
}

export class WebhookDelivery {
  readonly attempts: DeliveryAttempt[] = [];
  readonly #subscriptions: readonly WebhookSubscription[];
  readonly #apiVersion: string;
  readonly #retryDelaysMs: readonly number[];
  readonly #timeoutMs: number;
  readonly #now: () => Date;
  readonly #waiting = new Map<Webhook, NodeJS.Timeout>();
  readonly #inFlight = new Map<Webhook, AbortController>();
  readonly #idleWaiters = new Set<() => void>();
  #drops: DropRule[] = [];
  /** The event the webhooks reported in the current synchronous run belong to. */
  #currentEvent: { id: string; triggeredAt: string } | null = null;
  #generation = 0;
  #closed = false;

  constructor(options: WebhookDeliveryOptions) {
    const retryDelaysMs = options.retryDelaysMs ?? SHOPIFY_RETRY_DELAYS_MS;
    if (retryDelaysMs.length > MAX_RETRIES)
      throw new Error(
        `Webhook retries: at most ${MAX_RETRIES} delays, got ${retryDelaysMs.length}`,
      );
    this.#subscriptions = options.subscriptions;
    this.#apiVersion = options.apiVersion;
    this.#retryDelaysMs = retryDelaysMs;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    this.#now = options.now ?? (() => new Date());
  }

  /** The StoreState's sink: queues one webhook per subscription of the topic. */
  readonly sink: WebhookSink = (shop, topic, body) => this.enqueue(shop, topic, body);

  /**
   * Every webhook reported in one synchronous run (one store action: orders/create then
   * orders/paid, refunds/create then orders/updated) shares one event ID and trigger time.
   */
  #eventOfThisRun(): { id: string; triggeredAt: string } {
    if (this.#currentEvent) return this.#currentEvent;
    const event = { id: randomUUID(), triggeredAt: this.#now().toISOString() };
    this.#currentEvent = event;
    queueMicrotask(() => {
      if (this.#currentEvent === event) this.#currentEvent = null;
    });
    return event;
  }

  enqueue(shop: StoreShop, topic: string, body: WebhookBody): void {
    if (this.#closed) return;
    // A shop without the app has no subscriptions; app/uninstalled comes after the removal, and
    // the compliance topics (shop/redact 48 h after it) go to an app that is gone too.
    if (shop.installation === null && topic !== "app/uninstalled" && !isComplianceTopic(topic))
      return;
    const event = this.#eventOfThisRun();
    for (const subscription of this.#subscriptions) {
      if (!subscription.topics.includes(topic)) continue;
      const webhookId = randomUUID();
      const url = deliveryUrl(shop.app.url, subscription.uri);
      const headers = {
        "Content-Type": "application/json",
        "User-Agent": "Shopify-Captain-Hook",
        "X-Shopify-Topic": topic,
        "X-Shopify-Hmac-Sha256": signWebhookBody(body.json, shop.app.apiSecret),
        "X-Shopify-Shop-Domain": shop.domain,
        "X-Shopify-API-Version": this.#apiVersion,
        "X-Shopify-Webhook-Id": webhookId,
        "X-Shopify-Event-Id": event.id,
        "X-Shopify-Triggered-At": event.triggeredAt,
      };
      const webhook: Webhook = {
        shop: shop.domain,
        topic,
        webhookId,
        eventId: event.id,
        triggeredAt: event.triggeredAt,
        subject: body.subjectGid,
        url: url ?? subscription.uri,
        body: body.json,
        headers,
        attempts: 0,
      };
      if (url === null) {
        this.#record(webhook, {
          attempt: 1,
          outcome: "failed",
          status: null,
          error: `the subscription's address ${subscription.uri} is not emulated (only HTTP)`,
          startedAt: this.#now(),
          durationMs: 0,
          nextAttemptAt: null,
        });
        continue;
      }
      if (this.#takeDrop(topic)) {
        this.#record(webhook, {
          attempt: 1,
          outcome: "dropped",
          status: null,
          error: "dropped as asked by POST /__store/webhooks/drop",
          startedAt: this.#now(),
          durationMs: 0,
          nextAttemptAt: null,
        });
        continue;
      }
      this.#schedule(webhook, 0);
    }
  }

  #takeDrop(topic: string): boolean {
    const rule = this.#drops.find(
      (candidate) =>
        candidate.remaining > 0 && (candidate.topic === null || candidate.topic === topic),
    );
    if (!rule) return false;
    rule.remaining -= 1;
    this.#drops = this.#drops.filter((candidate) => candidate.remaining > 0);
    return true;
  }

  /** The next `count` deliveries (of `topic`, or of any topic) are lost, retries and all. */
  dropNext(count: number, topic: string | null): DropRule[] {
    this.#drops.push({ remaining: count, topic });
    return this.drops();
  }

  drops(): DropRule[] {
    return this.#drops.map((rule) => ({ ...rule }));
  }

  get pending(): number {
    return this.#waiting.size;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  isIdle(): boolean {
    return this.#waiting.size === 0 && this.#inFlight.size === 0;
  }

  /** Resolves true once nothing waits or is in flight, or false after `timeoutMs`. */
  waitUntilIdle(timeoutMs: number): Promise<boolean> {
    if (this.isIdle()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#idleWaiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.#idleWaiters.add(waiter);
    });
  }

  #notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = [...this.#idleWaiters];
    this.#idleWaiters.clear();
    for (const waiter of waiters) waiter();
  }

  #schedule(webhook: Webhook, delayMs: number): void {
    const timer = setTimeout(() => void this.#attempt(webhook), delayMs);
    this.#waiting.set(webhook, timer);
  }

  async #attempt(webhook: Webhook): Promise<void> {
    const generation = this.#generation;
    this.#waiting.delete(webhook);
    const controller = new AbortController();
    this.#inFlight.set(webhook, controller);
    const timer = setTimeout(() => controller.abort(TIMED_OUT), this.#timeoutMs);
    webhook.attempts += 1;
    const startedAt = this.#now();
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(webhook.url, {
        method: "POST",
        headers: webhook.headers,
        body: webhook.body,
        redirect: "manual",
        signal: controller.signal,
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
      if (status < 200 || status > 299) error = `the app answered ${status}`;
    } catch (caught) {
      error =
        controller.signal.reason === TIMED_OUT
          ? `no answer within ${this.#timeoutMs} ms`
          : `could not reach the app: ${caught instanceof Error ? (caught.cause instanceof Error ? caught.cause.message : caught.message) : String(caught)}`;
    } finally {
      clearTimeout(timer);
      this.#inFlight.delete(webhook);
    }
    // A reset or close while it was in flight: the webhook belongs to a store that is gone.
    if (generation !== this.#generation) return;
    const durationMs = Math.round(performance.now() - started);
    const retryDelay = error === null ? undefined : this.#retryDelaysMs[webhook.attempts - 1];
    this.#record(webhook, {
      attempt: webhook.attempts,
      outcome: error === null ? "delivered" : "failed",
      status,
      error,
      startedAt,
      durationMs,
      nextAttemptAt: retryDelay === undefined ? null : new Date(this.#now().getTime() + retryDelay),
    });
    if (retryDelay !== undefined) this.#schedule(webhook, retryDelay);
    this.#notifyIfIdle();
  }

  #record(
    webhook: Webhook,
    attempt: {
      attempt: number;
      outcome: DeliveryAttempt["outcome"];
      status: number | null;
      error: string | null;
      startedAt: Date;
      durationMs: number;
      nextAttemptAt: Date | null;
    },
  ): void {
    this.attempts.push({
      shop: webhook.shop,
      topic: webhook.topic,
      webhook_id: webhook.webhookId,
      event_id: webhook.eventId,
      triggered_at: webhook.triggeredAt,
      subject: webhook.subject,
      url: webhook.url,
      attempt: attempt.attempt,
      outcome: attempt.outcome,
      status: attempt.status,
      error: attempt.error,
      sent_at: attempt.startedAt.toISOString(),
      duration_ms: attempt.durationMs,
      next_attempt_at: attempt.nextAttemptAt?.toISOString() ?? null,
    });
  }

  /** Forgets every delivery, retry and drop; what is in flight is abandoned unrecorded. */
  reset(): void {
    this.#generation += 1;
    for (const timer of this.#waiting.values()) clearTimeout(timer);
    this.#waiting.clear();
    for (const controller of this.#inFlight.values()) controller.abort(CANCELLED);
    this.#inFlight.clear();
    this.attempts.length = 0;
    this.#drops = [];
    this.#currentEvent = null;
    this.#notifyIfIdle();
  }

  close(): void {
    this.#closed = true;
    this.reset();
  }
}
