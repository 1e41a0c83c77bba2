/**
 * Commits the app's edit of the plan lines (decision 026), without telling the customer, under a
 * staff note that marks it as the app's. The order's balance afterwards says whether the
 * customer is owed money.
 */
export const COMMIT_PLAN_EDIT_MUTATION = `#graphql
  mutation CommitPlanEdit($id: ID!, $staffNote: String!) {
    orderEditCommit(id: $id, notifyCustomer: false, staffNote: $staffNote) {
      order {
        id
        displayFinancialStatus
        totalOutstandingSet {
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
