// The two values that tie a storefront cart to its order at the service (decision 033): the
// cart's ID and the buyer's session ID, the same on the storefront's side and the order's.

/** The cart attribute the app embed writes: the session ID its /cart_updates calls carry. */
export const USER_SESSION_ATTRIBUTE = "_svc_user_session_id";

/** A user session ID as the storefront makes them: the form of a UUID. */
export const USER_SESSION_ID_FORM =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The cart's ID as the service knows it. Shopify's /cart.js token is `<token>?key=<secret>` in
 * current stores, while an order's `cart_token` is the part before `?`: the service gets that
 * part from both sides, and never the key, which lets anyone holding it read the cart.
 */
export function cartIdOf(token: string): string {
  const query = token.indexOf("?");
  return (query === -1 ? token : token.slice(0, query)).trim();
}
