import type { OfferHintMetafieldInput } from "../storefront/offer-hint";

/**
 * Writes the offer block's layout hint, the app-owned product metafield
 * `$app.plan_availability` (decision 014). Its definition, with storefront read access, is
 * declared in shopify.app.toml. Needs `write_products`.
 */
export const SET_PLAN_AVAILABILITY_MUTATION = `#graphql
  mutation SetPlanAvailability($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields {
        key
        namespace
        updatedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface SetPlanAvailabilityVariables {
  metafields: OfferHintMetafieldInput[];
}

export interface MetafieldsSetUserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

export interface SetPlanAvailabilityData {
  metafieldsSet: {
    metafields: { key: string; namespace: string; updatedAt: string }[] | null;
    userErrors: MetafieldsSetUserError[];
  } | null;
}
