/**
 * Fulfils plan lines on one fulfilment order (decision 025), without notifying the customer.
 * fulfillmentCreate takes no idempotency key: the order read again before every call is what
 * keeps it to once. Needs `write_merchant_managed_fulfillment_orders`.
 */
export const FULFIL_PLAN_LINES_MUTATION = `#graphql
  mutation FulfilPlanLines($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }
`;
