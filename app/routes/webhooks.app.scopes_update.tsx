import { webhookAction } from "../webhooks/action.server";
import { handleScopesUpdate } from "../webhooks/lifecycle.server";

export const action = webhookAction("app/scopes_update", handleScopesUpdate);
