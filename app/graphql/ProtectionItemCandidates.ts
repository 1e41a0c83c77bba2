/**
 * The products and variants the merchant picked in the resource picker, with what a protection
 * item needs (title, price, product), and the shop's currency. A picked product stands for all
 * its variants.
 */
export const PROTECTION_ITEM_CANDIDATES_QUERY = `#graphql
  query ProtectionItemCandidates($ids: [ID!]!) {
    shop {
      currencyCode
    }
    nodes(ids: $ids) {
      __typename
      ... on ProductVariant {
        id
        title
        price
        product {
          id
          title
        }
      }
      ... on Product {
        id
        title
        variants(first: 250) {
          nodes {
            id
            title
            price
          }
        }
      }
    }
  }
`;
