import { idString } from "../lib/shopify-id";
import { webhookResource } from "./map-webhook";
import { protectedProductRefOf } from "./order-placed";
import { type JsonObject, firstPresent, isJsonObject } from "./payload-reader";

/*
 * Plans follow their products (decision 022): when the merchant refunds a protected product, the
 * app refunds its plan lines. Pure: a refunds/create payload, the app's record of the order's
 * lines and the order as the Admin API answers it come in; which plan lines to refund, and how
 * many units, comes out.
 */

const NOTE_PREFIX = "svc-protection: plan refunded with its product";
const NOTE_PATTERN = /^svc-protection: plan refunded with its product \(refund (\d+)\)/;

/** The note on the app's own refund: it marks the refund as ours and names its trigger. */
export function planRefundNote(triggerRefundId: string): string {
  return `${NOTE_PREFIX} (refund ${triggerRefundId})`;
}

/** The trigger refund a note of ours names, or null for a refund the app did not make. */
export function planRefundTriggerOf(note: unknown): string | null {
  return typeof note === "string" ? (NOTE_PATTERN.exec(note)?.[1] ?? null) : null;
}

/** A line of a refund: which line item, and how many units. */
export interface RefundedLine {
  lineItemId: string;
  quantity: number;
}

/** What the app knows of an order's line: enough to tell plan lines and their products apart. */
export interface OrderLineRef {
  id: string;
  /** The variant the line sells: what a plan line's `_svc_protected_product_ref` names. */
  variantRef: string | null;
  /** On a plan line, the variant it protects ("" when the property is empty); else null. */
  protectedRef: string | null;
}

export type RefundTrigger =
  | {
      kind: "trigger";
      orderId: string;
      refundId: string;
      lines: RefundedLine[];
      /** The refunded lines as the payload describes them (`line_item`), where it does. */
      payloadLines: OrderLineRef[];
    }
  | { kind: "none"; detail: string };

/** A line object of a payload (an order's line item, a refund line's `line_item`). */
export function lineRefOf(line: JsonObject, id: string): OrderLineRef {
  const variant = firstPresent(line, ["variant_id", "product_id"]);
  return {
    id,
    variantRef: variant ? idString(variant.value) : null,
    protectedRef: protectedProductRefOf(line),
  };
}

