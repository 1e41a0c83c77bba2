import { webhookAction } from "../webhooks/action.server";
import { handleShopRedact } from "../webhooks/lifecycle.server";

export const action = webhookAction("shop/redact", handleShopRedact);
