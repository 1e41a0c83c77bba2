import { buildClientSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { loadAdminIntrospection } from "../../graphql/admin-schema.mjs";
import {
  backfillBulkQuery,
  BulkOrderReader,
  jsonLines,
  mustBeReadWhole,
  placementOnly,
} from "./backfill-query";

const ORDER = "gid://shopify/Order/1";
const REFUND = "gid://shopify/Refund/5";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe("the backfill's bulk query", () => {
  it("is valid on the Admin API schema of the app's version", () => {
    const schema = buildClientSchema(loadAdminIntrospection("2026-10"));
    const errors = validate(schema, parse(backfillBulkQuery(new Date("2026-10-01T00:00:00Z"))));
    expect(errors.map((error) => error.message)).toEqual([]);
  });

  it("nests no more than two levels of connections and five in all, as Shopify allows", () => {
    const query = backfillBulkQuery(new Date("2026-10-01T00:00:00Z"));
    expect(query.match(/edges/g)).toHaveLength(2);
    expect(query).toContain(`created_at:>='2026-10-01T00:00:00.000Z'`);
  });
});

describe("reading a grouped bulk result", () => {
  it("hands out each order with its lines, and tells which must be read whole", async () => {
    const lines = [
      { id: ORDER, name: "#1", edited: false, refunds: [{ id: REFUND }], fulfillments: [] },
      { id: "gid://shopify/LineItem/11", quantity: 2, __parentId: ORDER },
      { id: "gid://shopify/LineItem/12", quantity: 1, __parentId: ORDER },
      {
        id: "gid://shopify/Order/2",
        name: "#2",
        edited: false,
        refunds: [],
        fulfillments: [{ id: "gid://shopify/Fulfillment/3", status: "CANCELLED" }],
      },
    ];
    // Chunks that cut lines and characters apart.
    const text = lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
    const chunks = [text.slice(0, 7), text.slice(7, 90), text.slice(90)];
    const reader = new BulkOrderReader();
    const orders = [];
    for await (const line of jsonLines(streamOf(chunks))) {
      const done = reader.push(line);
      if (done) orders.push(done);
    }
    const last = reader.finish();
    if (last) orders.push(last);
    expect(orders.map((order) => order.name)).toEqual(["#1", "#2"]);
    expect(orders[0]?.lineItems.nodes.map((line) => line.id)).toEqual([
      "gid://shopify/LineItem/11",
      "gid://shopify/LineItem/12",
    ]);
    expect(orders[0]?.lineItems.nodes[0]).not.toHaveProperty("__parentId");
    expect(orders.map(mustBeReadWhole)).toEqual([true, false]);
    expect(placementOnly(orders[1]!)).toMatchObject({ fulfillments: [], refunds: [] });
  });

  it("reads an edited order or one with a fulfilment whole", () => {
    const order = (overrides: object) =>
      ({ id: ORDER, edited: false, refunds: [], fulfillments: [], ...overrides }) as never;
    expect(mustBeReadWhole(order({ edited: true }))).toBe(true);
    expect(mustBeReadWhole(order({ fulfillments: [{ id: "f", status: "SUCCESS" }] }))).toBe(true);
    expect(mustBeReadWhole(order({}))).toBe(false);
  });

  it("refuses a result that is not grouped, rather than misplace a line", () => {
    const reader = new BulkOrderReader();
    reader.push({ id: ORDER, refunds: [], fulfillments: [] });
    reader.push({ id: "gid://shopify/Order/2", refunds: [], fulfillments: [] });
    expect(() => reader.push({ id: "gid://shopify/LineItem/11", __parentId: ORDER })).toThrow(
      /not grouped/,
    );
  });
});
