import type { CartAction } from "../protection/types";
import { isPlanLine, type StorefrontCartLine } from "./cart";

/*
 * The spec's cart obligations 4 and 5, kept by the app itself: a plan line's quantity equals the
 * quantity of the product it protects (the summed quantity of the cart's non-plan lines of that
 * variant), and drops to 0 when the product leaves the cart. Pure functions over the cart.
 */

/** An action for the storefront: set the line with this /cart.js key to this quantity. */
export type CartLineAction = { type: "update_line_item"; line_item_key: string; quantity: number };

/** Why a service action was not passed on as it was, for the log. */
export type ReconcileNote =
  | { kind: "unknown_line"; lineItemKey: string; quantity: number }
  | { kind: "negative_quantity"; lineItemKey: string; quantity: number }
  | { kind: "repeated_line"; lineItemKey: string; quantity: number }
  | { kind: "plan_line_disagreement"; lineItemKey: string; service: number; local: number }
  | { kind: "plan_line_action_missing"; lineItemKey: string; current: number; local: number };

/** The actions the local rules require for this cart, in cart order. */
export function requiredCartActions(lines: readonly StorefrontCartLine[]): CartLineAction[] {
  return planActions(lines, new Map());
}

/**
 * The service's actions checked against the cart: actions naming a line that is not in the cart,
 * or asking for a negative quantity, are dropped. Its actions on product lines are kept, and the
 * plan lines then follow the local rules, computed on the quantities those actions leave: on plan
 * lines the local rules win. Actions that would change nothing are left out, so the storefront's
 * update loop ends.
 */
export function reconcileServiceActions(
  lines: readonly StorefrontCartLine[],
  serviceActions: readonly CartAction[],
): { actions: CartLineAction[]; notes: ReconcileNote[] } {
  const byKey = new Map(lines.map((line) => [line.key, line]));
  const notes: ReconcileNote[] = [];
  const productQuantities = new Map<string, number>();
  const servicePlanQuantities = new Map<string, number>();

  for (const action of serviceActions) {
    const { line_item_id: lineItemKey, line_item_quantity: quantity } = action.payload;
    const line = byKey.get(lineItemKey);
    if (!line) {
      notes.push({ kind: "unknown_line", lineItemKey, quantity });
      continue;
    }
    if (quantity < 0) {
      notes.push({ kind: "negative_quantity", lineItemKey, quantity });
      continue;
    }
    const seen = isPlanLine(line) ? servicePlanQuantities : productQuantities;
    if (seen.has(lineItemKey)) notes.push({ kind: "repeated_line", lineItemKey, quantity });
    seen.set(lineItemKey, quantity);
  }

  const plans = planActions(lines, productQuantities);
  const planTargets = new Map(plans.map((action) => [action.line_item_key, action.quantity]));
  for (const line of lines) {
    if (!isPlanLine(line)) continue;
    const local = planTargets.get(line.key) ?? line.quantity;
    const service = servicePlanQuantities.get(line.key);
    if (service === undefined) {
      if (local !== line.quantity) {
        notes.push({
          kind: "plan_line_action_missing",
          lineItemKey: line.key,
          current: line.quantity,
          local,
        });
      }
    } else if (service !== local) {
      notes.push({ kind: "plan_line_disagreement", lineItemKey: line.key, service, local });
    }
  }

  const actions: CartLineAction[] = [];
  for (const line of lines) {
    const quantity = isPlanLine(line) ? planTargets.get(line.key) : productQuantities.get(line.key);
    if (quantity !== undefined && quantity !== line.quantity) {
      actions.push({ type: "update_line_item", line_item_key: line.key, quantity });
    }
  }
  return { actions, notes };
}

/** Plan line actions, with product line quantities as `productQuantities` would set them. */
function planActions(
  lines: readonly StorefrontCartLine[],
  productQuantities: ReadonlyMap<string, number>,
): CartLineAction[] {
  const quantityByVariant = new Map<string, number>();
  for (const line of lines) {
    if (isPlanLine(line)) continue;
    const quantity = productQuantities.get(line.key) ?? line.quantity;
    quantityByVariant.set(line.variantId, (quantityByVariant.get(line.variantId) ?? 0) + quantity);
  }
  const actions: CartLineAction[] = [];
  for (const line of lines) {
    if (line.protectedProductRef === undefined) continue;
    // An unusable reference ("") matches no variant, so such a plan goes to 0.
    const required = quantityByVariant.get(line.protectedProductRef) ?? 0;
    if (required !== line.quantity) {
      actions.push({ type: "update_line_item", line_item_key: line.key, quantity: required });
    }
  }
  return actions;
}
