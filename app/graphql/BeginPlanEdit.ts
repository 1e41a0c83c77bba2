/**
 * Opens an edit of the order to lower its plan lines (decision 026); its calculated line items
 * are the ones the quantities are set on. An edit begun but never committed changes nothing and
 * is abandoned. Needs `write_order_edits`.
 */
export const BEGIN_PLAN_EDIT_MUTATION = `#graphql
  mutation BeginPlanEdit($id: ID!) {
    orderEditBegin(id: $id) {
      calculatedOrder {
        id
        lineItems(first: 100) {
          nodes {
            id
            quantity
            customAttributes {
              key
              value
            }
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
