import type { ActionFunctionArgs } from "@remix-run/node";
import type { AppPrismaClient } from "../db/client.server";
import prisma from "../db.server";
import { logger } from "../logger.server";
import { parseWebhookJson } from "../lib/json";
import { authenticate } from "../shopify.server";
import { isInstalledShop, isKnownShop } from "./installed-shops.server";
import type { WebhookDelivery } from "./lifecycle.server";
import {
  checkSignedFacts,
  unknownShopStatus,
  type LIFECYCLE_TOPICS,
  type COMPLIANCE_TOPICS,
} from "./signed-facts";

type RouteTopic = (typeof LIFECYCLE_TOPICS)[number] | (typeof COMPLIANCE_TOPICS)[number];

/**
 * The whole of a lifecycle or compliance webhook route: verify Shopify's HMAC (a wrong one is
 * answered 401 by authenticate.webhook and nothing is stored), keep only signed facts (the
 * route's own topic; the body's shop_domain where it has one, decision 015), hand the delivery to
 * one handler, answer 200. A mismatch is answered 400 and nothing is stored.
 */
export function webhookAction(
  routeTopic: RouteTopic,
  handler: (db: AppPrismaClient, delivery: WebhookDelivery) => Promise<unknown>,
) {
  return async ({ request }: ActionFunctionArgs) => {
    // The bytes as signed, parsed without losing digits: order IDs to redact exceed 2^53.
    const rawBody = await request.clone().text();
    const {
      shop: headerShop,
      webhookId,
      eventId,
      apiVersion,
    } = await authenticate.webhook(request);
    const headerTopic = request.headers.get("X-Shopify-Topic") ?? "";
    const log = logger.child({ shop: headerShop, topic: routeTopic, webhookId });
    const payload = parseWebhookJson(rawBody);
    const facts = checkSignedFacts({ routeTopic, headerTopic, headerShop, payload });
    if (!facts.ok) {
      log.warn({ reason: facts.reason, headerTopic }, "Webhook refused");
      return new Response(null, { status: facts.status });
    }
    const { shop } = facts;
    // shop/redact only deletes, and Shopify signed whom for: it runs whatever we hold.
    if (routeTopic !== "shop/redact") {
      const present =
        routeTopic === "app/scopes_update"
          ? await isInstalledShop(prisma, shop)
          : await isKnownShop(prisma, shop);
      if (!present) {
        log.warn("Webhook for a shop the app holds nothing for; nothing stored");
        return new Response(null, { status: unknownShopStatus(routeTopic) });
      }
    }
    await handler(prisma, {
      shop,
      topic: routeTopic,
      webhookId,
      eventId,
      apiVersion,
      payload: payload as Record<string, unknown>,
    });
    return new Response();
  };
}
