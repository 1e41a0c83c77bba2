import { gidNumber } from "../lib/shopify-id";
import type { ApiOrder } from "../orders/api-order";

/*
 * The backfill's bulk query and the reading of its JSONL result (issue 17, decision 029). A bulk
 * query nests at most two levels of connections and no more than five in all, so it cannot read
 * an order's agreements (a third level): an edited order is left for reconciliation, which reads
 * it whole by ID (`edited` tells it apart). The fields are those of `RECONCILE_ORDER_QUERY`.
 */

const ADDRESS = "address1 address2 city zip countryCodeV2";

/** The bulk query for the orders created since `since`, oldest first. */
export function backfillBulkQuery(since: Date): string {
  return `{
  orders(query: "created_at:>='${since.toISOString()}'", sortKey: CREATED_AT) {
    edges {
      node {
        id name email createdAt processedAt updatedAt cancelledAt currencyCode cartToken edited
        customer { firstName lastName defaultEmailAddress { emailAddress } }
        billingAddress { ${ADDRESS} }
        shippingAddress { ${ADDRESS} }
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
        fulfillments {
          id status createdAt
          fulfillmentLineItems { edges { node { quantity lineItem { id } } } }
        }
        refunds {
          id note createdAt processedAt
          refundLineItems { edges { node { quantity restockType lineItem { id } } } }
        }
      }
    }
  }
}`;
}

type JsonObject = Record<string, unknown>;

function resourceOf(gid: unknown): string | null {
  return typeof gid === "string" ? (/^gid:\/\/shopify\/(\w+)\//.exec(gid)?.[1] ?? null) : null;
}

interface BulkOrder extends JsonObject {
  id: string;
  lineItems: { nodes: JsonObject[] };
  fulfillments: (JsonObject & { id: string; fulfillmentLineItems: { nodes: JsonObject[] } })[];
  refunds: (JsonObject & { id: string; refundLineItems: { nodes: JsonObject[] } })[];
}

/** A root line of the result as an order, with its nested connections empty until their lines come. */
function orderOf(line: JsonObject): BulkOrder {
  const list = (value: unknown) => (Array.isArray(value) ? (value as JsonObject[]) : []);
  return {
    ...line,
    id: String(line.id),
    lineItems: { nodes: [] },
    fulfillments: list(line.fulfillments).map((fulfillment) => ({
      ...fulfillment,
      id: String(fulfillment.id),
      fulfillmentLineItems: { nodes: [] },
    })),
    refunds: list(line.refunds).map((refund) => ({
      ...refund,
      id: String(refund.id),
      refundLineItems: { nodes: [] },
    })),
  };
}

/**
 * Reads a grouped bulk result line by line and hands out each order once its nested lines have
 * come: only one order is held at a time. A nested line names its parent (`__parentId`): an
 * order's line items, a refund's or a fulfilment's lines.
 */
export class BulkOrderReader {
  private current: BulkOrder | null = null;

  /** Takes one line; answers the order before it when this line starts the next. */
  push(line: JsonObject): ApiOrder | null {
    const parentId = line.__parentId;
    if (parentId === undefined) {
      const done = this.current;
      this.current = orderOf(line);
      return done as ApiOrder | null;
    }
    const order = this.current;
    if (!order) throw new Error(`A nested line came before any order: ${JSON.stringify(line)}`);
    const { __parentId: _parent, ...node } = line;
    const parent = String(parentId);
    switch (resourceOf(parent)) {
      case "Order":
        if (parent === order.id) return this.attach(order.lineItems.nodes, node);
        break;
      case "Refund": {
        const refund = order.refunds.find((candidate) => candidate.id === parent);
        if (refund) return this.attach(refund.refundLineItems.nodes, node);
        break;
      }
      case "Fulfillment": {
        const fulfillment = order.fulfillments.find((candidate) => candidate.id === parent);
        if (fulfillment) return this.attach(fulfillment.fulfillmentLineItems.nodes, node);
        break;
      }
    }
    throw new Error(
      `The line's parent ${parent} is not part of order ${gidNumber(order.id) ?? order.id}: the result is not grouped`,
    );
  }

  /** The last order, at the end of the result. */
  finish(): ApiOrder | null {
    const done = this.current;
    this.current = null;
    return done as ApiOrder | null;
  }

  private attach(nodes: JsonObject[], node: JsonObject): null {
    nodes.push(node);
    return null;
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
