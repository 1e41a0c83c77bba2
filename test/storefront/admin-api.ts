import { answerAdminGraphql, answerVariantOwners } from "../support/admin-graphql";
import type { MetafieldInput, Storefront } from "./harness";

/**
 * The harness plays Shopify's Admin API for the app's metafield writes (the offer's layout hint,
 * decision 014): each SetPlanAvailability call lands on the harness's products, and the next
 * product page renders it.
 */
export function playMetafieldsSet(storefront: Storefront): () => void {
  return answerAdminGraphql("SetPlanAvailability", (call) => ({
    data: storefront.metafieldsSet((call.variables as { metafields: MetafieldInput[] }).metafields),
  }));
}

/**
 * The harness plays Shopify's `productVariant` lookup, by which the app checks that a variant ID
 * from the storefront is one of the shop's (decision 016): answered from the harness's products.
 */
export function playProductVariants(storefront: Storefront): () => void {
  return answerVariantOwners(
    (variantId) =>
      storefront.shop.products.find((candidate) =>
        candidate.variants.some((variant) => variant.id === Number(variantId)),
      )?.id,
  );
}
