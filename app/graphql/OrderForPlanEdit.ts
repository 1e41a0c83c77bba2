/**
 * An order as a plan edit needs it (decision 026), read again before the app acts: each line's
 * units on the order and unfulfilled, its unit price and `_svc_protected_product_ref`; the
 * balance the order owes or is owed (`totalOutstandingSet`, negative when the customer is owed
 * money); the sales a refund goes back to; and the refunds' notes (the app's carry a marker).
 */
export const ORDER_FOR_PLAN_EDIT_QUERY = `#graphql
  query OrderForPlanEdit($id: ID!) {
    order(id: $id) {
      id
      name
      cancelledAt
      currencyCode
      presentmentCurrencyCode
      displayFinancialStatus
      totalOutstandingSet {
        presentmentMoney {
          amount
          currencyCode
        }
      }
      lineItems(first: 100) {
        nodes {
          id
          currentQuantity
          refundableQuantity
          unfulfilledQuantity
          discountedUnitPriceSet {
            presentmentMoney {
              amount
            }
          }
          customAttributes {
            key
            value
          }
          variant {
            id
          }
        }
      }
      transactions(first: 20) {
        id
        kind
        status
        gateway
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
      }
    }
  }
`;
