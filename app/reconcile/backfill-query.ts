import type { ApiLineItem, ApiOrder, ApiOrderHeader } from "../orders/api-order";

/*
 * The backfill's bulk query and the reading of its JSONL result (issue 17, decision 029).
 * Shopify's bulk queries nest at most two levels of connections and none inside a list, so an
 * order's refund and fulfilment lines (connections inside the `refunds` and `fulfillments` lists)
 * and its edits (`agreements { sales }`, three levels) cannot be read this way. The result holds
 * each order with its lines, and the IDs of its fulfilments and refunds: enough to record an
 * order that has none of them, and to tell which orders must be read whole.
 */

const ADDRESS = "firstName lastName address1 address2 city zip countryCodeV2";

/** The bulk query for the orders created since `since`, oldest first. */
export function backfillBulkQuery(since: Date): string {
  return `{
  orders(query: "created_at:>='${since.toISOString()}'", sortKey: CREATED_AT) {
    edges {
      node {
        id name email createdAt processedAt updatedAt cancelledAt currencyCode cartToken edited
        customAttributes { key value }
        billingAddress { ${ADDRESS} }
        shippingAddress { ${ADDRESS} }
        fulfillments { id status }
        refunds { id }
        lineItems {
          edges {
            node {
              id quantity title vendor
              customAttributes { key value }
              originalUnitPriceSet { shopMoney { amount currencyCode } }
              variant { id }
            }
          }
        }
      }
    }
  }
}`;
}

type JsonObject = Record<string, unknown>;

/** An order of the result: its placement's fields and lines, its fulfilments' and refunds' IDs. */
export interface BulkOrder
  extends Omit<ApiOrder, "fulfillments" | "refunds" | "agreements">, ApiOrderHeader {
  edited: boolean;
}

/** The order as reconciliation reads an order with no fulfilment, refund or edit. */
export function placementOnly(order: BulkOrder): ApiOrder {
  return { ...order, fulfillments: [], refunds: [], agreements: { nodes: [] } };
}

/** Whether the result cannot show all of the order's events: it must be read whole. */
export function mustBeReadWhole(order: BulkOrder): boolean {
  return (
    order.edited ||
    order.refunds.length > 0 ||
    order.fulfillments.some((fulfillment) => fulfillment.status === "SUCCESS")
  );
}

/**
 * Reads a grouped bulk result line by line and hands out each order once its line items have
 * come: only one order is held at a time. A line item's line names its order (`__parentId`).
 */
export class BulkOrderReader {
  private current: BulkOrder | null = null;

  /** Takes one line; answers the order before it when this line starts the next. */
  push(line: JsonObject): BulkOrder | null {
    const { __parentId: parentId, ...node } = line;
    if (parentId === undefined) {
      const done = this.current;
      this.current = {
        ...(node as unknown as BulkOrder),
        fulfillments: Array.isArray(node.fulfillments) ? node.fulfillments : [],
        refunds: Array.isArray(node.refunds) ? node.refunds : [],
        edited: node.edited === true,
        lineItems: { nodes: [] },
      };
      return done;
    }
    if (!this.current || parentId !== this.current.id) {
      throw new Error(
        `The line's parent ${String(parentId)} is not the order before it: the result is not grouped`,
      );
    }
    this.current.lineItems.nodes.push(node as unknown as ApiLineItem);
    return null;
  }

  /** The last order, at the end of the result. */
  finish(): BulkOrder | null {
    const done = this.current;
    this.current = null;
    return done;
  }
}

/** The lines of a JSONL body as it streams in; a line is never held longer than it takes to read. */
export async function* jsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<JsonObject> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const text = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (text) yield JSON.parse(text) as JsonObject;
      newline = buffered.indexOf("\n");
    }
  }
  const rest = (buffered + decoder.decode()).trim();
  if (rest) yield JSON.parse(rest) as JsonObject;
}
