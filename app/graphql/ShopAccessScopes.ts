/**
 * The shop the token belongs to and the scopes it has now: app/scopes_update is checked against
 * its signed shop_id, and the scopes stored are Shopify's, never a replayed body's (decision 045).
 */
export const SHOP_ACCESS_SCOPES_QUERY = `#graphql
  query ShopAccessScopes {
    shop {
      id
    }
    app {
      installation {
        accessScopes {
          handle
        }
      }
    }
  }
`;
