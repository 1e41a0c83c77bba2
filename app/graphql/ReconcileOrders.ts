/**
 * The orders updated in a window, oldest update first, with just enough to tell whether the
 * outbox holds all their events (issue 17, decision 029): an order that looks complete costs
 * about 11 points and is not read further.
 */
export const RECONCILE_ORDER_LIST_QUERY = `#graphql
  query ReconcileOrderList($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        updatedAt
        cancelledAt
        edited
        fulfillments(first: 5) {
          id
          status
        }
        refunds(first: 5) {
          id
        }
      }
    }
  }
`;

/**
 * An order as reconciliation reads it when the list shows it incomplete, or when an edit of it
 * is due (issue 17, decision 029): every field the order webhooks' mapping reads. Lists are
 * capped as the plan actions' reads are; `lineItems.pageInfo` tells an order beyond the cap.
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
      customer {
        firstName
        lastName
        defaultEmailAddress {
          emailAddress
        }
      }
      billingAddress {
        address1
        address2
        city
        zip
        countryCodeV2
      }
      shippingAddress {
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
