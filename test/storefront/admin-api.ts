import { answerAdminGraphql } from "../support/admin-graphql";
import type { MetafieldInput, Storefront } from "./harness";

/**
 * The harness plays Shopify's Admin API for the app's metafield writes (the offer's layout hint,
 * decision 014): each SetPlanAvailability call lands on the harness's products, and the next
 * product page renders it. Import test/support/admin-graphql before the Shopify library loads.
 */
export function playMetafieldsSet(storefront: Storefront): () => void {
  return answerAdminGraphql("SetPlanAvailability", (call) => ({
    data: storefront.metafieldsSet((call.variables as { metafields: MetafieldInput[] }).metafields),
  }));
}
