import type { ActionFunctionArgs } from "@remix-run/node";
import type { AppPrismaClient } from "../db/client.server";
import prisma from "../db.server";
import { getEnv } from "../env.server";
import { logger } from "../logger.server";
import { parseWebhookJson } from "../lib/json";
import { countWebhook, webhookResultOf } from "../metrics/registry.server";
import { isInstalledShop, isKnownShop } from "./installed-shops.server";
import type { WebhookDelivery } from "./lifecycle.server";
import {
  checkSignedFacts,
  unknownShopStatus,
  WEBHOOK_TOPICS,
  type LIFECYCLE_TOPICS,
  type COMPLIANCE_TOPICS,
} from "./signed-facts";
import { verifyShopifyWebhook } from "./verify.server";

type RouteTopic = (typeof LIFECYCLE_TOPICS)[number] | (typeof COMPLIANCE_TOPICS)[number];

/**
 * The whole of a lifecycle or compliance webhook route: verify Shopify's HMAC as the order
 * webhooks do (a wrong one is answered 401 and nothing is stored), keep only signed facts (the
 * route's own topic; the body's shop_domain where it has one, decision 015), hand the delivery to
 * one handler, answer 200. A mismatch is answered 400 and nothing is stored. No offline session
 * is loaded here: a handler that needs the Admin API opens it through the refresh lease
 * (decisions 042 and 046), as `authenticate.webhook` would refresh the token outside it.
 */
export function webhookAction(
  routeTopic: RouteTopic,
  handler: (db: AppPrismaClient, delivery: WebhookDelivery) => Promise<unknown>,
) {
  const answer = verifiedWebhookAction(routeTopic, handler);
  // Every answer counts in svc_webhooks_received_total, a thrown one too (decision 047).
  return async (args: ActionFunctionArgs) => {
    try {
      const response = await answer(args);
      countWebhook(routeTopic, webhookResultOf(response.status), WEBHOOK_TOPICS);
      return response;
    } catch (thrown) {
      const status = thrown instanceof Response ? thrown.status : 500;
      countWebhook(routeTopic, webhookResultOf(status), WEBHOOK_TOPICS);
      throw thrown;
    }
  };
}

function verifiedWebhookAction(
  routeTopic: RouteTopic,
  handler: (db: AppPrismaClient, delivery: WebhookDelivery) => Promise<unknown>,
) {
  return async ({ request }: ActionFunctionArgs) => {
    if (request.method !== "POST") {
      return new Response(null, { status: 405, headers: { Allow: "POST" } });
    }
    const body = new Uint8Array(await request.arrayBuffer());
    const check = verifyShopifyWebhook(
      (name) => request.headers.get(name),
      body,
      getEnv().SHOPIFY_API_SECRET,
    );
    if (!check.valid) {
      logger.warn({ topic: routeTopic, reason: check.reason }, "Webhook refused");
      return new Response(null, { status: check.status });
    }
    const { shop: headerShop, topic: headerTopic, webhookId, eventId, apiVersion } = check.delivery;
    const log = logger.child({ shop: headerShop, topic: routeTopic, webhookId });
    let payload: unknown;
    try {
      // The bytes as signed, parsed without losing digits: order IDs to redact exceed 2^53.
      payload = parseWebhookJson(Buffer.from(body).toString("utf8"));
    } catch {
      log.warn("Webhook refused: its signed body is not JSON");
      return new Response(null, { status: 400 });
    }
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
      ...(eventId ? { eventId } : {}),
      apiVersion,
      payload: payload as Record<string, unknown>,
    });
    return new Response();
  };
}
