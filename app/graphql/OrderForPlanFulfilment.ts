/**
 * An order as a plan fulfilment needs it (decision 025), read again before the app acts: each
 * line's variant and `_svc_protected_product_ref`, the fulfilments with their lines
 * and statuses, and the fulfilment orders with what they support. Needs `read_orders` and, for
 * the fulfilment orders, `read_merchant_managed_fulfillment_orders` (implied by the write scope).
 */
export const ORDER_FOR_PLAN_FULFILMENT_QUERY = `#graphql
  query OrderForPlanFulfilment($id: ID!) {
    order(id: $id) {
      id
      name
      lineItems(first: 50) {
        nodes {
          id
          customAttributes {
            key
            value
          }
          variant {
            id
          }
        }
      }
      fulfillments(first: 20) {
        id
        status
        fulfillmentLineItems(first: 10) {
          nodes {
            quantity
            lineItem {
              id
            }
          }
        }
      }
      fulfillmentOrders(first: 5) {
        nodes {
          id
          status
          supportedActions {
            action
          }
          assignedLocation {
            name
          }
          lineItems(first: 10) {
            nodes {
              id
              remainingQuantity
              lineItem {
                id
              }
            }
          }
        }
      }
    }
  }
`;
