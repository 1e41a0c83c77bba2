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
import { hintedVariants, offerHintMetafield, serializeHintedVariants } from "./offer-hint";

/*
 * Keeps each product's layout hint (decision 014) in step with what the storefront learns: a
 * lookup's answer is recorded, and when Shopify's metafield no longer matches the app's value it
 * is written again. Runs after the plans answer has gone, so no page view waits for it. A failed
 * write stays recorded (`published` differs) and is tried again the next time the product is
 * noted; the block then simply reserves space as if the product were new.
 */

/** Publishes of one product in this process, so that a burst of page views writes it once. */
const publishing = new Map<string, Promise<void>>();
/** Products noted while their publish ran: it reads them again before it ends. */
const changedWhilePublishing = new Set<string>();
/**
 * Rounds of one publish, each a read and, when Shopify's copy differs, a write. A publish takes
 * two (the write, and the read that finds it done); when the value keeps changing under it, later
 * views catch up.
 */
const MAX_PUBLISH_ROUNDS = 4;

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
  await recordVariantPlans(db, shop, productId, variantId, offered);
  if (!(await unpublishedHint(db, shop, productId))) return;
  if (!graphql) {
    log.info(
      { productId },
      `Not publishing the offer hint of product ${productId}: ${shop} has no offline session`,
    );
    return;
  }
  await publishOfferHint(db, shop, productId, graphql, log);
}

/** The product's list when Shopify does not hold it yet; undefined when there is nothing to send. */
async function unpublishedHint(
  db: AppPrismaClient,
  shop: string,
  productId: string,
): Promise<string[] | undefined> {
  const hint = await findOfferHint(db, shop, productId);
  if (!hint) return undefined;
  const withoutPlans = hintedVariants(hint.withoutPlans);
  return serializeHintedVariants(withoutPlans) === hint.published ? undefined : withoutPlans;
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
        const withoutPlans = await unpublishedHint(db, shop, productId);
        if (!withoutPlans) {
          // A view that joined meanwhile may have written after this read began: read again.
          if (changedWhilePublishing.has(key)) continue;
          return;
        }
        const failure = await sendOfferHint(graphql, shop, productId, withoutPlans);
        if (failure) {
          log.warn(
            { productId },
            `Failed to publish the offer hint of product ${productId}: ${failure}`,
          );
          await markOfferHintFailed(db, shop, productId, failure);
          return;
        }
        // Shopify holds what was sent, whatever was noted meanwhile; the next round sees that.
        await markOfferHintPublished(db, shop, productId, serializeHintedVariants(withoutPlans));
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
  withoutPlans: readonly string[],
): Promise<string | undefined> {
  let result;
  try {
    result = await runAdminOperation(
      graphql,
      shop,
      "SetPlanAvailability",
      SET_PLAN_AVAILABILITY_MUTATION,
      {
        metafields: [offerHintMetafield(productId, withoutPlans)],
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
