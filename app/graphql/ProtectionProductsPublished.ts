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

export interface ProtectionProductsPublishedVariables {
  ids: string[];
  publicationId: string;
}

export interface PublishedProduct {
  __typename: "Product";
  id: string;
  title: string;
  publishedOnPublication: boolean;
}

export interface ProtectionProductsPublishedData {
  /** In the order of `ids`; null for a product that no longer exists. */
  nodes: (PublishedProduct | { __typename: string } | null)[];
}
