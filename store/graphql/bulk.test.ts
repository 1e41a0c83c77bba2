import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { Order } from "../model";
import { appIdOf } from "./index";
import { adminGraphqlFixture } from "./test-support";

/*
 * Bulk query operations through the Admin API, as reconciliation's backfill of a large shop uses
 * them: the user errors Shopify answers, the JSONL the run writes (nested connections as lines of
 * their own with __parentId), five at a time, cancellation, failures asked for by tests, and the
 * cost: 10 points for the mutation, nothing for the run.
 */

type Store = ReturnType<typeof adminGraphqlFixture>;
const MERCHANT = { kind: "merchant" } as const;
const stores: Store[] = [];

function newStore(): Store {
  const store = adminGraphqlFixture();
  stores.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.engine.bulk.close()));
});

interface OperationAnswer {
  id: string;
  status: string;
  errorCode: string | null;
  objectCount: string;
  rootObjectCount: string;
  fileSize: string | null;
  url: string | null;
  partialDataUrl: string | null;
  createdAt: string;
  completedAt: string | null;
  query: string;
  type: string;
}

const OPERATION_FIELDS = `id status errorCode objectCount rootObjectCount fileSize url partialDataUrl createdAt completedAt query type`;

const RUN = `#graphql
  mutation Run($query: String!, $group: Boolean!) {
    bulkOperationRunQuery(query: $query, groupObjects: $group) {
      bulkOperation { ${OPERATION_FIELDS} }
      userErrors { field message code }
    }
  }
`;

interface RunAnswer {
  bulkOperation: OperationAnswer | null;
  userErrors: { field: string[] | null; message: string; code: string | null }[];
}

async function runBulk(store: Store, query: string, group = false): Promise<RunAnswer> {
  const body = await store.run(RUN, { query, group });
  expect(body.errors).toBeUndefined();
  return (body.data as { bulkOperationRunQuery: RunAnswer }).bulkOperationRunQuery;
}

