import { buyerLinkLoader, preflightAction } from "../post-purchase/link-http.server";
import { authenticate } from "../shopify.server";

// GET /api/customer-account/protection-link?order_id=…: the Order status page's self-service
// link (decision 034), asked by the customer account UI extension with its session token.
export const loader = buyerLinkLoader("order_status", "api.customer-account.protection-link");

export const action = preflightAction((request) => authenticate.public.customerAccount(request));
