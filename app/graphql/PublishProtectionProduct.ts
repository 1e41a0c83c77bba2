/**
 * Makes the protection product available on the Online Store sales channel (decision 013).
 * It stays `UNLISTED`: out of search, collections and recommendations, but the storefront can
 * add its variants to carts. Needs `write_publications`.
 */
export const PUBLISH_PROTECTION_PRODUCT_MUTATION = `#graphql
  mutation PublishProtectionProduct($id: ID!, $input: [PublicationInput!]!) {
    publishablePublish(id: $id, input: $input) {
      userErrors {
        field
        message
      }
    }
  }
`;
