import { adminOrderProtectionLoader, preflightAction } from "../post-purchase/link-http.server";
import { authenticate } from "../shopify.server";

// GET /api/admin/order-protection?order_id=…: an order's plans, events and guided checkout link
// for the admin UI extension on the order page (decision 034).
export const loader = adminOrderProtectionLoader;

export const action = preflightAction((request) => authenticate.admin(request));
