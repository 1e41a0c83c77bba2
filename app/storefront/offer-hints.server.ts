import type { AppPrismaClient } from "../db/client.server";
import { SET_PLAN_AVAILABILITY_MUTATION } from "../graphql/SetPlanAvailability";
import type { Logger } from "../logger.server";
import {
  findOfferHint,
  markOfferHintFailed,
  markOfferHintPublished,
  recordVariantPlans,
} from "../models/ProductOfferHint.server";
import { runAdminOperation, type AdminGraphql } from "../services/admin-api.server";
import { offerHintMetafield, readHintedVariants } from "./offer-hint";

/*
 * Keeps each product's layout hint (decision 014) in step with what the storefront learns: a
 * lookup's answer is recorded, and when Shopify's metafield no longer matches the app's value it
 * is written again. Runs after the plans answer has gone, so no page view waits for it. A failed
 * write stays recorded (`published` differs) and is tried again the next time the product is
 * noted; the block then simply reserves space as if the product were new.
 */

/** Publishes of one product in this process, so that a burst of page views writes it once. */
const publishing = new Map<string, Promise<void>>();
/** Products whose value changed while their publish ran: it runs once more. */
const changedWhilePublishing = new Set<string>();
/** Rounds of one publish when the value keeps changing under it; later views catch up. */
const MAX_PUBLISH_ROUNDS = 3;

export interface OfferHintLookup {
  shop: string;
  productId: string;
  variantId: string;
  /** Whether the service had plans for the variant. */
  offered: boolean;
}

/**
 * Records the answer and, when Shopify's copy differs, publishes the product's hint with the
 * shop's offline session (`graphql`, absent when the shop has none: then nothing is published).
 */
export async function updateOfferHint(
  db: AppPrismaClient,
  lookup: OfferHintLookup,
  graphql: AdminGraphql | undefined,
  log: Logger,
): Promise<void> {
  const { shop, productId, variantId, offered } = lookup;
  const hint = await recordVariantPlans(db, shop, productId, variantId, offered);
  if (!hint || hint.published === hint.withoutPlans) return;
  if (!graphql) {
    log.info(
      { productId },
      `Not publishing the offer hint of product ${productId}: ${shop} has no offline session`,
    );
    return;
  }
  await publishOfferHint(db, shop, productId, graphql, log);
}

/** Writes the product's hint to its metafield until Shopify holds the app's current value. */
export function publishOfferHint(
  db: AppPrismaClient,
  shop: string,
  productId: string,
  graphql: AdminGraphql,
  log: Logger,
): Promise<void> {
  const key = `${shop}\n${productId}`;
  const running = publishing.get(key);
  if (running) {
    changedWhilePublishing.add(key);
    return running;
  }
  const run = (async () => {
    try {
      for (let round = 0; round < MAX_PUBLISH_ROUNDS; round += 1) {
        changedWhilePublishing.delete(key);
        const hint = await findOfferHint(db, shop, productId);
        if (!hint || hint.published === hint.withoutPlans) return;
        const failure = await sendOfferHint(graphql, shop, productId, hint.withoutPlans);
        if (failure) {
          log.warn(
            { productId },
            `Failed to publish the offer hint of product ${productId}: ${failure}`,
          );
          await markOfferHintFailed(db, shop, productId, failure);
          return;
        }
        const kept = await markOfferHintPublished(db, shop, productId, hint.withoutPlans);
        if (kept && !changedWhilePublishing.has(key)) return;
      }
    } finally {
      publishing.delete(key);
      changedWhilePublishing.delete(key);
    }
  })();
  publishing.set(key, run);
  return run;
}

/** One metafieldsSet call; the reason it failed, or undefined when Shopify stored the value. */
async function sendOfferHint(
  graphql: AdminGraphql,
  shop: string,
  productId: string,
  value: string,
): Promise<string | undefined> {
  let result;
  try {
    result = await runAdminOperation(
      graphql,
      shop,
      "SetPlanAvailability",
      SET_PLAN_AVAILABILITY_MUTATION,
      {
        metafields: [offerHintMetafield(productId, readHintedVariants(value))],
      },
    );
  } catch (thrown) {
    // The library throws a Response for an expired or revoked token; no merchant is here to
    // authenticate again, so it is a failure like any other.
    if (thrown instanceof Response) return `Shopify answered HTTP ${thrown.status}`;
    throw thrown;
  }
  if (!result.ok) return result.message;
  const payload = result.data.metafieldsSet;
  if (!payload) return "SetPlanAvailability returned no payload";
  if (payload.userErrors.length > 0) {
    return payload.userErrors.map((error) => error.message).join(" ");
  }
  return undefined;
}
