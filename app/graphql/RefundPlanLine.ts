/**
 * Refunds a plan line with its product (decision 022). The idempotency key is derived from the
 * trigger refund and the plan line, so a retry after any failure or crash refunds once. Needs
 * `write_orders`.
 */
export const REFUND_PLAN_LINE_MUTATION = `#graphql
  mutation RefundPlanLine($input: RefundInput!, $idempotencyKey: String!) {
    refundCreate(input: $input) @idempotent(key: $idempotencyKey) {
      refund {
        id
        note
        totalRefundedSet {
          presentmentMoney {
            amount
            currencyCode
          }
        }
      }
      userErrors {
        field
        message
      }
    }
  }
`;
