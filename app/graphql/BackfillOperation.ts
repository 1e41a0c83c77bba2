/** Where the backfill's bulk query stands, and where its result is. */
export const BACKFILL_OPERATION_QUERY = `#graphql
  query BackfillOperation($id: ID!) {
    node(id: $id) {
      ... on BulkOperation {
        id
        status
        errorCode
        objectCount
        rootObjectCount
        url
        partialDataUrl
      }
    }
  }
`;