export function positiveQuantity(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/**
 * What a refunds/create webhook asks of the app. A refund the app made itself (its note carries
 * the marker), or one without line items, triggers nothing; it is still reported to the service.
 */
export function readRefundTrigger(payload: unknown): RefundTrigger {
  const refund = webhookResource("refunds/create", payload);
  const refundId = idString(refund?.id);
  const orderId = idString(refund?.order_id);
  if (!refund || refundId === null || orderId === null) {
    return { kind: "none", detail: "the refund has no ID or order ID" };
  }
  const ours = planRefundTriggerOf(refund.note);
  if (ours !== null) {
    return {
      kind: "none",
      detail: `refund ${refundId} is the app's plan refund for refund ${ours}; it triggers nothing`,
    };
  }
  const lines: RefundedLine[] = [];
  const payloadLines: OrderLineRef[] = [];
  const entries = Array.isArray(refund.refund_line_items) ? refund.refund_line_items : [];
  for (const entry of entries) {
    if (!isJsonObject(entry)) continue;
    const lineItem = isJsonObject(entry.line_item) ? entry.line_item : null;
    const lineItemId = idString(entry.line_item_id ?? lineItem?.id);
    const quantity = positiveQuantity(entry.quantity);
    if (lineItemId === null || quantity === 0) continue;
    lines.push({ lineItemId, quantity });
    if (lineItem) payloadLines.push(lineRefOf(lineItem, lineItemId));
  }
  if (!lines.length) {
    return { kind: "none", detail: `refund ${refundId} refunds no line item` };
  }
  return { kind: "trigger", orderId, refundId, lines, payloadLines };
}

/** The lines of the app's order_placed payload, as the order was when it was placed. */
export function placedLineRefs(
  lines: readonly { id: string; product_id: string; custom_properties?: object }[],
): OrderLineRef[] {
  return lines.map((line) => {
    const properties = (line.custom_properties ?? {}) as { product_reference?: unknown };
    return {
      id: line.id,
      variantRef: line.product_id,
      protectedRef:
        typeof properties.product_reference === "string" ? properties.product_reference : null,
    };
  });
}

export type PlanLinesToRefund =
  | { kind: "plan_lines"; planLineIds: string[] }
  /** A refunded line is not known yet: the plan lines are found when the order is read. */
  | { kind: "unknown"; detail: string };

function isProductLine(line: OrderLineRef): line is OrderLineRef & { variantRef: string } {
  return line.protectedRef === null && line.variantRef !== null;
}

/**
 * The plan lines a refund may have to refund: those whose `_svc_protected_product_ref` is the
 * variant of a refunded product line. `orderLines` is null when the app does not know the
 * order's lines (its order_placed is not recorded yet).
 */
export function planLinesForRefund(
  trigger: { lines: readonly RefundedLine[]; payloadLines?: readonly OrderLineRef[] },
  orderLines: readonly OrderLineRef[] | null,
): PlanLinesToRefund {
  const known = new Map<string, OrderLineRef>();
  for (const line of [...(trigger.payloadLines ?? []), ...(orderLines ?? [])]) {
    known.set(line.id, line);
  }
  const refundedVariants = new Set<string>();
  const unknownLines: string[] = [];
  for (const { lineItemId } of trigger.lines) {
    const line = known.get(lineItemId);
    if (!line) unknownLines.push(lineItemId);
    else if (isProductLine(line)) refundedVariants.add(line.variantRef);
  }
  if (unknownLines.length) {
    return { kind: "unknown", detail: `line item(s) ${unknownLines.join(", ")} not known yet` };
  }
  if (orderLines === null && refundedVariants.size > 0) {
    return { kind: "unknown", detail: "the order's lines are not known yet" };
  }
  const planLineIds = (orderLines ?? [])
    .filter((line) => line.protectedRef !== null && refundedVariants.has(line.protectedRef))
    .map((line) => line.id);
  return { kind: "plan_lines", planLineIds };
}

/** A line of the order as the Admin API answers it when the action runs. */
export interface CurrentOrderLine extends OrderLineRef {
  refundableQuantity: number;
  unfulfilledQuantity: number;
}

/** A refund of the order as the Admin API lists it. */
export interface OrderRefund {
  id: string;
  note: string | null;
  lines: RefundedLine[];
}

export type PlanRestockType = "CANCEL" | "NO_RESTOCK";

export type PlanLineRefund =
  /** The app's refund for this trigger and plan line exists: nothing more to do. */
  | { kind: "refunded"; refund: OrderRefund; quantity: number }
  | { kind: "refund"; quantity: number; restockType: PlanRestockType }
  | { kind: "nothing"; detail: string };

export interface PlanRefundInput {
  triggerRefundId: string;
  triggerLines: readonly RefundedLine[];
  planLineId: string;
  orderLines: readonly CurrentOrderLine[];
  refunds: readonly OrderRefund[];
}

function sumOf(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * Which of a plan line's units a refund takes. Units never shipped are cancelled (`CANCEL`); a
 * refund without restock counts against shipped units first, as Shopify's fulfillable quantity
 * does. The plan's shipped units follow its product's: when the variant's plan lines hold more
 * shipped units than its product lines (the product refund took a shipped unit), the plan's
 * shipped units go first, so a later edit of the product's unshipped units finds plan units it
 * can remove (decision 026 edits only unshipped units).
 */
function planRestockType(
  share: number,
  line: CurrentOrderLine,
  variant: string,
  orderLines: readonly CurrentOrderLine[],
): PlanRestockType {
  const shippedHeld = (lines: readonly CurrentOrderLine[]) =>
    sumOf(lines.map((each) => Math.max(0, each.refundableQuantity - each.unfulfilledQuantity)));
  const products = orderLines.filter((each) => isProductLine(each) && each.variantRef === variant);
  const plans = orderLines.filter((each) => each.protectedRef === variant);
  if (shippedHeld(plans) > shippedHeld(products)) return "NO_RESTOCK";
  return share <= line.unfulfilledQuantity ? "CANCEL" : "NO_RESTOCK";
}

/**
 * What the trigger refund asks of one plan line, read from the order as it is now.
 *
 * For each protected variant the trigger refunded, the plan units to refund are the product
 * units the trigger refunded, but never more than the plan units in excess of the product units
 * still held: a plan the merchant refunded already (in the same refund or since) is not refunded
 * twice. They are taken from the variant's plan lines in line order, each up to what it can
 * still refund. The app's own refunds for this trigger are counted back in, so every plan line
 * of the trigger gets the same answer whichever of them runs first, and again after a crash.
 */
export function planLineRefund(input: PlanRefundInput): PlanLineRefund {
  const { orderLines, planLineId } = input;
  const planLine = orderLines.find((line) => line.id === planLineId);
  if (!planLine || planLine.protectedRef === null) {
    return { kind: "nothing", detail: `line item ${planLineId} is not a plan line of the order` };
  }
  const ours = input.refunds.filter(
    (refund) => planRefundTriggerOf(refund.note) === input.triggerRefundId,
  );
  const oursOn = (lineId: string) =>
    sumOf(
      ours.flatMap((refund) =>
        refund.lines.filter((line) => line.lineItemId === lineId).map((line) => line.quantity),
      ),
    );
  const done = ours.find((refund) => refund.lines.some((line) => line.lineItemId === planLineId));
  if (done) return { kind: "refunded", refund: done, quantity: oursOn(planLineId) };

  const variant = planLine.protectedRef;
  const productLines = orderLines.filter(
    (line) => isProductLine(line) && line.variantRef === variant,
  );
  const productLineIds = new Set(productLines.map((line) => line.id));
  const requested = sumOf(
    input.triggerLines
      .filter((line) => productLineIds.has(line.lineItemId))
      .map((line) => line.quantity),
  );
  if (requested === 0) {
    return { kind: "nothing", detail: `the refund took no unit of product ${variant}` };
  }
  const planLines = orderLines.filter((line) => line.protectedRef === variant);
  const refundableBefore = (line: CurrentOrderLine) => line.refundableQuantity + oursOn(line.id);
  const productsHeld = sumOf(productLines.map((line) => line.refundableQuantity));
  const plansHeld = sumOf(planLines.map(refundableBefore));
  let left = Math.min(requested, Math.max(0, plansHeld - productsHeld));
  if (left === 0) {
    return {
      kind: "nothing",
      detail: `${plansHeld} plan unit(s) of product ${variant} are left for ${productsHeld} product unit(s): none to refund`,
    };
  }
  for (const line of planLines) {
    const share = Math.min(left, refundableBefore(line));
    left -= share;
    if (line.id !== planLineId) continue;
    if (share === 0) {
      const detail =
        refundableBefore(line) === 0
          ? `plan line ${planLineId} has nothing left to refund`
          : `the refund's plan units of product ${variant} are taken by earlier plan lines`;
      return { kind: "nothing", detail };
    }
    return {
      kind: "refund",
      quantity: share,
      restockType: planRestockType(share, line, variant, orderLines),
    };
  }
  return { kind: "nothing", detail: `line item ${planLineId} is not a plan line of the order` };
}
