/**
 * Stages a plan line's new quantity in the app's edit (decision 026): an absolute quantity, so
 * staging it again changes nothing. A plan has no stock to restock.
 */
export const SET_PLAN_EDIT_QUANTITY_MUTATION = `#graphql
  mutation SetPlanEditQuantity($id: ID!, $lineItemId: ID!, $quantity: Int!) {
    orderEditSetQuantity(id: $id, lineItemId: $lineItemId, quantity: $quantity, restock: false) {
      calculatedLineItem {
        id
        quantity
      }
      userErrors {
        field
        message
      }
    }
  }
`;
