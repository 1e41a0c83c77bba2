/**
 * Whether each protection product the app created is on the Online Store's publication, for the
 * Protection items page (decision 013). Shopify's own state, so a product the merchant published
 * or unpublished by hand shows as it is.
 */
export const PROTECTION_PRODUCTS_PUBLISHED_QUERY = `#graphql
  query ProtectionProductsPublished($ids: [ID!]!, $publicationId: ID!) {
    nodes(ids: $ids) {
      __typename
      ... on Product {
        id
        title
        publishedOnPublication(publicationId: $publicationId)
      }
    }
  }
`;
