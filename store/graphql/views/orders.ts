import { GraphQLError } from "../graphql-js";
import type {
  Fulfillment,
  FulfillmentOrder,
  LineItem,
  Order,
  OrderEdit,
  Refund,
  RefundLine,
  Transaction,
} from "../../model";
import { StoreUserError } from "../../model";
import { connectionOf, firstOf, type PageArgs } from "../connection";
import { type AdminContext, type View, withArgs } from "../context";
import { notEmulatedInput } from "../errors";
import { idOfType, toGid } from "../gid";
import { agreementsField } from "./agreements";
import { productView, variantView } from "./catalog";
import { attributeView, moneyBag } from "./common";

/*
 * Orders as the Admin API answers them, computed from the store's order: financial and
 * fulfillment statuses, refundable and unfulfilled quantities, money bags. The store keeps no
 * taxes, shipping lines or discounts, so their amounts are zero.
 */

const SALE_KINDS = new Set<Transaction["kind"]>(["SALE", "CAPTURE"]);

function successful(order: Order, kinds: ReadonlySet<Transaction["kind"]>): Transaction[] {
  return order.transactions.filter((t) => t.status === "SUCCESS" && kinds.has(t.kind));
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

export function paidAmount(order: Order): number {
  return sum(successful(order, SALE_KINDS).map((t) => t.amount));
}

export function refundedAmount(order: Order): number {
  return sum(successful(order, new Set(["REFUND"])).map((t) => t.amount));
}

function refundedQuantity(order: Order, lineItemId: string): number {
  return sum(
    order.refunds.flatMap((refund) =>
      refund.lines.filter((line) => line.lineItemId === lineItemId).map((line) => line.quantity),
    ),
  );
}

/** Net units added to a line by committed edits (negative when removed). */
function editedQuantity(order: Order, lineItemId: string): number {
  const committed = order.edits.filter((edit) => edit.committedAt !== null);
  const added = committed.flatMap((edit) => edit.lineItemChanges.additions);
  const removed = committed.flatMap((edit) => edit.lineItemChanges.removals);
  return (
    sum(added.filter((change) => change.id === lineItemId).map((change) => change.delta)) -
    sum(
      removed.filter((change) => change.id === lineItemId).map((change) => Math.abs(change.delta)),
    )
  );
}

function fulfilledQuantity(order: Order, lineItemId: string): number {
  return sum(
    order.fulfillments
      .filter((fulfillment) => fulfillment.status === "success" || fulfillment.status === "open")
      .flatMap((fulfillment) =>
        fulfillment.lines
          .filter((line) => line.lineItemId === lineItemId)
          .map((line) => line.quantity),
      ),
  );
}

/** Ordered, plus edits' net change, minus every refunded unit: what a refund may still take. */
export function refundableQuantity(order: Order, line: LineItem): number {
  return Math.max(
    0,
    line.quantity + editedQuantity(order, line.id) - refundedQuantity(order, line.id),
  );
}

/** What the open fulfillment orders still hold of the line, never more than is left of it. */
export function unfulfilledQuantity(order: Order, line: LineItem): number {
  const left = Math.max(0, line.currentQuantity - fulfilledQuantity(order, line.id));
  const foLines = order.fulfillmentOrders.flatMap((fo) =>
    fo.lines.filter((foLine) => foLine.lineItemId === line.id).map((foLine) => ({ fo, foLine })),
  );
  if (foLines.length === 0) return left;
  const remaining = sum(
    foLines
      .filter(({ fo }) => fo.status === "OPEN" || fo.status === "IN_PROGRESS")
      .map(({ foLine }) => foLine.remainingQuantity),
  );
  return Math.min(remaining, left);
}

function financialStatus(order: Order): string {
  const paid = paidAmount(order);
  if (paid === 0) {
    const voided = order.transactions.some((t) => t.kind === "VOID" && t.status === "SUCCESS");
    if (voided) return "VOIDED";
    const authorized = order.transactions.some(
      (t) => t.kind === "AUTHORIZATION" && t.status === "SUCCESS",
    );
    return authorized ? "AUTHORIZED" : "PENDING";
  }
  const refunded = refundedAmount(order);
  if (refunded === 0) return "PAID";
  return refunded >= paid ? "REFUNDED" : "PARTIALLY_REFUNDED";
}

/**
 * From 2026-10 on, an order with nothing fulfilled and nothing left to fulfil (cancelled, refunded
 * or edited down to nothing) is FULFILLMENT_NOT_REQUIRED, no longer UNFULFILLED (decision 024).
 */
function fulfillmentStatus(order: Order): string {
  const fulfilled = sum(order.lineItems.map((line) => fulfilledQuantity(order, line.id)));
  const left = sum(order.lineItems.map((line) => unfulfilledQuantity(order, line)));
  if (fulfilled === 0) return left === 0 ? "FULFILLMENT_NOT_REQUIRED" : "UNFULFILLED";
  return left === 0 ? "FULFILLED" : "PARTIALLY_FULFILLED";
}

function bagOf(order: Order, minorUnits: number): View {
  return moneyBag(minorUnits, order.currency, order.presentmentCurrency);
}

function lineItemOf(order: Order, lineItemId: string): LineItem {
  const line = order.lineItems.find((item) => item.id === lineItemId);
  if (!line) throw new Error(`Order ${order.id} has no line item ${lineItemId}`);
  return line;
}

export function lineItemView(context: AdminContext, order: Order, line: LineItem): View {
  return {
    __typename: "LineItem",
    id: toGid("LineItem", line.id),
    name: line.name,
    title: line.title,
    variantTitle: line.variantTitle,
    sku: line.sku,
    vendor: line.vendor,
    quantity: line.quantity,
    currentQuantity: line.currentQuantity,
    refundableQuantity: () => refundableQuantity(order, line),
    unfulfilledQuantity: () => unfulfilledQuantity(order, line),
    requiresShipping: line.requiresShipping,
    taxable: line.taxable,
    isGiftCard: line.giftCard,
    customAttributes: line.properties.map(attributeView),
    originalUnitPriceSet: bagOf(order, line.price),
    discountedUnitPriceSet: bagOf(order, line.price),
    originalTotalSet: bagOf(order, line.price * line.quantity),
    variant: () => {
      const found = line.variantId
        ? context.state.variant(context.shop.domain, line.variantId)
        : undefined;
      return found ? variantView(context, found.product, found.variant) : null;
    },
    product: () => {
      const product = line.productId
        ? context.state.product(context.shop.domain, line.productId)
        : undefined;
      return product ? productView(context, product) : null;
    },
  };
}

export function transactionView(
  context: AdminContext,
  order: Order,
  transaction: Transaction,
): View {
  return {
    __typename: "OrderTransaction",
    id: toGid("OrderTransaction", transaction.id),
    kind: transaction.kind,
    status: transaction.status,
    gateway: transaction.gateway,
    amountSet: bagOf(order, transaction.amount),
    createdAt: transaction.createdAt,
    processedAt: transaction.createdAt,
    test: order.test,
    parentTransaction: () => {
      const parent = order.transactions.find((t) => t.id === transaction.parentId);
      return parent ? transactionView(context, order, parent) : null;
    },
    order: () => orderView(context, order),
  };
}

function refundLineView(
  context: AdminContext,
  order: Order,
  line: RefundLine,
  withId: boolean,
): View {
  const lineItem = lineItemOf(order, line.lineItemId);
  return {
    __typename: "RefundLineItem",
    id: withId ? toGid("RefundLineItem", line.id) : null,
    lineItem: lineItemView(context, order, lineItem),
    quantity: line.quantity,
    restockType: line.restockType.toUpperCase(),
    restocked: line.restockType !== "no_restock",
    priceSet: bagOf(order, lineItem.price),
    subtotalSet: bagOf(order, line.subtotal),
    totalTaxSet: bagOf(order, line.totalTax),
    location: null,
  };
}

function refundLinePageKey(line: RefundLine, lines: readonly RefundLine[]) {
  return lines.indexOf(line);
}

export function refundView(context: AdminContext, order: Order, refund: Refund): View {
  const transactions = order.transactions.filter((t) => refund.transactionIds.includes(t.id));
  return {
    __typename: "Refund",
    id: toGid("Refund", refund.id),
    legacyResourceId: refund.id,
    note: refund.note,
    createdAt: refund.createdAt,
    processedAt: refund.processedAt,
    updatedAt: refund.processedAt,
    order: () => orderView(context, order),
    totalRefundedSet: bagOf(
      order,
      sum(transactions.filter((t) => t.status === "SUCCESS").map((t) => t.amount)),
    ),
    refundLineItems: withArgs<PageArgs>((args) =>
      connectionOf(
        "RefundLineItemConnection",
        refund.lines,
        args,
        { value: (line) => refundLinePageKey(line, refund.lines), id: (line) => line.id },
        (line) => refundLineView(context, order, line, true),
      ),
    ),
    transactions: withArgs<PageArgs>((args) =>
      connectionOf(
        "OrderTransactionConnection",
        transactions,
        args,
        { value: (t) => Date.parse(t.createdAt), id: (t) => t.id },
        (t) => transactionView(context, order, t),
      ),
    ),
  };
}

function fulfillmentLineView(
  context: AdminContext,
  order: Order,
  fulfillment: Fulfillment,
  index: number,
): View {
  const line = fulfillment.lines[index];
  if (!line) throw new Error(`Fulfillment ${fulfillment.id} has no line ${index}`);
  const lineItem = lineItemOf(order, line.lineItemId);
  return {
    __typename: "FulfillmentLineItem",
    // The store keeps no ID per fulfillment line: one is derived from the fulfillment's.
    id: toGid("FulfillmentLineItem", (BigInt(fulfillment.id) * 1000n + BigInt(index)).toString()),
    quantity: line.quantity,
    lineItem: lineItemView(context, order, lineItem),
    originalTotalSet: bagOf(order, lineItem.price * line.quantity),
    discountedTotalSet: bagOf(order, lineItem.price * line.quantity),
  };
}

export function fulfillmentView(
  context: AdminContext,
  order: Order,
  fulfillment: Fulfillment,
): View {
  return {
    __typename: "Fulfillment",
    id: toGid("Fulfillment", fulfillment.id),
    legacyResourceId: fulfillment.id,
    name: fulfillment.name,
    status: fulfillment.status.toUpperCase(),
    createdAt: fulfillment.createdAt,
    updatedAt: fulfillment.updatedAt,
    totalQuantity: sum(fulfillment.lines.map((line) => line.quantity)),
    requiresShipping: fulfillment.lines.some(
      (line) => lineItemOf(order, line.lineItemId).requiresShipping,
    ),
    order: () => orderView(context, order),
    trackingInfo: withArgs<{ first?: number | null }>((args) =>
      firstOf(
        fulfillment.trackingNumbers.map((number, index) => ({
          __typename: "FulfillmentTrackingInfo",
          company: fulfillment.trackingCompany,
          number,
          url: fulfillment.trackingUrls[index] ?? null,
        })),
        args.first,
      ),
    ),
    fulfillmentLineItems: withArgs<PageArgs>((args) =>
      connectionOf(
        "FulfillmentLineItemConnection",
        fulfillment.lines.map((_, index) => index),
        args,
        { value: (index) => index, id: (index) => String(index) },
        (index) => fulfillmentLineView(context, order, fulfillment, index),
      ),
    ),
  };
}

/** The name of the shop's own location, as a new Shopify store names it. */
export const SHOP_LOCATION_NAME = "Shop location";

/**
 * What can be done with a fulfilment order, as Shopify lists it: the merchant fulfils an open
 * one at their own location (CREATE_FULFILLMENT); one assigned to a fulfilment service is
 * requested from the service instead; a closed or cancelled one takes no action.
 */
export function supportedActionsOf(fo: FulfillmentOrder): string[] {
  const merchantManaged = !fo.fulfillmentService;
  switch (fo.status) {
    case "OPEN":
      return merchantManaged
        ? ["CREATE_FULFILLMENT", "HOLD", "MOVE"]
        : ["REQUEST_FULFILLMENT", "HOLD", "MOVE"];
    case "IN_PROGRESS":
      return merchantManaged ? ["CREATE_FULFILLMENT", "HOLD"] : ["REQUEST_CANCELLATION"];
    case "CLOSED":
    case "CANCELLED":
      return [];
  }
}

export function fulfillmentOrderView(
  context: AdminContext,
  order: Order,
  fo: FulfillmentOrder,
): View {
  const service = fo.fulfillmentService ?? null;
  return {
    __typename: "FulfillmentOrder",
    id: toGid("FulfillmentOrder", fo.id),
    status: fo.status,
    supportedActions: supportedActionsOf(fo).map((action) => ({
      __typename: "FulfillmentOrderSupportedAction",
      action,
      externalUrl: null,
    })),
    assignedLocation: {
      __typename: "FulfillmentOrderAssignedLocation",
      name: service ?? SHOP_LOCATION_NAME,
      address1: null,
      address2: null,
      city: null,
      countryCode: "DE",
      phone: null,
      province: null,
      zip: null,
      location: {
        __typename: "Location",
        id: toGid("Location", fo.assignedLocationId),
        name: service ?? SHOP_LOCATION_NAME,
      },
    },
    orderId: toGid("Order", order.id),
    orderName: order.name,
    orderProcessedAt: order.processedAt,
    order: () => orderView(context, order),
    lineItems: withArgs<PageArgs>((args) =>
      connectionOf(
        "FulfillmentOrderLineItemConnection",
        fo.lines,
        args,
        { value: (line) => fo.lines.indexOf(line), id: (line) => line.id },
        (line) => {
          const lineItem = lineItemOf(order, line.lineItemId);
          return {
            __typename: "FulfillmentOrderLineItem",
            id: toGid("FulfillmentOrderLineItem", line.id),
            totalQuantity: line.totalQuantity,
            remainingQuantity: line.remainingQuantity,
            sku: lineItem.sku,
            productTitle: lineItem.title,
            variantTitle: lineItem.variantTitle,
            vendor: lineItem.vendor,
            requiresShipping: lineItem.requiresShipping,
            lineItem: lineItemView(context, order, lineItem),
          };
        },
      ),
    ),
  };
}

interface SuggestedRefundArgs {
  refundLineItems?: { lineItemId: string; quantity: number; restockType?: string | null }[] | null;
  suggestFullRefund?: boolean | null;
  refundShipping?: boolean | null;
  shippingAmount?: string | null;
  refundDuties?: unknown[] | null;
  refundMethodAllocation?: string | null;
}

/** `suggestedRefund`: what refunding these quantities would return, computed by the store. */
function suggestedRefund(context: AdminContext, order: Order, args: SuggestedRefundArgs): View {
  if (args.refundShipping || args.shippingAmount || args.refundDuties?.length) {
    throw notEmulatedInput("Order.suggestedRefund with shipping or duties");
  }
  if (args.refundMethodAllocation && args.refundMethodAllocation !== "ORIGINAL_PAYMENT_METHODS") {
    throw notEmulatedInput(
      `Order.suggestedRefund(refundMethodAllocation: ${args.refundMethodAllocation})`,
    );
  }
  const lines = args.suggestFullRefund
    ? order.lineItems
        .map((line) => ({ lineItemId: line.id, quantity: refundableQuantity(order, line) }))
        .filter((line) => line.quantity > 0)
    : (args.refundLineItems ?? []).map((line) => {
        const lineItemId = idOfType(line.lineItemId, "LineItem");
        if (!lineItemId) {
          throw new GraphQLError(`Invalid line item ID ${line.lineItemId}`, {
            extensions: { code: "BAD_REQUEST" },
          });
        }
        return { lineItemId, quantity: line.quantity };
      });
  let suggestion: ReturnType<AdminContext["state"]["suggestRefund"]>;
  try {
    suggestion = context.state.suggestRefund(context.shop.domain, order.id, lines);
  } catch (error) {
    if (error instanceof StoreUserError) {
      throw new GraphQLError(error.message, { extensions: { code: "BAD_REQUEST" } });
    }
    throw error;
  }
  const subtotal = sum(suggestion.lines.map((line) => line.subtotal));
  const maximum = paidAmount(order) - refundedAmount(order);
  const parent = successful(order, SALE_KINDS)[0];
  const zero = bagOf(order, 0);
  return {
    __typename: "SuggestedRefund",
    amountSet: bagOf(order, suggestion.amount),
    subtotalSet: bagOf(order, subtotal),
    discountedSubtotalSet: bagOf(order, subtotal),
    maximumRefundableSet: bagOf(order, maximum),
    totalTaxSet: zero,
    totalDutiesSet: zero,
    totalCartDiscountAmountSet: zero,
    refundDuties: [],
    shipping: {
      __typename: "ShippingRefund",
      amountSet: zero,
      maximumRefundableSet: zero,
      taxSet: zero,
    },
    refundLineItems: suggestion.lines.map((line) => refundLineView(context, order, line, false)),
    suggestedTransactions:
      parent && suggestion.amount > 0
        ? [
            {
              __typename: "SuggestedOrderTransaction",
              kind: "SUGGESTED_REFUND",
              gateway: parent.gateway,
              amountSet: bagOf(order, suggestion.amount),
              maximumRefundableSet: bagOf(order, maximum),
              parentTransaction: transactionView(context, order, parent),
            },
          ]
        : [],
  };
}

export function orderView(context: AdminContext, order: Order): View {
  const total = sum(order.lineItems.map((line) => line.price * line.quantity));
  const current = () =>
    sum(order.lineItems.map((line) => line.price * refundableQuantity(order, line)));
  return {
    __typename: "Order",
    id: toGid("Order", order.id),
    legacyResourceId: order.id,
    name: order.name,
    email: order.email,
    note: order.note,
    tags: order.tags,
    test: order.test,
    sourceName: order.sourceName,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    processedAt: order.processedAt,
    closedAt: order.closedAt,
    closed: order.closedAt !== null,
    cancelledAt: order.cancelledAt,
    cancelReason: order.cancelReason?.toUpperCase() ?? null,
    currencyCode: order.currency,
    presentmentCurrencyCode: order.presentmentCurrency,
    customAttributes: order.noteAttributes.map(attributeView),
    cartToken: order.cartToken,
    edited: order.edits.some((edit) => edit.committedAt !== null),
    customer: order.customer
      ? {
          __typename: "Customer",
          id: toGid("Customer", order.customer.id),
          firstName: order.customer.firstName,
          lastName: order.customer.lastName,
          defaultEmailAddress: {
            __typename: "CustomerEmailAddress",
            emailAddress: order.customer.email,
          },
        }
      : null,
    // The store keeps no addresses: its orders' webhooks carry none either.
    billingAddress: null,
    shippingAddress: null,
    displayFinancialStatus: () => financialStatus(order),
    displayFulfillmentStatus: () => fulfillmentStatus(order),
    totalPriceSet: bagOf(order, total),
    subtotalPriceSet: bagOf(order, total),
    currentTotalPriceSet: () => bagOf(order, current()),
    currentSubtotalPriceSet: () => bagOf(order, current()),
    totalRefundedSet: () => bagOf(order, refundedAmount(order)),
    // Negative when the customer is owed money: a paid order edited down, before its refund.
    totalOutstandingSet: () =>
      bagOf(order, current() - (paidAmount(order) - refundedAmount(order))),
    netPaymentSet: () => bagOf(order, paidAmount(order) - refundedAmount(order)),
    totalTaxSet: bagOf(order, 0),
    totalDiscountsSet: bagOf(order, 0),
    totalShippingPriceSet: bagOf(order, 0),
    lineItems: withArgs<PageArgs>((args) =>
      connectionOf(
        "LineItemConnection",
        order.lineItems,
        args,
        { value: (line) => order.lineItems.indexOf(line), id: (line) => line.id },
        (line) => lineItemView(context, order, line),
      ),
    ),
    transactions: withArgs<{
      first?: number | null;
      capturable?: boolean | null;
      manuallyResolvable?: boolean | null;
    }>((args) => {
      if (args.capturable != null || args.manuallyResolvable != null) {
        throw notEmulatedInput("Order.transactions(capturable:, manuallyResolvable:)");
      }
      return firstOf(order.transactions, args.first).map((t) => transactionView(context, order, t));
    }),
    refunds: withArgs<{ first?: number | null }>((args) =>
      firstOf(order.refunds, args.first).map((refund) => refundView(context, order, refund)),
    ),
    fulfillments: withArgs<{ first?: number | null; query?: string | null }>((args) => {
      if (args.query) throw notEmulatedInput("Order.fulfillments(query:)");
      return firstOf(order.fulfillments, args.first).map((f) => fulfillmentView(context, order, f));
    }),
    fulfillmentOrders: withArgs<PageArgs & { displayable?: boolean | null; query?: string | null }>(
      (args) => {
        if (args.query) throw notEmulatedInput("Order.fulfillmentOrders(query:)");
        return connectionOf(
          "FulfillmentOrderConnection",
          order.fulfillmentOrders,
          args,
          { value: (fo) => Number(fo.id), id: (fo) => fo.id },
          (fo) => fulfillmentOrderView(context, order, fo),
        );
      },
    ),
    suggestedRefund: withArgs<SuggestedRefundArgs>((args) => suggestedRefund(context, order, args)),
    agreements: agreementsField(order, {
      order: () => orderView(context, order),
      refund: (refund) => refundView(context, order, refund),
      lineItem: (line) => lineItemView(context, order, line),
    }),
  };
}

/** The quantities an edit shows: staged where the edit staged one, else the current one. */
export function calculatedOrderView(context: AdminContext, order: Order, edit: OrderEdit): View {
  const quantityOf = (line: LineItem) => edit.stagedQuantities[line.id] ?? line.currentQuantity;
  const total = () => sum(order.lineItems.map((line) => line.price * quantityOf(line)));
  return {
    __typename: "CalculatedOrder",
    id: toGid("CalculatedOrder", edit.id),
    originalOrder: () => orderView(context, order),
    subtotalLineItemsQuantity: () => sum(order.lineItems.map(quantityOf)),
    subtotalPriceSet: () => bagOf(order, total()),
    totalPriceSet: () => bagOf(order, total()),
    totalOutstandingSet: () => bagOf(order, total() - (paidAmount(order) - refundedAmount(order))),
    lineItems: withArgs<PageArgs & { query?: string | null }>((args) => {
      if (args.query) throw notEmulatedInput("CalculatedOrder.lineItems(query:)");
      return connectionOf(
        "CalculatedLineItemConnection",
        order.lineItems,
        args,
        { value: (line) => order.lineItems.indexOf(line), id: (line) => line.id },
        (line) => calculatedLineItemView(context, order, edit, line),
      );
    }),
  };
}

export function calculatedLineItemView(
  context: AdminContext,
  order: Order,
  edit: OrderEdit,
  line: LineItem,
): View {
  const quantity = edit.stagedQuantities[line.id] ?? line.currentQuantity;
  return {
    __typename: "CalculatedLineItem",
    id: toGid("CalculatedLineItem", line.id),
    title: line.title,
    variantTitle: line.variantTitle,
    sku: line.sku,
    quantity,
    editableQuantity: quantity,
    editableQuantityBeforeChanges: line.currentQuantity,
    restockable: true,
    restocking: false,
    hasStagedLineItemDiscount: false,
    customAttributes: line.properties.map(attributeView),
    originalUnitPriceSet: bagOf(order, line.price),
    discountedUnitPriceSet: bagOf(order, line.price),
    editableSubtotalSet: bagOf(order, line.price * quantity),
    uneditableSubtotalSet: bagOf(order, 0),
    variant: () => {
      const found = line.variantId
        ? context.state.variant(context.shop.domain, line.variantId)
        : undefined;
      return found ? variantView(context, found.product, found.variant) : null;
    },
  };
}
