/**
 * The orders updated in a window, oldest update first, with just enough to tell whether the
 * outbox holds all their events (issue 17, decision 029): an order that looks complete costs
 * about 11 points and is not read further.
 */
export const RECONCILE_ORDER_LIST_QUERY = `#graphql
  query ReconcileOrderList($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        updatedAt
        cancelledAt
        edited
        fulfillments(first: 5) {
          id
          status
        }
        refunds(first: 5) {
          id
        }
      }
    }
  }
`;
