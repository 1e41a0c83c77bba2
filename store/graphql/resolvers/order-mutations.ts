import { randomUUID } from "node:crypto";
import { toMinorUnits } from "../../../app/lib/money";
import type { Order, OrderEdit, RefundLine } from "../../model";
import type { AdminContext, View } from "../context";
import { notEmulatedInput } from "../errors";
import { parseGid, toGid } from "../gid";
import { type MutationResolver, idempotentMutation, withoutIdempotency } from "../idempotency";
import {
  calculatedLineItemView,
  calculatedOrderView,
  fulfillmentView,
  orderView,
  refundView,
  supportedActionsOf,
} from "../views/orders";
import { refuseUnsupported, refused, userErrorsOf } from "./inputs";

/** The order a global ID names, or a refusal naming the field. */
function orderOf(context: AdminContext, gid: string, field: string[]): Order {
  const { type, id } = parseGid(gid);
  const order = type === "Order" ? context.state.order(context.shop.domain, id) : undefined;
  if (!order) throw refused("Order does not exist", field, "NOT_FOUND");
  return order;
}

/** The store's latest copy of an order, after a change. */
function reloaded(context: AdminContext, order: Order): Order {
  return context.state.order(context.shop.domain, order.id) ?? order;
}

interface RefundCreateArgs {
  input: {
    orderId: string;
    note?: string | null;
    notify?: boolean | null;
    currency?: string | null;
    refundLineItems?:
      | {
          lineItemId: string;
          quantity: number;
          restockType?: string | null;
          locationId?: string | null;
        }[]
      | null;
    transactions?:
      | {
          amount: string;
          gateway: string;
          kind: string;
          orderId: string;
          parentId?: string | null;
        }[]
      | null;
  };
}

/**
 * `refundCreate`: the line items (with their restock type) and the money of the transactions
 * given, no more; a refund without transactions moves no money, as on Shopify.
 */
const refundCreate: MutationResolver = (_parent, rawArgs, context, info) => {
  const { input } = rawArgs as unknown as RefundCreateArgs;
  refuseUnsupported(info, "RefundInput", input, [
    "orderId",
    "note",
    "notify",
    "currency",
    "refundLineItems",
    "transactions",
  ]);
  const payload = (order: Order | null, refund: View | null, userErrors: View[]): View => ({
    __typename: "RefundCreatePayload",
    order: order ? orderView(context, order) : null,
    refund,
    userErrors,
  });
  return userErrorsOf(
    "UserError",
    info,
    () => {
      const order = orderOf(context, input.orderId, ["orderId"]);
      if (input.currency && input.currency !== order.currency) {
        throw notEmulatedInput("RefundInput.currency other than the order's");
      }
      const lines = (input.refundLineItems ?? []).map((line, index) => {
        const field = ["refundLineItems", String(index)];
        const parsed = parseGid(line.lineItemId);
        if (parsed.type !== "LineItem" || !order.lineItems.some((item) => item.id === parsed.id)) {
          throw refused("Line item does not exist", [...field, "lineItemId"]);
        }
        if (line.locationId && parseGid(line.locationId).id !== context.shop.locationId) {
          throw refused("Location does not exist", [...field, "locationId"]);
        }
        return {
          lineItemId: parsed.id,
          quantity: line.quantity,
          restockType: (line.restockType?.toLowerCase() ??
            "no_restock") as RefundLine["restockType"],
        };
      });
      let amount = 0;
      for (const [index, transaction] of (input.transactions ?? []).entries()) {
        const field = ["transactions", String(index)];
        if (transaction.kind !== "REFUND") {
          throw refused("Transactions of a refund must be of kind REFUND", [...field, "kind"]);
        }
        if (parseGid(transaction.orderId).id !== order.id) {
          throw refused("Transaction order does not match the refund's order", [
            ...field,
            "orderId",
          ]);
        }
        const parent = transaction.parentId ? parseGid(transaction.parentId).id : null;
        if (parent && !order.transactions.some((t) => t.id === parent)) {
          throw refused("Parent transaction does not exist", [...field, "parentId"]);
        }
        amount += toMinorUnits(transaction.amount, order.currency);
      }
      const refund = context.state.refund(
        context.shop.domain,
        order.id,
        { lines, note: input.note ?? null, amount },
        context.actor,
      );
      const after = reloaded(context, order);
      return payload(after, refundView(context, after, refund), []);
    },
    (userErrors) => payload(null, null, userErrors),
  );
};

