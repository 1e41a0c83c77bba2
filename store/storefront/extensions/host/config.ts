/*
 * What the store writes into a checkout block's frame for its host script (checkout-host.ts).
 * No import of the extensions' types here: the store's server modules read this file, and
 * Shopify's UI extension types declare a global `shopify` that must not reach them.
 */
export interface CheckoutHostConfig {
  target: "purchase.thank-you.block.render";
  locale: string;
  translations: Record<string, unknown>;
  currency: string;
  /** The Thank-you page's `shopify.orderConfirmation` value. */
  orderConfirmation: { order: { id: string }; number: string; isFirstOrder: boolean };
  /** POST here (same origin) answers `{token, expiresAt}`: a checkout session token. */
  sessionTokenUrl: string;
}
