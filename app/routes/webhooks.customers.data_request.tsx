import { webhookAction } from "../webhooks/action.server";
import { handleCustomersDataRequest } from "../webhooks/lifecycle.server";

export const action = webhookAction("customers/data_request", handleCustomersDataRequest);
