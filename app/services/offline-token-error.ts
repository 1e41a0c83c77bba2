/*
 * What the background work tells the action worker when the shop's offline token is in the way
 * (decision 023); apart from offline-session.server.ts, so the classification of failures stays
 * free of the app's configuration.
 */

/** What the merchant is told when no refresh can give the app a working token. */
export const REAUTHORIZE_ADVICE =
  "the merchant must open the app in the Shopify admin again (or reinstall it) to give it a new token";

/**
 * Why a call through the shop's offline session was not made or not accepted: the token ran out
 * (`expired`, the next run refreshes it), the refresh failed on the way (`passing`), or Shopify
 * refused the refresh token (`refused`: the merchant has to open the app again).
 */
export class OfflineTokenError extends Error {
  constructor(
    readonly kind: "expired" | "passing" | "refused",
    message: string,
  ) {
    super(message);
    this.name = "OfflineTokenError";
  }
}
