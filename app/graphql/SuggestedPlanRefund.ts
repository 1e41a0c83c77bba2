/**
 * What Shopify would refund for some units of a plan line (decision 022): the amount and the
 * transactions back to the original payment methods, in the order's presentment currency.
 */
export const SUGGESTED_PLAN_REFUND_QUERY = `#graphql
  query SuggestedPlanRefund($id: ID!, $refundLineItems: [RefundLineItemInput!]!) {
    order(id: $id) {
      suggestedRefund(
        refundLineItems: $refundLineItems
        refundMethodAllocation: ORIGINAL_PAYMENT_METHODS
      ) {
        amountSet {
          presentmentMoney {
            amount
            currencyCode
          }
        }
        suggestedTransactions {
          gateway
          kind
          amountSet {
            presentmentMoney {
              amount
              currencyCode
            }
          }
          parentTransaction {
            id
          }
        }
      }
    }
  }
`;
