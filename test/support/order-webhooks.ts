import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { action as fulfillmentsUpdate } from "../../app/routes/webhooks.fulfillments.update";
import { action as ordersCancelled } from "../../app/routes/webhooks.orders.cancelled";
import { action as ordersCreate } from "../../app/routes/webhooks.orders.create";
import { action as ordersEdited } from "../../app/routes/webhooks.orders.edited";
import { action as refundsCreate } from "../../app/routes/webhooks.refunds.create";
import type { OrderTopic } from "../../app/orders";
import { callRoute } from "./routes";
import { signedWebhookRequest, type WebhookRequestOptions } from "./webhooks";

// Order webhooks through the real routes, signed as Shopify signs them. Import this module
// only after SVC_BASE_URL and DATABASE_URL are set: the routes read the configuration on load.

const ROUTES = {
  "orders/create": ordersCreate,
  "fulfillments/create": fulfillmentsCreate,
  "fulfillments/update": fulfillmentsUpdate,
  "refunds/create": refundsCreate,
  "orders/cancelled": ordersCancelled,
  "orders/edited": ordersEdited,
} satisfies Record<OrderTopic, unknown>;

export async function sendOrderWebhook(
  options: Omit<WebhookRequestOptions, "topic"> & { topic: OrderTopic },
): Promise<Response> {
  const answer = await callRoute(ROUTES[options.topic], signedWebhookRequest(options));
  if (!(answer instanceof Response)) throw new Error("A webhook route must answer a Response");
  return answer;
}

export { LIFECYCLE, readLifecycleFixture } from "../fixtures/lifecycle/lifecycle";
