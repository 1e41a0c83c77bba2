/**
 * Whether an order is the shop's, and when it was placed (decision 034): `order` answers null
 * for an ID the shop does not have. The post-purchase links ask it while no webhook has told the
 * app of the order yet. Needs `read_orders`.
 */
export const ORDER_PLACED_AT_QUERY = `#graphql
  query OrderPlacedAt($id: ID!) {
    order(id: $id) {
      id
      createdAt
    }
  }
`;
