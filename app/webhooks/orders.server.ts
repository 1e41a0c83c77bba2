import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { logger } from "../logger.server";
import type { OrderTopic } from "../orders";
import { recordOrderWebhook } from "../outbox/record.server";
import { notifyOutbox } from "../outbox/signal.server";
import { authenticate } from "../shopify.server";

/**
 * The whole of an order webhook route: verify the HMAC (401 and nothing stored when wrong),
 * record the receipt and its outbox events in one transaction, answer 200. The service is
 * never called here; the outbox worker sends the events.
 */
export function orderWebhookAction(topic: OrderTopic) {
  return async ({ request }: ActionFunctionArgs) => {
    // authenticate.webhook parses with JSON.parse, which rounds IDs above 2^53; the raw body
    // is parsed again losslessly by recordOrderWebhook.
    const rawBody = await request.clone().text();
    const delivery = await verifiedDelivery(request);
    const log = logger.child({ shop: delivery.shop, topic, webhookId: delivery.webhookId });
    const result = await recordOrderWebhook(prisma, { ...delivery, topic, rawBody });
    if (result.outcome === "duplicate") {
      log.info("Duplicate delivery; already recorded");
    } else {
      const fields = { orderId: result.orderId, events: result.eventCount, detail: result.detail };
      if (result.outcome === "unprocessable") log.warn(fields, "Webhook kept as unprocessable");
      else log.info(fields, `Webhook ${result.outcome}`);
      if (result.eventCount) notifyOutbox();
    }
    return new Response();
  };
}

/**
 * authenticate.webhook checks the HMAC and then JSON.parses the body. A signed body that is
 * not JSON makes that parse throw after the check passed; the delivery is then taken from
 * the verified headers so that it can be kept as unprocessable, not lost to a 500.
 */
async function verifiedDelivery(request: Request) {
  const headers = request.headers;
  try {
    const { shop, webhookId, eventId, apiVersion } = await authenticate.webhook(request);
    return { shop, webhookId, eventId: eventId ?? null, apiVersion: apiVersion ?? null };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return {
      shop: headers.get("X-Shopify-Shop-Domain") ?? "",
      webhookId: headers.get("X-Shopify-Webhook-Id") ?? "",
      eventId: headers.get("X-Shopify-Event-Id"),
      apiVersion: headers.get("X-Shopify-API-Version"),
    };
  }
}
