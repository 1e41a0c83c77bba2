import type { Id, LineItem, Order, Refund } from "../../model";
import { connectionOf, type PageArgs } from "../connection";
import { type LazyField, type View, withArgs } from "../context";
import { notEmulatedInput } from "../errors";
import { toGid } from "../gid";
import { moneyBag } from "./common";

/*
 * `Order.agreements`: the sales agreements Shopify records when an order is placed, edited or
 * refunded, each with a product sale per line it changed. The store derives them from the order:
 * an OrderAgreement at placement, an OrderEditAgreement per committed edit and a RefundAgreement
 * per refund. Its IDs are its own choice, unconfirmed against Shopify: an agreement has the ID of
 * what made it (the order, the edit as orders/edited's `order_edit.id`, the refund), and a sale
 * the agreement's ID times 1000 plus its index. A sale that takes units back is a RETURN with a
 * negative quantity and amount, the reversal of the units sold (store/README.md, "Order
 * agreements"). No taxes, discounts, shipping or adjustment sales: the store keeps none.
 */

interface Sale {
  id: Id;
  lineItemId: Id;
  actionType: "ORDER" | "RETURN";
  /** Units, negative for a RETURN. */
  quantity: number;
}

interface Agreement {
  typeName: "OrderAgreement" | "OrderEditAgreement" | "RefundAgreement";
  reason: "ORDER" | "ORDER_EDIT" | "REFUND";
  id: Id;
  happenedAt: string;
  sales: Sale[];
  /** The agreement type's own fields (OrderAgreement.order, RefundAgreement.refund). */
  subject: Record<string, unknown>;
}

/** The views of the order's objects an agreement links to (views/orders.ts makes them). */
export interface OrderViews {
  order: () => View;
  refund: (refund: Refund) => View;
  lineItem: (line: LineItem) => View;
}

function salesOf(agreementId: Id, changes: Omit<Sale, "id">[]): Sale[] {
  return changes.map((change, index) => ({
    ...change,
    id: (BigInt(agreementId) * 1000n + BigInt(index)).toString(),
  }));
}

/** The order's agreements, oldest first. */
function agreementsOf(order: Order, views: OrderViews): Agreement[] {
  const placed: Agreement = {
    typeName: "OrderAgreement",
    reason: "ORDER",
    id: order.id,
    happenedAt: order.processedAt,
    sales: salesOf(
      order.id,
      order.lineItems.map((line) => ({
        lineItemId: line.id,
        actionType: "ORDER",
        quantity: line.quantity,
      })),
    ),
    subject: { order: views.order },
  };
  const edits = order.edits.flatMap((edit): Agreement[] =>
    edit.committedAt === null
      ? []
      : [
          {
            typeName: "OrderEditAgreement",
            reason: "ORDER_EDIT",
            id: edit.id,
            happenedAt: edit.committedAt,
            sales: salesOf(edit.id, [
              ...edit.lineItemChanges.additions.map((change) => ({
                lineItemId: change.id,
                actionType: "ORDER" as const,
                quantity: change.delta,
              })),
              ...edit.lineItemChanges.removals.map((change) => ({
                lineItemId: change.id,
                actionType: "RETURN" as const,
                quantity: -change.delta,
              })),
            ]),
            subject: {},
          },
        ],
  );
  const refunds = order.refunds.map((refund): Agreement => ({
    typeName: "RefundAgreement",
    reason: "REFUND",
    id: refund.id,
    happenedAt: refund.createdAt,
    sales: salesOf(
      refund.id,
      refund.lines.map((line) => ({
        lineItemId: line.lineItemId,
        actionType: "RETURN",
        quantity: -line.quantity,
      })),
    ),
    subject: { refund: () => views.refund(refund) },
  }));
  return [placed, ...edits, ...refunds].sort(
    (a, b) => Date.parse(a.happenedAt) - Date.parse(b.happenedAt),
  );
}

function saleView(order: Order, sale: Sale, lineItemView: (line: LineItem) => View): View {
  const line = order.lineItems.find((item) => item.id === sale.lineItemId);
  if (!line) throw new Error(`Order ${order.id} has no line item ${sale.lineItemId}`);
  const bag = (minorUnits: number) =>
    moneyBag(minorUnits, order.currency, order.presentmentCurrency);
  return {
    __typename: "ProductSale",
    id: toGid("ProductSale", sale.id),
    actionType: sale.actionType,
    lineType: "PRODUCT",
    quantity: sale.quantity,
    lineItem: () => lineItemView(line),
    totalAmount: bag(line.price * sale.quantity),
    totalDiscountAmountAfterTaxes: bag(0),
    totalDiscountAmountBeforeTaxes: bag(0),
    totalTaxAmount: bag(0),
    taxes: [],
  };
}

function agreementView(order: Order, agreement: Agreement, views: OrderViews): View {
  return {
    __typename: agreement.typeName,
    id: toGid(agreement.typeName, agreement.id),
    reason: agreement.reason,
    happenedAt: agreement.happenedAt,
    app: null,
    user: null,
    ...agreement.subject,
    sales: withArgs<PageArgs>((args) =>
      connectionOf(
        "SaleConnection",
        agreement.sales,
        args,
        { value: (sale) => agreement.sales.indexOf(sale), id: (sale) => sale.id },
        (sale) => saleView(order, sale, views.lineItem),
      ),
    ),
  };
}

/** `Order.agreements(first:, after:, …)`; a search query is not emulated. */
export function agreementsField(order: Order, views: OrderViews): LazyField {
  return withArgs<PageArgs & { query?: string | null }>((args) => {
    if (args.query) throw notEmulatedInput("Order.agreements(query:)");
    return connectionOf(
      "SalesAgreementConnection",
      agreementsOf(order, views),
      args,
      { value: (agreement) => Date.parse(agreement.happenedAt), id: (agreement) => agreement.id },
      (agreement) => agreementView(order, agreement, views),
    );
  });
}