function numericId(gid: string): string {
  return gid.replace(/^gid:\/\/shopify\/BulkOperation\//, "");
}

async function readOperation(store: Store, gid: string): Promise<OperationAnswer | null> {
  const body = await store.run(
    `query Read($id: ID!) { bulkOperation(id: $id) { ${OPERATION_FIELDS} } }`,
    { id: gid },
  );
  expect(body.errors).toBeUndefined();
  return (body.data as { bulkOperation: OperationAnswer | null }).bulkOperation;
}

/** The operation once its run has ended. */
async function finished(store: Store, gid: string): Promise<OperationAnswer> {
  await store.engine.bulk.settled(numericId(gid));
  const operation = await readOperation(store, gid);
  if (!operation) throw new Error(`No bulk operation ${gid}`);
  return operation;
}

/** The JSONL behind an operation's URL, one parsed object per line. */
function linesAt(store: Store, url: string): Record<string, unknown>[] {
  const parsed = new URL(url);
  const id = /\/__store\/bulk\/(\d+)\.jsonl$/.exec(parsed.pathname)?.[1] ?? "";
  const file = store.engine.bulk.file(id, parsed.searchParams.get("signature") ?? "");
  if (!file) throw new Error(`No file behind ${url}`);
  const text = readFileSync(file, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Orders of a lamp, a camera and a plan line, some refunded and fulfilled. */
function seedShop(store: Store, count: number): void {
  for (const [title, price] of [
    ["Lamp", 1999],
    ["Camera", 45000],
    ["Chair", 8950],
  ] as const) {
    store.state.setProduct(
      store.shop.domain,
      { title, variants: [{ title: "Default Title", price }] },
      MERCHANT,
    );
  }
  store.state.seedOrders(store.shop.domain, {
    count,
    createdFrom: "2026-11-01T00:00:00Z",
    createdTo: "2026-11-20T00:00:00Z",
  });
}

const ORDERS_WITH_LINES = `{
  orders(query: "created_at:>='2026-11-01T00:00:00Z'", sortKey: CREATED_AT) {
    edges {
      node {
        id
        name
        refunds { id }
        fulfillments { id status }
        totalPriceSet { shopMoney { amount } }
        lineItems {
          edges { node { id quantity customAttributes { key value } } }
        }
      }
    }
  }
}`;

describe("bulkOperationRunQuery", () => {
  it("writes one line per node, nested lineItems as lines of their own with __parentId", async () => {
    const store = newStore();
    seedShop(store, 20);
    const created = await runBulk(store, ORDERS_WITH_LINES, true);
    expect(created.userErrors).toEqual([]);
    expect(created.bulkOperation).toMatchObject({
      status: "CREATED",
      type: "QUERY",
      objectCount: "0",
      url: null,
      query: ORDERS_WITH_LINES,
    });

    const done = await finished(store, created.bulkOperation!.id);
    expect(done).toMatchObject({ status: "COMPLETED", errorCode: null, partialDataUrl: null });
    const lines = linesAt(store, done.url!);
    const orders = store.state.orders(store.shop.domain);
    const lineCount = orders.reduce((sum, order) => sum + order.lineItems.length, 0);
    expect(done.rootObjectCount).toBe("20");
    expect(done.objectCount).toBe(String(20 + lineCount));
    expect(lines).toHaveLength(20 + lineCount);
    expect(Number(done.fileSize)).toBe(
      lines.reduce((sum, line) => sum + Buffer.byteLength(`${JSON.stringify(line)}\n`), 0),
    );

    // Grouped: each order's line, then its line items', in creation order.
    const expected = orders.flatMap((order: Order) => [
      `gid://shopify/Order/${order.id}`,
      ...order.lineItems.map((line) => `gid://shopify/LineItem/${line.id}`),
    ]);
    expect(lines.map((line) => line.id)).toEqual(expected);
    const refunded = orders.find((order) => order.refunds.length > 0)!;
    const orderLine = lines.find((line) => line.id === `gid://shopify/Order/${refunded.id}`);
    // Lists stay inline; the nested connection leaves its parent's line.
    expect(orderLine).toEqual({
      id: `gid://shopify/Order/${refunded.id}`,
      name: refunded.name,
      refunds: refunded.refunds.map((refund) => ({ id: `gid://shopify/Refund/${refund.id}` })),
      fulfillments: refunded.fulfillments.map((fulfillment) => ({
        id: `gid://shopify/Fulfillment/${fulfillment.id}`,
        status: "SUCCESS",
      })),
      totalPriceSet: { shopMoney: { amount: expect.any(String) } },
    });
    const plan = orders.flatMap((order) =>
      order.lineItems.filter((line) => line.properties.length > 0).map((line) => ({ order, line })),
    )[0]!;
    expect(lines.find((line) => line.id === `gid://shopify/LineItem/${plan.line.id}`)).toEqual({
      id: `gid://shopify/LineItem/${plan.line.id}`,
      quantity: plan.line.quantity,
      customAttributes: [{ key: "_svc_protected_product_ref", value: expect.any(String) }],
      __parentId: `gid://shopify/Order/${plan.order.id}`,
    });
  });

  it("pages past 250 top-level and 250 nested nodes, parents before children when not grouped", async () => {
    const store = newStore();
    seedShop(store, 260);
    const big = store.state.createOrder(store.shop.domain, {
      lineItems: Array.from({ length: 260 }, (_, index) => ({
        title: `Part ${index}`,
        price: 100,
        quantity: 1,
      })),
    });
    const created = await runBulk(
      store,
      `{ orders { edges { node { id lineItems(first: 2) { edges { node { id } } } } } } }`,
    );
    const done = await finished(store, created.bulkOperation!.id);
    const lines = linesAt(store, done.url!);
    const orders = store.state.orders(store.shop.domain);
    expect(done.rootObjectCount).toBe(String(orders.length));
    const roots = lines.filter((line) => !("__parentId" in line));
    expect(new Set(roots.map((line) => line.id)).size).toBe(261);
    const bigLines = lines.filter((line) => line.__parentId === `gid://shopify/Order/${big.id}`);
    // The request's own `first: 2` does not cut a bulk read short.
    expect(bigLines.map((line) => line.id)).toEqual(
      big.lineItems.map((line) => `gid://shopify/LineItem/${line.id}`),
    );
    const position = new Map(lines.map((line, index) => [line.id, index]));
    for (const line of lines.filter((candidate) => "__parentId" in candidate)) {
      expect(position.get(line.__parentId)).toBeLessThan(position.get(line.id)!);
    }
    // Not grouped: the first page's 250 orders come before any line item.
    expect(lines.slice(0, 250).every((line) => !("__parentId" in line))).toBe(true);
  });

  it("answers Shopify's user errors for a query it cannot run, and starts nothing", async () => {
    const store = newStore();
    const cases: [string, string][] = [
      [
        "{ orders { edges { node { id }",
        "Invalid bulk query: syntax error, unexpected end of file",
      ],
      [
        'mutation { orderCancel(orderId: "gid://shopify/Order/1", reason: OTHER, restock: false) { job { id } } }',
        "Invalid operation type. Only `query` operations are supported.",
      ],
      ["{ shop { id name } }", "Bulk queries must contain at least one connection."],
      [
        `{ products { edges { node { id
            variants { edges { node { id } } }
            media { edges { node { id } } }
            collections { edges { node { id } } }
            sellingPlanGroups { edges { node { id } } }
            metafields { edges { node { id } } } } } } }`,
        "Bulk queries cannot contain more than 5 connections.",
      ],
      [
        "{ collections { edges { node { id products { edges { node { id variants { edges { node { id } } } } } } } } } }",
        "Bulk queries cannot contain connections with a nesting depth greater than 2.",
      ],
      [
        "{ orders { edges { node { name lineItems { edges { node { id } } } } } } }",
        "The parent 'node' field for a nested connection must select the 'id' field without an alias and must be of 'ID' return type. Connection fields without 'id': orders.",
      ],
      [
        "{ orders { edges { node { id refunds { refundLineItems { edges { node { id } } } } } } } }",
        "Queries that contain a connection field within a list field are not currently supported.",
      ],
      [
        "{ orders { nodes { id } } }",
        "All connection fields in a bulk query must select their contents using 'edges' > 'node', e.g: 'orders { edges { node {'. Selecting via 'nodes' is not supported. Invalid connection fields: 'orders'.",
      ],
      ["{ orders { edges { node { id nope } } } }", "Field 'nope' doesn't exist on type 'Order'"],
    ];
    for (const [query, message] of cases) {
      const answer = await runBulk(store, query);
      expect(answer, query).toEqual({
        bulkOperation: null,
        userErrors: [{ field: ["query"], message, code: "INVALID" }],
      });
    }
    const topLevelNode = await runBulk(store, `{ node(id: "gid://shopify/Order/1") { id } }`);
    expect(topLevelNode.userErrors.map((error) => error.message)).toEqual([
      "Bulk queries cannot contain a top level `node` field.",
      "Bulk queries must contain at least one connection.",
    ]);
    expect(store.engine.bulk.list(store.shop.domain, appIdOf(store.shop))).toEqual([]);
  });

  it("costs 10 points like any mutation, and its run takes none from the shop's bucket", async () => {
    const store = newStore();
    seedShop(store, 300);
    const body = await store.run(RUN, { query: ORDERS_WITH_LINES, group: false });
    expect(body.extensions?.cost).toMatchObject({
      requestedQueryCost: 10,
      actualQueryCost: 10,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1990 },
    });
    const created = (body.data as { bulkOperationRunQuery: RunAnswer }).bulkOperationRunQuery;
    await store.engine.bulk.settled(numericId(created.bulkOperation!.id));
    // The clock stands still: only the read's own point is taken.
    const read = await store.run(`{ currentBulkOperation { status } }`);
    expect(read.data).toEqual({ currentBulkOperation: { status: "COMPLETED" } });
    expect(read.extensions?.cost.throttleStatus.currentlyAvailable).toBe(1989);
  });
});

const ORDER_IDS = `{ orders { edges { node { id } } } }`;

describe("bulk operations in progress", () => {
  it("runs five queries at a time per shop and app, and refuses a sixth until one ends", async () => {
    const store = newStore();
    seedShop(store, 3);
    store.engine.bulk.delayPages(store.shop.domain, 60_000);
    const running: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const created = await runBulk(store, ORDER_IDS);
      expect(created.userErrors).toEqual([]);
      running.push(created.bulkOperation!.id);
    }
    const sixth = await runBulk(store, ORDER_IDS);
    expect(sixth).toEqual({
      bulkOperation: null,
      userErrors: [
        {
          field: null,
          message: `A bulk query operation for this app and shop is already in progress: ${running.join(", ")}.`,
          code: "OPERATION_IN_PROGRESS",
        },
      ],
    });

    // Slowed, a run shows RUNNING with its progress; the page delay ends for runs under way.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readOperation(store, running[0]!)).toMatchObject({ status: "RUNNING", url: null });
    store.engine.bulk.delayPages(store.shop.domain, 0);
    const done = await finished(store, running[0]!);
    expect(done).toMatchObject({ status: "COMPLETED", rootObjectCount: "3" });
    for (const id of running.slice(1)) await store.engine.bulk.settled(numericId(id));
    expect((await runBulk(store, ORDER_IDS)).userErrors).toEqual([]);
  });

  it("cancels a running operation: CANCELING, then CANCELED without a file; a finished one refuses", async () => {
    const store = newStore();
    seedShop(store, 3);
    store.engine.bulk.delayPages(store.shop.domain, 60_000);
    const created = await runBulk(store, ORDER_IDS);
    const cancel = `#graphql
      mutation Cancel($id: ID!) {
        bulkOperationCancel(id: $id) { bulkOperation { id status } userErrors { field message } }
      }
    `;
    const canceling = await store.run(cancel, { id: created.bulkOperation!.id });
    expect(canceling.data).toEqual({
      bulkOperationCancel: {
        bulkOperation: { id: created.bulkOperation!.id, status: "CANCELING" },
        userErrors: [],
      },
    });
    const canceled = await finished(store, created.bulkOperation!.id);
    expect(canceled).toMatchObject({
      status: "CANCELED",
      url: null,
      partialDataUrl: null,
      completedAt: null,
    });

    const again = await store.run(cancel, { id: created.bulkOperation!.id });
    expect(again.data).toEqual({
      bulkOperationCancel: {
        bulkOperation: { id: created.bulkOperation!.id, status: "CANCELED" },
        userErrors: [
          { field: null, message: "A bulk operation cannot be canceled when it is canceled" },
        ],
      },
    });
    const unknown = await store.run(cancel, { id: "gid://shopify/BulkOperation/1" });
    expect(unknown.data).toEqual({
      bulkOperationCancel: {
        bulkOperation: null,
        userErrors: [{ field: ["id"], message: "Bulk operation does not exist" }],
      },
    });
  });

  it("fails the next operation when a test asks: FAILED with the code, partial data when some was written", async () => {
    const store = newStore();
    seedShop(store, 5);
    store.engine.bulk.failNext(store.shop.domain, {
      errorCode: "INTERNAL_SERVER_ERROR",
      afterObjects: 3,
    });
    const partial = await finished(store, (await runBulk(store, ORDER_IDS)).bulkOperation!.id);
    expect(partial).toMatchObject({
      status: "FAILED",
      errorCode: "INTERNAL_SERVER_ERROR",
      objectCount: "3",
      url: null,
      completedAt: null,
      fileSize: null,
    });
    expect(linesAt(store, partial.partialDataUrl!)).toHaveLength(3);

    store.engine.bulk.failNext(store.shop.domain, { errorCode: "TIMEOUT", afterObjects: 0 });
    const nothing = await finished(store, (await runBulk(store, ORDER_IDS)).bulkOperation!.id);
    expect(nothing).toMatchObject({ status: "FAILED", errorCode: "TIMEOUT", partialDataUrl: null });

    // Only the next one: the one after completes.
    const next = await finished(store, (await runBulk(store, ORDER_IDS)).bulkOperation!.id);
    expect(next).toMatchObject({ status: "COMPLETED", rootObjectCount: "5" });
  });

  it("shows an operation only to the shop and app that created it", async () => {
    const store = newStore();
    seedShop(store, 1);
    const created = await runBulk(store, ORDER_IDS);
    await finished(store, created.bulkOperation!.id);
    const other = store.state.createShop({
      domain: "other.myshopify.com",
      appUrl: "https://app.example.com",
      apiKey: "other-api-key",
      apiSecret: "other-secret",
    });
    const asOther = await store.engine.execute({
      shop: other,
      apiVersion: "2026-10",
      body: JSON.stringify({
        query: `query ($id: ID!) {
          bulkOperation(id: $id) { id }
          node(id: $id) { id }
          currentBulkOperation { id }
          bulkOperations(first: 5) { nodes { id } }
        }`,
        variables: { id: created.bulkOperation!.id },
      }),
    });
    expect((asOther.body as { data: unknown }).data).toEqual({
      bulkOperation: null,
      node: null,
      currentBulkOperation: null,
      bulkOperations: { nodes: [] },
    });
    const asOwner = await store.run(
      `query ($id: ID!) { node(id: $id) { ... on BulkOperation { id status } } }`,
      { id: created.bulkOperation!.id },
    );
    expect(asOwner.data).toEqual({ node: { id: created.bulkOperation!.id, status: "COMPLETED" } });
  });

  it("lists the app's operations newest first, by status, and the newest as currentBulkOperation", async () => {
    const store = newStore();
    seedShop(store, 2);
    const first = (await runBulk(store, ORDER_IDS)).bulkOperation!.id;
    await store.engine.bulk.settled(numericId(first));
    store.engine.bulk.failNext(store.shop.domain, {
      errorCode: "INTERNAL_SERVER_ERROR",
      afterObjects: 0,
    });
    const second = (await runBulk(store, ORDER_IDS)).bulkOperation!.id;
    await store.engine.bulk.settled(numericId(second));
    const body = await store.run(`{
      all: bulkOperations(first: 5) { nodes { id } }
      oldestFirst: bulkOperations(first: 5, reverse: true) { nodes { id } }
      completed: bulkOperations(first: 5, query: "status:completed operation_type:query") { nodes { id } }
      currentBulkOperation(type: QUERY) { id status }
      mutations: currentBulkOperation(type: MUTATION) { id }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      all: { nodes: [{ id: second }, { id: first }] },
      oldestFirst: { nodes: [{ id: first }, { id: second }] },
      completed: { nodes: [{ id: first }] },
      currentBulkOperation: { id: second, status: "FAILED" },
      mutations: null,
    });
  });
});
