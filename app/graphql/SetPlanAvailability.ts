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
