/**
 * Creates the one-to-many protection product in one step (decision 013): synchronous
 * `productSet`, so the product and all its variants exist, or nothing does.
 */
export const CREATE_PROTECTION_PRODUCT_MUTATION = `#graphql
  mutation CreateProtectionProduct($productSet: ProductSetInput!, $synchronous: Boolean!) {
    productSet(synchronous: $synchronous, input: $productSet) {
      product {
        id
        title
        status
        variants(first: 100) {
          nodes {
            id
            title
            price
            taxable
            selectedOptions {
              name
              value
            }
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;
