import type { Api as ThankYouApi } from "@shopify/ui-extensions/purchase.thank-you.block.render";
import type { Api as OrderStatusApi } from "@shopify/ui-extensions/customer-account.order-status.block.render";

// The parts of each target's API the extension reads. The entry modules narrow the global
// `shopify` to these, so the browser tests' stubs (typed by the same names) cannot drift from
// what the extension uses, nor from Shopify's published types.
export type ThankYouHost = Pick<ThankYouApi, "orderConfirmation" | "sessionToken" | "i18n">;
export type OrderStatusHost = Pick<OrderStatusApi, "order" | "sessionToken" | "i18n">;

/** What the offer itself needs, on either page. */
export type BuyerHost = Pick<ThankYouHost & OrderStatusHost, "sessionToken" | "i18n">;
