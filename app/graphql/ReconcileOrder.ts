/**
 * An order as reconciliation reads it when the list shows it incomplete, or when an edit of it
 * is due (issue 17, decision 029): every field the order webhooks' mapping reads. Lists are
 * capped as the plan actions' reads are; `lineItems.pageInfo` tells an order beyond the cap.
 * The customer object needs `read_customers`, which the app does not ask for: the buyer's name
 * comes from the billing (else shipping) address, as the webhooks' mapping falls back to.
 */
export const RECONCILE_ORDER_QUERY = `#graphql
  query ReconcileOrder($id: ID!) {
    order(id: $id) {
      id
      name
      email
      createdAt
      processedAt
      updatedAt
      cancelledAt
      currencyCode
      cartToken
      customAttributes {
        key
        value
      }
      billingAddress {
        firstName
        lastName
        address1
        address2
        city
        zip
        countryCodeV2
      }
      shippingAddress {
        firstName
        lastName
        address1
        address2
        city
        zip
        countryCodeV2
      }
      lineItems(first: 50) {
        pageInfo {
          hasNextPage
        }
        nodes {
          id
          quantity
          title
          vendor
          customAttributes {
            key
            value
          }
          originalUnitPriceSet {
            shopMoney {
              amount
              currencyCode
            }
          }
          variant {
            id
          }
        }
      }
      fulfillments(first: 10) {
        id
        status
        createdAt
        fulfillmentLineItems(first: 10) {
          nodes {
            quantity
            lineItem {
              id
            }
          }
        }
      }
      refunds(first: 10) {
        id
        note
        createdAt
        processedAt
        refundLineItems(first: 10) {
          nodes {
            quantity
            restockType
            lineItem {
              id
            }
          }
        }
      }
      agreements(first: 5) {
        nodes {
          id
          happenedAt
          reason
          sales(first: 10) {
            nodes {
              actionType
              quantity
              ... on ProductSale {
                lineItem {
                  id
                }
              }
            }
          }
        }
      }
    }
  }
`;