interface FulfillmentCreateArgs {
  fulfillment: {
    lineItemsByFulfillmentOrder: {
      fulfillmentOrderId: string;
      fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null;
    }[];
    trackingInfo?: {
      company?: string | null;
      number?: string | null;
      numbers?: string[] | null;
      url?: string | null;
      urls?: string[] | null;
    } | null;
    notifyCustomer?: boolean | null;
    originAddress?: unknown;
  };
  message?: string | null;
}

/** `fulfillmentCreate`: fulfils fulfillment order lines, all of their remaining units by default. */
const fulfillmentCreate: MutationResolver = (_parent, rawArgs, context, info) => {
  const { fulfillment } = rawArgs as unknown as FulfillmentCreateArgs;
  refuseUnsupported(info, "FulfillmentInput", fulfillment, [
    "lineItemsByFulfillmentOrder",
    "trackingInfo",
    "notifyCustomer",
  ]);
  const tracking = fulfillment.trackingInfo ?? {};
  const numbers = [...(tracking.number ? [tracking.number] : []), ...(tracking.numbers ?? [])];
  const urls = [...(tracking.url ? [tracking.url] : []), ...(tracking.urls ?? [])];
  if (numbers.length > 1 || urls.length > 1) {
    throw notEmulatedInput("FulfillmentTrackingInput with more than one number or URL");
  }
  const payload = (view: View | null, userErrors: View[]): View => ({
    __typename: "FulfillmentCreatePayload",
    fulfillment: view,
    userErrors,
  });
  return userErrorsOf(
    "UserError",
    info,
    () => {
      const orders = context.state.orders(context.shop.domain);
      let order: Order | undefined;
      let location: string | undefined;
      const lines: { lineItemId: string; quantity: number }[] = [];
      for (const [index, group] of fulfillment.lineItemsByFulfillmentOrder.entries()) {
        const field = ["fulfillment", "lineItemsByFulfillmentOrder", String(index)];
        const foId = parseGid(group.fulfillmentOrderId).id;
        const owner = orders.find((candidate) =>
          candidate.fulfillmentOrders.some((fo) => fo.id === foId),
        );
        const fo = owner?.fulfillmentOrders.find((candidate) => candidate.id === foId);
        if (!owner || !fo)
          throw refused("Fulfillment order does not exist.", [...field, "fulfillmentOrderId"]);
        if (!supportedActionsOf(fo).includes("CREATE_FULFILLMENT")) {
          throw refused(
            `Fulfillment order ${fo.id} does not support creating a fulfillment: it is ${fo.status.toLowerCase()} or assigned to a fulfillment service.`,
            [...field, "fulfillmentOrderId"],
          );
        }
        if (location !== undefined && location !== fo.assignedLocationId) {
          throw refused("All fulfillment orders must be assigned to the same location.", [
            ...field,
            "fulfillmentOrderId",
          ]);
        }
        location = fo.assignedLocationId;
        if (order && order.id !== owner.id) {
          throw refused("All fulfillment orders must belong to the same order.", [
            ...field,
            "fulfillmentOrderId",
          ]);
        }
        order = owner;
        const chosen = group.fulfillmentOrderLineItems
          ? group.fulfillmentOrderLineItems.map((item, itemIndex) => {
              const foLineId = parseGid(item.id).id;
              const foLine = fo.lines.find((line) => line.id === foLineId);
              if (!foLine) {
                throw refused("Fulfillment order line item does not exist.", [
                  ...field,
                  "fulfillmentOrderLineItems",
                  String(itemIndex),
                  "id",
                ]);
              }
              return { lineItemId: foLine.lineItemId, quantity: item.quantity };
            })
          : fo.lines
              .filter((line) => line.remainingQuantity > 0)
              .map((line) => ({ lineItemId: line.lineItemId, quantity: line.remainingQuantity }));
        lines.push(...chosen);
      }
      if (!order)
        throw refused("No fulfillment order given.", [
          "fulfillment",
          "lineItemsByFulfillmentOrder",
        ]);
      const created = context.state.fulfil(
        context.shop.domain,
        order.id,
        lines,
        context.actor,
        { company: tracking.company ?? undefined, number: numbers[0], url: urls[0] },
        // FulfillmentInput.notifyCustomer defaults to false.
        { notifyCustomer: fulfillment.notifyCustomer ?? false, locationId: location },
      );
      return payload(fulfillmentView(context, reloaded(context, order), created), []);
    },
    (userErrors) => payload(null, userErrors),
  );
};

