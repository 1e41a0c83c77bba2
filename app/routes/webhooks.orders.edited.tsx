import { orderWebhookAction } from "../webhooks/orders.server";

export const action = orderWebhookAction("orders/edited");
