/** The shop's currency: protection item prices are entered and stored in it. */
export const SHOP_CURRENCY_QUERY = `#graphql
  query ShopCurrency {
    shop {
      currencyCode
    }
  }
`;
