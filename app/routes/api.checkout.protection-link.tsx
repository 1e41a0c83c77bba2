import { buyerLinkLoader, preflightAction } from "../post-purchase/link-http.server";
import { authenticate } from "../shopify.server";

// GET /api/checkout/protection-link?order_id=…: the Thank-you page's self-service link
// (decision 034), asked by the checkout UI extension with its session token.
export const loader = buyerLinkLoader("thank_you", "api.checkout.protection-link");

export const action = preflightAction((request) => authenticate.public.checkout(request));