/** The order an edit (a CalculatedOrder ID) belongs to, with the edit. */
function editOf(context: AdminContext, gid: string): { order: Order; edit: OrderEdit } {
  const { type, id } = parseGid(gid);
  if (type === "CalculatedOrder") {
    for (const order of context.state.orders(context.shop.domain)) {
      const edit = order.edits.find((candidate) => candidate.id === id);
      if (edit) return { order, edit };
    }
  }
  throw refused("The calculated order does not exist.", ["id"]);
}

function editSessionView(edit: OrderEdit): View {
  return { __typename: "OrderEditSession", id: toGid("OrderEditSession", edit.id) };
}

const orderEditBegin: MutationResolver = (_parent, rawArgs, context, info) => {
  const args = rawArgs as unknown as { id: string };
  return userErrorsOf(
    "UserError",
    info,
    () => {
      const order = orderOf(context, args.id, ["id"]);
      const edit = context.state.beginEdit(context.shop.domain, order.id, context.actor);
      return {
        __typename: "OrderEditBeginPayload",
        calculatedOrder: calculatedOrderView(context, reloaded(context, order), edit),
        orderEditSession: editSessionView(edit),
        userErrors: [],
      };
    },
    (userErrors) => ({
      __typename: "OrderEditBeginPayload",
      calculatedOrder: null,
      orderEditSession: null,
      userErrors,
    }),
  );
};

interface SetQuantityArgs {
  id: string;
  lineItemId: string;
  quantity: number;
  restock?: boolean | null;
  locationId?: string | null;
}

const orderEditSetQuantity: MutationResolver = (_parent, rawArgs, context, info) => {
  const args = rawArgs as unknown as SetQuantityArgs;
  return userErrorsOf(
    "UserError",
    info,
    () => {
      const { order } = editOf(context, args.id);
      if (args.locationId && parseGid(args.locationId).id !== context.shop.locationId) {
        throw refused("Location does not exist", ["locationId"]);
      }
      const line = parseGid(args.lineItemId);
      const lineItem = order.lineItems.find((item) => item.id === line.id);
      if (!lineItem || (line.type !== "CalculatedLineItem" && line.type !== "LineItem")) {
        throw refused("The line item does not exist.", ["lineItemId"]);
      }
      const edit = context.state.stageQuantity(
        context.shop.domain,
        parseGid(args.id).id,
        lineItem.id,
        args.quantity,
      );
      const after = reloaded(context, order);
      return {
        __typename: "OrderEditSetQuantityPayload",
        calculatedOrder: calculatedOrderView(context, after, edit),
        calculatedLineItem: calculatedLineItemView(context, after, edit, lineItem),
        orderEditSession: editSessionView(edit),
        userErrors: [],
      };
    },
    (userErrors) => ({
      __typename: "OrderEditSetQuantityPayload",
      calculatedOrder: null,
      calculatedLineItem: null,
      orderEditSession: null,
      userErrors,
    }),
  );
};

