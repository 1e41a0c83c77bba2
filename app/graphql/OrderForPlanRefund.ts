/**
 * An order as a plan refund needs it (decision 022), read again before the app acts: each line's
 * refundable and unfulfilled units and its `_svc_protected_product_ref`, and the refunds with
 * their notes (the app's own carry a marker). The app's refunds have one line each, so one line
 * per refund is read: that keeps the query's cost near 650 of the 1,000 points Shopify allows.
 */
export const ORDER_FOR_PLAN_REFUND_QUERY = `#graphql
  query OrderForPlanRefund($id: ID!) {
    order(id: $id) {
      id
      name
      cancelledAt
      currencyCode
      presentmentCurrencyCode
      lineItems(first: 100) {
        nodes {
          id
          refundableQuantity
          unfulfilledQuantity
          customAttributes {
            key
            value
          }
          variant {
            id
          }
        }
      }
      refunds(first: 50) {
        id
        note
        totalRefundedSet {
          presentmentMoney {
            amount
            currencyCode
          }
        }
        refundLineItems(first: 1) {
          nodes {
            quantity
            lineItem {
              id
            }
          }
        }
      }
    }
  }
`;
