/**
 * Starts the backfill's bulk query (issue 17, decision 029). `groupObjects` puts each order's
 * nested lines right after it, so the result can be read one order at a time, in flat memory.
 */
export const RUN_BACKFILL_QUERY_MUTATION = `#graphql
  mutation RunBackfillQuery($query: String!) {
    bulkOperationRunQuery(query: $query, groupObjects: true) {
      bulkOperation {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;
