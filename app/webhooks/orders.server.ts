import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { getEnv } from "../env.server";
import { logger, type Logger } from "../logger.server";
import { countWebhook } from "../metrics/registry.server";
import { ORDER_TOPICS, type OrderTopic } from "../orders";
import { recordOrderWebhook } from "../outbox/record.server";
import { notifyOutbox } from "../outbox/signal.server";
import { traceWebhook, type WebhookSpan } from "../tracing/tracing.server";
import { isInstalledShop } from "./installed-shops.server";
import { checkSignedFacts, unknownShopStatus } from "./signed-facts";
import { verifyShopifyWebhook, type HeaderReader } from "./verify.server";

/** An order webhook as it arrived: the raw bytes exactly as Shopify signed them. */
export interface RawOrderWebhook {
  method: string;
  header: HeaderReader;
  body: Uint8Array;
  /** The request's logger (its request ID), from the server; the app's own without one. */
  log?: Logger;
}

export interface WebhookAnswer {
  status: number;
  headers?: Record<string, string>;
}

/** The path of each order topic's route, as `uri` in shopify.app.toml. */
export const ORDER_WEBHOOK_PATHS: ReadonlyMap<string, OrderTopic> = new Map(
  ORDER_TOPICS.map((topic) => [`/webhooks/${topic}`, topic]),
);

let inFlight = 0;

/**
 * The whole of an order webhook: verify the HMAC (401 and nothing stored when wrong), record the
 * receipt and its outbox events in one transaction, answer 200. The service is never called
 * here; the outbox worker sends the events. Past SVC_WEBHOOK_MAX_IN_FLIGHT deliveries waiting
 * for the database, a new one is refused with 503 before anything is stored: Shopify sends it
 * again, and the process keeps its memory and its latency for the ones it took.
 */
export function handleOrderWebhook(
  topic: OrderTopic,
  webhook: RawOrderWebhook,
): Promise<WebhookAnswer> {
  // In a span when tracing is on (decision 051): its trace goes onto the webhook's outbox rows.
  const answer = (span: WebhookSpan | undefined) => answerOrderWebhook(topic, webhook, span);
  return traceWebhook(topic, answer, (answered) => answered.status);
}

async function answerOrderWebhook(
  topic: OrderTopic,
  webhook: RawOrderWebhook,
  span: WebhookSpan | undefined,
): Promise<WebhookAnswer> {
  if (webhook.method !== "POST") return { status: 405, headers: { Allow: "POST" } };
  const env = getEnv();
  const check = verifyShopifyWebhook(webhook.header, webhook.body, env.SHOPIFY_API_SECRET);
  if (!check.valid) {
    countWebhook(topic, check.status === 401 ? "unauthenticated" : "invalid");
    (webhook.log ?? logger).warn({ topic, reason: check.reason }, "Webhook refused");
    return { status: check.status };
  }
  const { shop, webhookId, eventId, apiVersion } = check.delivery;
  span?.annotate({ shop, webhookId });
  const log = (webhook.log ?? logger).child({ shop, topic, webhookId, shopifyEventId: eventId });
  // An order body names no shop: the unsigned header is all there is, so it must at least be a
  // myshopify.com domain of a shop that installed the app (decision 015).
  const facts = checkSignedFacts({
    routeTopic: topic,
    headerTopic: check.delivery.topic,
    headerShop: shop,
  });
  if (!facts.ok) {
    countWebhook(topic, "invalid");
    log.warn({ reason: facts.reason }, "Webhook refused");
    return { status: facts.status };
  }
  if (inFlight >= env.SVC_WEBHOOK_MAX_IN_FLIGHT) {
    countWebhook(topic, "refused_503");
    log.warn({ inFlight }, "Webhook refused with 503: too many deliveries waiting to be stored");
    return { status: 503, headers: { "Retry-After": "5" } };
  }
  inFlight += 1;
  try {
    if (!(await isInstalledShop(prisma, shop))) {
      countWebhook(topic, "invalid");
      log.warn("Webhook refused: the shop has not installed the app; nothing stored");
      return { status: unknownShopStatus(topic) };
    }
    const { body } = webhook;
    const rawBody = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
    const result = await recordOrderWebhook(prisma, {
      shop,
      topic,
      webhookId,
      eventId,
      apiVersion,
      rawBody,
      trace: span?.ref,
      log,
    });
    countWebhook(topic, result.outcome === "duplicate" ? "duplicate" : "accepted");
    if (result.outcome === "duplicate") {
      log.info("Duplicate delivery; already recorded");
    } else {
      const fields = {
        orderId: result.orderId,
        receiptId: result.receiptId,
        events: result.eventCount,
        detail: result.detail,
      };
      if (result.outcome === "unprocessable") log.warn(fields, "Webhook kept as unprocessable");
      else log.info(fields, `Webhook ${result.outcome}`);
      if (result.eventCount) notifyOutbox();
    }
    return { status: 200 };
  } catch (error) {
    countWebhook(topic, "error");
    log.error({ err: error }, "Failed to record the webhook; Shopify will send it again");
    return { status: 500 };
  } finally {
    inFlight -= 1;
  }
}

/** The Remix route of an order topic: the same handler, for `npm run dev` and tests. */
export function orderWebhookAction(topic: OrderTopic) {
  return async ({ request }: ActionFunctionArgs) => {
    const answer = await handleOrderWebhook(topic, {
      method: request.method,
      header: (name) => request.headers.get(name),
      body: new Uint8Array(await request.arrayBuffer()),
    });
    return new Response(null, answer);
  };
}
