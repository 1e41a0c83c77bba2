/**
 * Whether a variant ID the storefront sent is one of the shop's, and its product (decision 016):
 * `productVariant` answers null for an ID the shop does not have. Needs `read_products`.
 */
export const PRODUCT_VARIANT_OWNER_QUERY = `#graphql
  query ProductVariantOwner($id: ID!) {
    productVariant(id: $id) {
      id
      product {
        id
      }
    }
  }
`;
