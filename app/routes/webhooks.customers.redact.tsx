import { webhookAction } from "../webhooks/action.server";
import { handleCustomersRedact } from "../webhooks/lifecycle.server";

export const action = webhookAction("customers/redact", handleCustomersRedact);
