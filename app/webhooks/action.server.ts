import type { ActionFunctionArgs } from "@remix-run/node";
import type { AppPrismaClient } from "../db/client.server";
import prisma from "../db.server";
import { authenticate } from "../shopify.server";
import type { WebhookDelivery } from "./lifecycle.server";

/**
 * The whole of a webhook route: verify Shopify's HMAC (a wrong one is answered 401 by
 * authenticate.webhook and nothing is stored), hand the delivery to one handler, answer 200.
 */
export function webhookAction(
  handler: (db: AppPrismaClient, delivery: WebhookDelivery) => Promise<unknown>,
) {
  return async ({ request }: ActionFunctionArgs) => {
    const { shop, topic, webhookId, eventId, apiVersion, payload } =
      await authenticate.webhook(request);
    // Kept in Shopify's own spelling ("app/uninstalled"), not the library's APP_UNINSTALLED.
    const topicHeader = request.headers.get("X-Shopify-Topic") ?? String(topic);
    await handler(prisma, { shop, topic: topicHeader, webhookId, eventId, apiVersion, payload });
    return new Response();
  };
}
