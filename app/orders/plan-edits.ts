import { idString } from "../lib/shopify-id";
import { webhookResource } from "./map-webhook";
import { isJsonObject } from "./payload-reader";
import type { OrderLineRef, RefundedLine } from "./plan-refunds";

/*
 * Plans follow their products through order edits (decision 026): when an edit removes or
 * reduces a protected product, the app reduces its plan lines to match, with an edit of its
 * own. Pure: an orders/edited payload, the app's record of the order's lines and the order as
 * the Admin API answers it come in; which plan lines to reduce, to what, and how much money the
 * reduction is worth come out.
 */

const NOTE_PREFIX = "svc-protection: plan reduced with its product";

/** The staff note of the app's edit, and the note of its refund: ours, and what caused them. */
export function planEditNote(triggerEditId: string): string {
  return `${NOTE_PREFIX} (edit ${triggerEditId})`;
}

/** A line an edit removed units of, and how many. */
export type EditedLine = RefundedLine;

export type EditTrigger =
  | {
      kind: "trigger";
      orderId: string;
      editId: string;
      /** The lines whose quantity the edit lowered, with the units it took away. */
      removals: EditedLine[];
    }
  | { kind: "none"; detail: string };

function changesOf(value: unknown): EditedLine[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (!isJsonObject(entry)) return [];
    const lineItemId = idString(entry.id);
    // Shopify writes a removal's delta as a positive count; a negative one means the same.
    const delta = typeof entry.delta === "number" ? Math.abs(entry.delta) : 0;
    return lineItemId !== null && Number.isSafeInteger(delta) && delta > 0
      ? [{ lineItemId, quantity: delta }]
      : [];
  });
}

/** What an orders/edited asks of the app: the lines it reduced, if it reduced any. */
export function readEditTrigger(payload: unknown): EditTrigger {
  // The body is `{order_edit: {...}}`: the edit is inside it.
  const body = webhookResource("orders/edited", payload);
  const edit = body && isJsonObject(body.order_edit) ? body.order_edit : null;
  const editId = idString(edit?.id);
  const orderId = idString(edit?.order_id);
  if (!edit || editId === null || orderId === null) {
    return { kind: "none", detail: "the order edit has no ID or order ID" };
  }
  const lines = isJsonObject(edit.line_items) ? edit.line_items : {};
  const removals = changesOf(lines.removals);
  if (!removals.length) {
    return { kind: "none", detail: `order edit ${editId} removes no units` };
  }
  return { kind: "trigger", orderId, editId, removals };
}

export type PlanEditToQueue =
  { kind: "queue"; lines: EditedLine[] } | { kind: "nothing"; detail: string };

/**
 * Whether an edit's removals reach a plan: they must lower a product line (no plan property)
 * whose variant a plan line of the order protects. `orderLines` is the order as its
 * order_placed recorded it, or null when that is not recorded yet: then every removal is queued
 * and the worker decides on the order it reads. A line the placed order does not know was added
 * by an edit; its plans are left alone (decision 026). An edit of plan lines only, such as the
 * app's own, queues nothing.
 */
export function planEditToQueue(
  removals: readonly EditedLine[],
  orderLines: readonly OrderLineRef[] | null,
): PlanEditToQueue {
  if (orderLines === null) return { kind: "queue", lines: [...removals] };
  const protectedVariants = new Set(
    orderLines.flatMap((line) => (line.protectedRef ? [line.protectedRef] : [])),
  );
  const byId = new Map(orderLines.map((line) => [line.id, line]));
  const lines = removals.filter((removal) => {
    const line = byId.get(removal.lineItemId);
    return (
      line !== undefined &&
      line.protectedRef === null &&
      line.variantRef !== null &&
      protectedVariants.has(line.variantRef)
    );
  });
  return lines.length
    ? { kind: "queue", lines }
    : { kind: "nothing", detail: "the edit lowers no protected product of the order" };
}

/** A line of the order as the Admin API answers it when the action runs. */
export interface EditableOrderLine extends OrderLineRef {
  /** Units on the order now: ordered, minus those edits and restocking refunds took away. */
  currentQuantity: number;
  /**
   * Units not refunded yet (after edits): what the customer still holds. A refund without
   * restock leaves its units in `currentQuantity`, so only this compares a product with its plan.
   */
  refundableQuantity: number;
  /** Units not fulfilled yet: the only ones an edit can remove. */
  unfulfilledQuantity: number;
  /** The price of one unit after the line's discounts, in minor units of the order's currency. */
  unitPrice: number;
}

/** What the app does to one plan line. */
export interface PlanLineEdit {
  planLineId: string;
  /** The variant the plan line protects. */
  protectedRef: string;
  from: number;
  /** The quantity the app's edit sets: never above `from`. */
  to: number;
  /** Units the rule would remove but that are fulfilled: the merchant must refund them. */
  fulfilled: number;
  /** The value of the units removed, in minor units. */
  value: number;
}

/**
 * What the edit asks of the order's plan lines, read from the order as it is now.
 *
 * For each variant whose product line the trigger lowered, the plan units the customer still
 * holds are brought down to the product units they still hold (units not refunded, after
 * edits), shared among the variant's plan lines in line order: a plan line keeps min(its units
 * held, the product units the plan lines before it left over). A plan line is never raised. Only unfulfilled units can be edited away; the rest
 * are reported as fulfilled. Because the targets are absolute and depend on the order only, a
 * second run on the edited order finds nothing to do.
 */
export function planLineEdits(
  triggerLines: readonly EditedLine[],
  orderLines: readonly EditableOrderLine[],
): PlanLineEdit[] {
  const byId = new Map(orderLines.map((line) => [line.id, line]));
  const variants = new Set<string>();
  for (const { lineItemId } of triggerLines) {
    const line = byId.get(lineItemId);
    if (line && line.protectedRef === null && line.variantRef !== null) {
      variants.add(line.variantRef);
    }
  }
  const edits: PlanLineEdit[] = [];
  for (const variant of variants) {
    let productUnits = orderLines
      .filter((line) => line.protectedRef === null && line.variantRef === variant)
      .reduce((sum, line) => sum + line.refundableQuantity, 0);
    for (const line of orderLines.filter((candidate) => candidate.protectedRef === variant)) {
      const target = Math.min(line.refundableQuantity, productUnits);
      productUnits -= target;
      const excess = line.refundableQuantity - target;
      if (excess === 0) continue;
      const removable = Math.min(excess, line.unfulfilledQuantity);
      edits.push({
        planLineId: line.id,
        protectedRef: variant,
        from: line.currentQuantity,
        to: line.currentQuantity - removable,
        fulfilled: excess - removable,
        value: removable * line.unitPrice,
      });
    }
  }
  return edits;
}

/**
 * What the app refunds after its edit: the value of the plan units it removed, never more than
 * the order owes the customer (a negative outstanding balance), and nothing on an order that
 * was not paid. Amounts in minor units.
 */
export function planEditRefundAmount(input: {
  removedValue: number;
  outstanding: number;
  paid: boolean;
}): number {
  if (!input.paid || input.outstanding >= 0) return 0;
  return Math.max(0, Math.min(input.removedValue, -input.outstanding));
}

/** "2 → 1 unit(s)" for each plan line edited, as the merchant reads it. */
export function planEditPhrase(edits: readonly Pick<PlanLineEdit, "from" | "to">[]): string {
  return edits.map((edit) => `${edit.from} → ${edit.to} unit(s)`).join(", ");
}
