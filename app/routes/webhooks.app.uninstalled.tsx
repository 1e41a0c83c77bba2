import { webhookAction } from "../webhooks/action.server";
import { handleAppUninstalled } from "../webhooks/lifecycle.server";

export const action = webhookAction("app/uninstalled", handleAppUninstalled);
