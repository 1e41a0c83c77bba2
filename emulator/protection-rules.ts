import { findPlans, isProtectionItem, type Catalogue } from "./catalogue";
import type { LineItem, UpdateLineItemAction } from "./schemas";
import type { OrderRecord } from "./state";

/*
 * The service-side rules the emulator plays: cart management actions and which order lines
 * can still be protected. Pure functions, so they can be read next to the spec.
 */

function productReferenceOf(lineItem: LineItem): string | undefined {
  return lineItem.custom_properties?.product_reference;
}

/**
 * Spec rule 5: a plan line's quantity equals its protected product's quantity, and drops to 0
 * when the product leaves the cart. A product's quantity is the sum over its non-plan lines.
 */
export function computeCartActions(lineItems: readonly LineItem[]): UpdateLineItemAction[] {
  const productQuantities = new Map<string, number>();
  for (const lineItem of lineItems) {
    if (productReferenceOf(lineItem) !== undefined) continue;
    productQuantities.set(
      lineItem.product_id,
      (productQuantities.get(lineItem.product_id) ?? 0) + lineItem.quantity,
    );
  }
  const actions: UpdateLineItemAction[] = [];
  for (const lineItem of lineItems) {
    const reference = productReferenceOf(lineItem);
    if (reference === undefined) continue;
    const protectedQuantity = productQuantities.get(reference) ?? 0;
    if (lineItem.quantity !== protectedQuantity) {
      actions.push({
        type: "update_line_item",
        payload: { line_item_id: lineItem.id, line_item_quantity: protectedQuantity },
      });
    }
  }
  return actions;
}

export interface AvailablePlan {
  line_item_id: string;
  product_reference: string;
  plan_price_amount: number;
  plan_price_currency: string;
}

/**
 * Lines of a placed order that a self-service or guided checkout can still protect: not a plan
 * line, not already protected by a plan line of the order, not cancelled or refunded in full,
 * and with a plan in the catalogue. Each gets the first plan of its price band.
 */
export function findAvailablePlans(order: OrderRecord, catalogue: Catalogue): AvailablePlan[] {
  if (order.cancelled_at !== null) return [];
  const lineItems = order.placed.line_items;
  // A plan line is known by its product_reference or, when the integration omits it, by its
  // product id being a protection item of the catalogue.
  const isPlanLine = (lineItem: LineItem) =>
    productReferenceOf(lineItem) !== undefined || isProtectionItem(catalogue, lineItem.product_id);
  const protectedProductIds = new Set(
    lineItems
      .map(productReferenceOf)
      .filter((reference): reference is string => reference !== undefined),
  );

  const removedQuantities = new Map<string, number>();
  const addRemoved = (lineItemId: string, quantity: number) =>
    removedQuantities.set(lineItemId, (removedQuantities.get(lineItemId) ?? 0) + quantity);
  for (const refund of order.refunds) addRemoved(refund.line_item_id, refund.quantity);
  for (const cancelled of order.cancelled_line_items) {
    const orderedQuantity =
      lineItems.find((lineItem) => lineItem.id === cancelled.line_item_id)?.quantity ?? 0;
    addRemoved(cancelled.line_item_id, cancelled.quantity ?? orderedQuantity);
  }

  const available: AvailablePlan[] = [];
  for (const lineItem of lineItems) {
    if (isPlanLine(lineItem) || protectedProductIds.has(lineItem.product_id)) continue;
    if (lineItem.quantity - (removedQuantities.get(lineItem.id) ?? 0) <= 0) continue;
    const [plan] = findPlans(catalogue, {
      product_id: lineItem.product_id,
      title: lineItem.product_title,
      price_amount: lineItem.price_amount,
      price_currency: order.placed.order_currency,
    }).plans;
    if (!plan) continue;
    available.push({
      line_item_id: lineItem.id,
      product_reference: lineItem.product_id,
      plan_price_amount: plan.price_amount,
      plan_price_currency: catalogue.currency,
    });
  }
  return available;
}