const orderEditCommit: MutationResolver = (_parent, rawArgs, context, info) => {
  const args = rawArgs as unknown as {
    id: string;
    notifyCustomer?: boolean | null;
    staffNote?: string | null;
  };
  return userErrorsOf(
    "UserError",
    info,
    () => {
      editOf(context, args.id);
      const order = context.state.commitEdit(context.shop.domain, parseGid(args.id).id, {
        notifyCustomer: args.notifyCustomer ?? undefined,
        staffNote: args.staffNote ?? undefined,
      });
      return {
        __typename: "OrderEditCommitPayload",
        order: orderView(context, order),
        successMessages: ["Order updated"],
        userErrors: [],
      };
    },
    (userErrors) => ({
      __typename: "OrderEditCommitPayload",
      order: null,
      successMessages: null,
      userErrors,
    }),
  );
};

interface OrderCancelArgs {
  orderId: string;
  reason: string;
  refund?: boolean | null;
  refundMethod?: {
    originalPaymentMethodsRefund?: boolean | null;
    storeCreditRefund?: unknown;
  } | null;
  restock: boolean;
  notifyCustomer?: boolean | null;
  staffNote?: string | null;
}

/**
 * `orderCancel`: Shopify cancels in a job; the store cancels at once and answers a done job, both
 * as the generic `job` and as 2026-10's `jobResult` (decision 024), which names the order.
 */
const orderCancel: MutationResolver = (_parent, rawArgs, context, info) => {
  const args = rawArgs as unknown as OrderCancelArgs;
  if (args.refundMethod?.storeCreditRefund != null) {
    throw notEmulatedInput("OrderCancelRefundMethodInput.storeCreditRefund");
  }
  if (args.refund != null && args.refundMethod != null) {
    return {
      __typename: "OrderCancelPayload",
      job: null,
      jobResult: null,
      orderCancelUserErrors: [
        {
          __typename: "OrderCancelUserError",
          field: ["refundMethod"],
          message: "Only one of refund or refundMethod can be provided.",
          code: "INVALID",
        },
      ],
      userErrors: [],
    };
  }
  const payload = (job: View | null, jobResult: View | null, errors: View[]): View => ({
    __typename: "OrderCancelPayload",
    job,
    jobResult,
    orderCancelUserErrors: errors,
    userErrors: errors.map((error) => ({
      __typename: "UserError",
      field: error.field,
      message: error.message,
    })),
  });
  return userErrorsOf(
    "OrderCancelUserError",
    info,
    () => {
      const order = orderOf(context, args.orderId, ["orderId"]);
      context.state.cancel(
        context.shop.domain,
        order.id,
        {
          reason: args.reason.toLowerCase() as Order["cancelReason"],
          refund: args.refundMethod?.originalPaymentMethodsRefund ?? args.refund ?? false,
          restock: args.restock,
        },
        context.actor,
      );
      const id = toGid("Job", randomUUID());
      const jobResult = {
        __typename: "OrderCancelJobResult",
        id,
        done: true,
        status: "SUCCEEDED",
        errors: [],
        order: orderView(context, reloaded(context, order)),
      };
      return payload({ __typename: "Job", id, done: true }, jobResult, []);
    },
    (errors) => payload(null, null, errors),
  );
};

export const orderMutations = {
  refundCreate: idempotentMutation(refundCreate),
  fulfillmentCreate: withoutIdempotency(fulfillmentCreate),
  orderEditBegin: withoutIdempotency(orderEditBegin),
  orderEditSetQuantity: withoutIdempotency(orderEditSetQuantity),
  orderEditCommit: withoutIdempotency(orderEditCommit),
  orderCancel: withoutIdempotency(orderCancel),
};
