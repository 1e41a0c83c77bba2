import type { ShopConnection } from "../generated/prisma/sqlite/client";
import {
  CHECK_CANCELLED_PLANS,
  EDIT_PLAN_LINE,
  FULFIL_PLAN_LINE,
  PLAN_EDITS_OFF,
  PLAN_FULFILMENTS_OFF,
  PLAN_REFUNDS_OFF,
  REFUND_PLAN_LINE,
} from "../models/ShopifyAction.server";
import { runCancelledPlansCheck } from "./check-cancelled-plans.server";
import { runPlanEdit } from "./edit-plan-lines.server";
import { runPlanFulfilment } from "./fulfil-plan-line.server";
import type { ActionContext, ActionOutcome, ActionRow } from "./outcome.server";
import { runPlanRefund } from "./refund-plan-line.server";

/*
 * The kinds of Shopify action the queue runs (decision 022), each with the setting that
 * switches its automation off. The worker reads the setting when an action runs: off, the
 * action is skipped with the reason, and the merchant can still run it from the admin.
 */

/** The shop settings that switch an automation on and off. */
export type AutomationSetting = keyof Pick<
  ShopConnection,
  "autoRefundPlans" | "autoEditPlans" | "autoFulfilPlans"
>;

export interface ActionHandler {
  /**
   * The setting that must be on for the app to act on its own, and why an action was skipped
   * while it was off; null for a kind no setting switches off.
   */
  automation: { setting: AutomationSetting; offDetail: string } | null;
  run(context: ActionContext, row: ActionRow): Promise<ActionOutcome>;
}

const handlers: Record<string, ActionHandler> = {
  [REFUND_PLAN_LINE]: {
    automation: { setting: "autoRefundPlans", offDetail: PLAN_REFUNDS_OFF },
    run: runPlanRefund,
  },
  [EDIT_PLAN_LINE]: {
    automation: { setting: "autoEditPlans", offDetail: PLAN_EDITS_OFF },
    run: runPlanEdit,
  },
  // The app never refunds a cancelled order on its own: the check flags it for the merchant,
  // whatever the settings, and refunds only when the merchant asks.
  [CHECK_CANCELLED_PLANS]: {
    automation: null,
    run: runCancelledPlansCheck,
  },
  [FULFIL_PLAN_LINE]: {
    automation: { setting: "autoFulfilPlans", offDetail: PLAN_FULFILMENTS_OFF },
    run: runPlanFulfilment,
  },
};

/** The handler of a kind; undefined for a kind this version of the app does not know. */
export function actionHandlerOf(kind: string): ActionHandler | undefined {
  return handlers[kind];
}

/** The settings the worker reads for every action, whatever its kind. */
export const AUTOMATION_SETTINGS = {
  autoRefundPlans: true,
  autoEditPlans: true,
  autoFulfilPlans: true,
} as const satisfies Record<AutomationSetting, true>;
