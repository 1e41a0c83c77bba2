import { describe, expect, it } from "vitest";
import type { Order } from "../model";
import { adminGraphqlFixture } from "./test-support";

/*
 * Orders through the Admin API: what reconciliation and plan automation will read (paging by
 * updated_at, refundable quantities, suggested refunds, fulfillment orders) and the changes the
 * app makes (refundCreate with @idempotent, fulfillmentCreate, order edits, orderCancel), each
 * firing the webhooks Shopify fires.
 */

type Store = ReturnType<typeof adminGraphqlFixture>;

/** An order of two lamps (19.99) and one plan line (4.99) with the plan's cart properties. */
function placeOrder(store: Store): Order {
  const product = store.state.setProduct(
    store.shop.domain,
    { title: "Lamp", variants: [{ title: "Red", sku: "LAMP-R", price: 1999 }] },
    { kind: "merchant" },
  );
  const variantId = product.variants[0]?.id ?? "";
  return store.state.createOrder(store.shop.domain, {
    lineItems: [
      { variantId, quantity: 2 },
      {
        title: "Protection plan",
        price: 499,
        quantity: 1,
        requiresShipping: false,
        properties: [{ name: "_svc_protected_product_ref", value: variantId }],
      },
    ],
    noteAttributes: [{ name: "svc_session", value: "abc" }],
  });
}

const ORDER_QUERY = `#graphql
  query Order($id: ID!) {
    order(id: $id) {
      id name createdAt updatedAt processedAt cancelledAt cancelReason
      displayFinancialStatus displayFulfillmentStatus currencyCode presentmentCurrencyCode note
      customAttributes { key value }
      lineItems(first: 10) {
        nodes {
          id name title sku quantity currentQuantity refundableQuantity unfulfilledQuantity
          customAttributes { key value }
          variant { id }
          product { id }
          originalUnitPriceSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
          discountedUnitPriceSet { shopMoney { amount currencyCode } }
        }
      }
      transactions { id kind status gateway amountSet { shopMoney { amount } } parentTransaction { id } }
      refunds {
        id createdAt note
        refundLineItems(first: 10) { nodes { lineItem { id } quantity restockType } }
        totalRefundedSet { shopMoney { amount currencyCode } }
        transactions(first: 5) { nodes { id kind amountSet { shopMoney { amount } } } }
      }
      suggestedRefund(suggestFullRefund: true) {
        amountSet { shopMoney { amount } }
        subtotalSet { shopMoney { amount } }
        refundLineItems { lineItem { id } quantity }
        suggestedTransactions { amountSet { shopMoney { amount } } gateway kind parentTransaction { id } }
      }
      fulfillments { id status createdAt fulfillmentLineItems(first: 10) { nodes { lineItem { id } quantity } } }
      fulfillmentOrders(first: 5) {
        nodes { id status lineItems(first: 10) { nodes { id totalQuantity remainingQuantity lineItem { id } } } }
      }
    }
  }
`;

interface OrderAnswer {
  id: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  displayFinancialStatus: string;
  displayFulfillmentStatus: string;
  lineItems: {
    nodes: {
      id: string;
      quantity: number;
      currentQuantity: number;
      refundableQuantity: number;
      unfulfilledQuantity: number;
      customAttributes: { key: string; value: string }[];
      originalUnitPriceSet: { shopMoney: { amount: string; currencyCode: string } };
    }[];
  };
  transactions: { id: string; kind: string; amountSet: { shopMoney: { amount: string } } }[];
  refunds: {
    id: string;
    refundLineItems: { nodes: { quantity: number; restockType: string }[] };
  }[];
  suggestedRefund: {
    amountSet: { shopMoney: { amount: string } };
    suggestedTransactions: { gateway: string; kind: string; parentTransaction: { id: string } }[];
  };
  fulfillments: { id: string; status: string }[];
  fulfillmentOrders: {
    nodes: {
      id: string;
      status: string;
      lineItems: { nodes: { id: string; remainingQuantity: number }[] };
    }[];
  };
}

async function readOrder(store: Store, order: Order): Promise<OrderAnswer> {
  const body = await store.run(ORDER_QUERY, { id: `gid://shopify/Order/${order.id}` });
  expect(body.errors).toBeUndefined();
  return (body.data as { order: OrderAnswer }).order;
}

const REFUND = `#graphql
  mutation Refund($input: RefundInput!, $key: String!) {
    refundCreate(input: $input) @idempotent(key: $key) {
      refund { id totalRefundedSet { shopMoney { amount } } }
      order { displayFinancialStatus }
      userErrors { field message }
    }
  }
`;

describe("orders", () => {
  it("answers every field plan automation reads, from the store's order", async () => {
    const store = adminGraphqlFixture();
    const order = await readOrder(store, placeOrder(store));
    expect(order).toMatchObject({
      displayFinancialStatus: "PAID",
      displayFulfillmentStatus: "UNFULFILLED",
      cancelledAt: null,
      transactions: [{ kind: "SALE", amountSet: { shopMoney: { amount: "44.97" } } }],
      refunds: [],
      fulfillments: [],
      suggestedRefund: {
        amountSet: { shopMoney: { amount: "44.97" } },
        suggestedTransactions: [{ gateway: "bogus", kind: "SUGGESTED_REFUND" }],
      },
    });
    expect(
      order.lineItems.nodes.map((line) => [
        line.quantity,
        line.refundableQuantity,
        line.unfulfilledQuantity,
      ]),
    ).toEqual([
      [2, 2, 2],
      [1, 1, 1],
    ]);
    expect(order.lineItems.nodes[0]?.originalUnitPriceSet.shopMoney).toEqual({
      amount: "19.99",
      currencyCode: "EUR",
    });
    expect(order.lineItems.nodes[1]?.customAttributes).toEqual([
      { key: "_svc_protected_product_ref", value: expect.any(String) },
    ]);
    // One fulfillment order for the lines to ship, one for the plan, which ships nothing.
    expect(order.fulfillmentOrders.nodes).toHaveLength(2);
  });

  it("pages orders updated after a time, and an order changed later comes back on the next read", async () => {
    const store = adminGraphqlFixture();
    const start = new Date(Date.parse("2026-11-24T10:00:00Z") - 1000).toISOString();
    // A second apart: Shopify writes times to the second, so a page's last updatedAt is a bound.
    const placed = [1, 2, 3].map(() => {
      store.advance(1000);
      return placeOrder(store);
    });
    const page = async (after: string | null, since: string) => {
      const body = await store.run(
        `query Changed($after: String, $query: String!) {
          orders(first: 2, after: $after, query: $query, sortKey: UPDATED_AT) {
            nodes { id updatedAt }
            pageInfo { hasNextPage endCursor }
          }
        }`,
        { after, query: `updated_at:>'${since}'` },
      );
      expect(body.errors).toBeUndefined();
      return (
        body.data as {
          orders: {
            nodes: { id: string; updatedAt: string }[];
            pageInfo: { hasNextPage: boolean; endCursor: string };
          };
        }
      ).orders;
    };
    const first = await page(null, start);
    expect(first.nodes.map((node) => node.id)).toEqual(
      placed.slice(0, 2).map((o) => `gid://shopify/Order/${o.id}`),
    );
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await page(first.pageInfo.endCursor, start);
    expect(second.nodes.map((node) => node.id)).toEqual([`gid://shopify/Order/${placed[2]?.id}`]);
    expect(second.pageInfo.hasNextPage).toBe(false);

    // The last page's newest time, to the second: the next read asks for what changed after it.
    const lastSeen = new Date(Date.parse(second.nodes[0]?.updatedAt ?? "") + 1000).toISOString();
    store.advance(5000);
    const changed = placed[0] as Order;
    store.state.cancel(store.shop.domain, changed.id, { reason: "customer" }, { kind: "merchant" });
    const since = await page(null, lastSeen);
    expect(since.nodes.map((node) => node.id)).toEqual([`gid://shopify/Order/${changed.id}`]);
  });

  it("refuses refundCreate without an idempotency key, and changes nothing", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const body = await store.run(
      `mutation Refund($input: RefundInput!) { refundCreate(input: $input) { refund { id } userErrors { message } } }`,
      { input: { orderId: `gid://shopify/Order/${order.id}`, note: "no key" } },
    );
    expect(body.data).toEqual({ refundCreate: null });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("requires an idempotency key"),
        path: ["refundCreate"],
        extensions: expect.objectContaining({ code: "IDEMPOTENCY_KEY_REQUIRED" }),
      }),
    ]);
    expect(store.state.order(store.shop.domain, order.id)?.refunds).toEqual([]);
  });

  it("refunds once for a key sent twice, and refuses the key with other variables", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const [lamp] = order.lineItems;
    const sale = order.transactions[0];
    const input = {
      orderId: `gid://shopify/Order/${order.id}`,
      note: "Broken on arrival",
      refundLineItems: [
        { lineItemId: `gid://shopify/LineItem/${lamp?.id}`, quantity: 1, restockType: "CANCEL" },
      ],
      transactions: [
        {
          orderId: `gid://shopify/Order/${order.id}`,
          parentId: `gid://shopify/OrderTransaction/${sale?.id}`,
          kind: "REFUND",
          gateway: "bogus",
          amount: "19.99",
        },
      ],
    };
    const first = await store.run(REFUND, { input, key: "refund-1" });
    expect(first.errors).toBeUndefined();
    const refund = (
      first.data as {
        refundCreate: { refund: { id: string }; order: unknown; userErrors: unknown[] };
      }
    ).refundCreate;
    expect(refund).toMatchObject({
      refund: { totalRefundedSet: { shopMoney: { amount: "19.99" } } },
      order: { displayFinancialStatus: "PARTIALLY_REFUNDED" },
      userErrors: [],
    });
    const topics = [...store.webhooks];
    expect(topics.slice(-2)).toEqual(["refunds/create", "orders/updated"]);

    const again = await store.run(REFUND, { input, key: "refund-1" });
    expect(again.data).toEqual(first.data);
    expect(store.webhooks).toEqual(topics);
    expect(store.state.order(store.shop.domain, order.id)?.refunds).toHaveLength(1);

    const other = await store.run(REFUND, {
      input: { ...input, note: "Another" },
      key: "refund-1",
    });
    expect(other.data).toEqual({ refundCreate: null });
    expect(other.errors).toEqual([
      expect.objectContaining({
        message: "The same idempotency key cannot be used with different operation parameters.",
        extensions: expect.objectContaining({ code: "IDEMPOTENCY_KEY_PARAMETER_MISMATCH" }),
      }),
    ]);
    expect(store.state.order(store.shop.domain, order.id)?.refunds).toHaveLength(1);

    const answer = await readOrder(store, order);
    expect(answer.lineItems.nodes[0]).toMatchObject({ quantity: 2, refundableQuantity: 1 });
    expect(answer.refunds[0]?.refundLineItems.nodes).toEqual([
      {
        lineItem: { id: `gid://shopify/LineItem/${lamp?.id}` },
        quantity: 1,
        restockType: "CANCEL",
      },
    ]);
  });

  it("answers a refund of more than was paid as userErrors", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const body = await store.run(REFUND, {
      key: "too-much",
      input: {
        orderId: `gid://shopify/Order/${order.id}`,
        transactions: [
          {
            orderId: `gid://shopify/Order/${order.id}`,
            kind: "REFUND",
            gateway: "bogus",
            amount: "100.00",
          },
        ],
      },
    });
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      refundCreate: {
        refund: null,
        order: null,
        userErrors: [{ field: ["amount"], message: expect.any(String) }],
      },
    });
    expect(store.state.order(store.shop.domain, order.id)?.refunds).toEqual([]);
  });

  it("fulfils the lines of a fulfillment order with fulfillmentCreate", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const before = await readOrder(store, order);
    const fo = before.fulfillmentOrders.nodes[0];
    const body = await store.run(
      `mutation Fulfil($fulfillment: FulfillmentInput!) {
        fulfillmentCreate(fulfillment: $fulfillment) {
          fulfillment { id status fulfillmentLineItems(first: 5) { nodes { quantity } } trackingInfo { company number url } }
          userErrors { field message }
        }
      }`,
      {
        fulfillment: {
          lineItemsByFulfillmentOrder: [
            {
              fulfillmentOrderId: fo?.id,
              fulfillmentOrderLineItems: [{ id: fo?.lineItems.nodes[0]?.id, quantity: 1 }],
            },
          ],
          trackingInfo: { company: "DHL", number: "123", url: "https://track.example/123" },
          notifyCustomer: false,
        },
      },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      fulfillmentCreate: {
        fulfillment: {
          id: expect.stringMatching(/^gid:\/\/shopify\/Fulfillment\/\d+$/),
          status: "SUCCESS",
          fulfillmentLineItems: { nodes: [{ quantity: 1 }] },
          trackingInfo: [{ company: "DHL", number: "123", url: "https://track.example/123" }],
        },
        userErrors: [],
      },
    });
    expect(store.webhooks).toContain("fulfillments/create");
    const after = await readOrder(store, order);
    expect(after.displayFulfillmentStatus).toBe("PARTIALLY_FULFILLED");
    expect(after.lineItems.nodes[0]?.unfulfilledQuantity).toBe(1);
  });

  it("lists what each fulfilment order supports, and refuses to fulfil where CREATE_FULFILLMENT is not", async () => {
    const store = adminGraphqlFixture();
    const product = store.state.setProduct(
      store.shop.domain,
      { title: "Lamp", variants: [{ title: "Red", sku: "LAMP-R", price: 1999 }] },
      { kind: "merchant" },
    );
    const variantId = product.variants[0]?.id ?? "";
    const order = store.state.createOrder(store.shop.domain, {
      lineItems: [
        { variantId, quantity: 1 },
        { title: "Plan", price: 499, quantity: 1, requiresShipping: false },
        { title: "Stocked by a 3PL", price: 100, quantity: 1, fulfillmentService: "Acme 3PL" },
      ],
    });
    const read = async () => {
      const body = await store.run(
        `query FOs($id: ID!) {
          order(id: $id) {
            fulfillmentOrders(first: 5) {
              nodes {
                id status supportedActions { action }
                assignedLocation { name location { id } }
                lineItems(first: 5) { nodes { id remainingQuantity lineItem { id } } }
              }
            }
          }
        }`,
        { id: `gid://shopify/Order/${order.id}` },
      );
      expect(body.errors).toBeUndefined();
      return (
        body.data as {
          order: {
            fulfillmentOrders: {
              nodes: {
                id: string;
                status: string;
                supportedActions: { action: string }[];
                assignedLocation: { name: string; location: { id: string } };
                lineItems: { nodes: { id: string }[] };
              }[];
            };
          };
        }
      ).order.fulfillmentOrders.nodes;
    };
    const nodes = await read();
    expect(
      nodes.map((fo) => [
        fo.status,
        fo.supportedActions.map((supported) => supported.action),
        fo.assignedLocation.name,
      ]),
    ).toEqual([
      ["OPEN", ["CREATE_FULFILLMENT", "HOLD", "MOVE"], "Shop location"],
      ["OPEN", ["CREATE_FULFILLMENT", "HOLD", "MOVE"], "Shop location"],
      ["OPEN", ["REQUEST_FULFILLMENT", "HOLD", "MOVE"], "Acme 3PL"],
    ]);
    // The plan's fulfilment order is its own, at the shop's location; the 3PL's has another.
    expect(nodes[1]!.assignedLocation.location.id).toBe(nodes[0]!.assignedLocation.location.id);
    expect(nodes[2]!.assignedLocation.location.id).not.toBe(nodes[0]!.assignedLocation.location.id);

    const fulfil = (foId: string) =>
      store.run(
        `mutation Fulfil($fulfillment: FulfillmentInput!) {
          fulfillmentCreate(fulfillment: $fulfillment) {
            fulfillment { id }
            userErrors { field message }
          }
        }`,
        { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: foId }] } },
      );
    const refused = await fulfil(nodes[2]!.id);
    expect(refused.data).toEqual({
      fulfillmentCreate: {
        fulfillment: null,
        userErrors: [
          {
            field: ["fulfillment", "lineItemsByFulfillmentOrder", "0", "fulfillmentOrderId"],
            message: expect.stringContaining("does not support creating a fulfillment"),
          },
        ],
      },
    });
    // Not notified unless asked, as FulfillmentInput.notifyCustomer defaults to false.
    expect((await fulfil(nodes[1]!.id)).data).toMatchObject({
      fulfillmentCreate: { userErrors: [] },
    });
    const fulfilled = store.state.order(store.shop.domain, order.id)!;
    expect(fulfilled.fulfillments.map((f) => f.notifyCustomer)).toEqual([false]);
    const after = await read();
    expect(after[1]).toMatchObject({ status: "CLOSED", supportedActions: [] });
    expect((await fulfil(nodes[1]!.id)).data).toMatchObject({
      fulfillmentCreate: { fulfillment: null, userErrors: [{ message: expect.any(String) }] },
    });
  });

  it("edits an order: begin, set a quantity, commit", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const lampId = `gid://shopify/LineItem/${order.lineItems[0]?.id}`;
    const begun = await store.run(
      `mutation Begin($id: ID!) {
        orderEditBegin(id: $id) {
          calculatedOrder { id lineItems(first: 5) { nodes { id quantity title } } }
          userErrors { message }
        }
      }`,
      { id: `gid://shopify/Order/${order.id}` },
    );
    expect(begun.errors).toBeUndefined();
    const calculated = (
      begun.data as {
        orderEditBegin: {
          calculatedOrder: { id: string; lineItems: { nodes: { id: string; quantity: number }[] } };
        };
      }
    ).orderEditBegin.calculatedOrder;
    expect(calculated.lineItems.nodes.map((line) => line.quantity)).toEqual([2, 1]);

    const set = await store.run(
      `mutation Set($id: ID!, $lineItemId: ID!) {
        orderEditSetQuantity(id: $id, lineItemId: $lineItemId, quantity: 1, restock: true) {
          calculatedLineItem { quantity editableQuantityBeforeChanges }
          userErrors { message }
        }
      }`,
      { id: calculated.id, lineItemId: calculated.lineItems.nodes[0]?.id },
    );
    expect(set.data).toEqual({
      orderEditSetQuantity: {
        calculatedLineItem: { quantity: 1, editableQuantityBeforeChanges: 2 },
        userErrors: [],
      },
    });

    const committed = await store.run(
      `mutation Commit($id: ID!) {
        orderEditCommit(id: $id, notifyCustomer: false, staffNote: "Customer asked") {
          order { lineItems(first: 5) { nodes { id currentQuantity } } }
          userErrors { message }
        }
      }`,
      { id: calculated.id },
    );
    expect(committed.errors).toBeUndefined();
    expect(committed.data).toEqual({
      orderEditCommit: {
        order: {
          lineItems: {
            nodes: [
              { id: lampId, currentQuantity: 1 },
              expect.objectContaining({ currentQuantity: 1 }),
            ],
          },
        },
        userErrors: [],
      },
    });
    expect(store.webhooks).toContain("orders/edited");
  });

  it("cancels an order with orderCancel and answers a done job and 2026-10's jobResult", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const orderId = `gid://shopify/Order/${order.id}`;
    const cancel = `mutation Cancel($orderId: ID!) {
      orderCancel(orderId: $orderId, reason: CUSTOMER, refund: true, restock: true, notifyCustomer: false) {
        job { id done }
        jobResult { id done status errors { message } order { id displayFulfillmentStatus } }
        orderCancelUserErrors { field message code }
      }
    }`;
    const body = await store.run(cancel, { orderId });
    expect(body.errors).toBeUndefined();
    const jobId = expect.stringMatching(/^gid:\/\/shopify\/Job\//);
    expect(body.data).toEqual({
      orderCancel: {
        job: { id: jobId, done: true },
        jobResult: {
          id: jobId,
          done: true,
          status: "SUCCEEDED",
          errors: [],
          order: { id: orderId, displayFulfillmentStatus: "FULFILLMENT_NOT_REQUIRED" },
        },
        orderCancelUserErrors: [],
      },
    });
    const answer = await readOrder(store, order);
    expect(answer).toMatchObject({ cancelReason: "CUSTOMER", displayFinancialStatus: "REFUNDED" });
    // Nothing was fulfilled and nothing is left to fulfil: 2026-10 no longer says UNFULFILLED.
    expect(answer.displayFulfillmentStatus).toBe("FULFILLMENT_NOT_REQUIRED");
    expect(answer.cancelledAt).not.toBeNull();
    expect(store.webhooks).toContain("orders/cancelled");

    const twice = await store.run(cancel, { orderId });
    expect(twice.data).toEqual({
      orderCancel: {
        job: null,
        jobResult: null,
        orderCancelUserErrors: [expect.objectContaining({ message: expect.any(String) })],
      },
    });
  });
});

describe("order edits of a paid order (decision 026)", () => {
  const BALANCE = `#graphql
    query Balance($id: ID!) {
      order(id: $id) {
        displayFinancialStatus
        totalOutstandingSet { shopMoney { amount } presentmentMoney { amount currencyCode } }
        netPaymentSet { shopMoney { amount } }
      }
    }
  `;

  /** Begins an edit, sets the line's quantity and commits it as the app does. */
  async function editLine(store: Store, order: Order, lineId: string, quantity: number) {
    const begun = await store.run(
      `mutation Begin($id: ID!) {
        orderEditBegin(id: $id) {
          calculatedOrder { id lineItems(first: 5) { nodes { id quantity customAttributes { key value } } } }
          userErrors { field message }
        }
      }`,
      { id: `gid://shopify/Order/${order.id}` },
    );
    const calculated = (
      begun.data as {
        orderEditBegin: {
          calculatedOrder: { id: string; lineItems: { nodes: { id: string; quantity: number }[] } };
        };
      }
    ).orderEditBegin.calculatedOrder;
    const set = await store.run(
      `mutation Set($id: ID!, $lineItemId: ID!, $quantity: Int!) {
        orderEditSetQuantity(id: $id, lineItemId: $lineItemId, quantity: $quantity, restock: false) {
          calculatedLineItem { id quantity }
          userErrors { field message }
        }
      }`,
      { id: calculated.id, lineItemId: `gid://shopify/CalculatedLineItem/${lineId}`, quantity },
    );
    const committed = await store.run(
      `mutation Commit($id: ID!) {
        orderEditCommit(id: $id, notifyCustomer: false, staffNote: "svc-protection: plan reduced with its product (edit 1)") {
          order { displayFinancialStatus totalOutstandingSet { presentmentMoney { amount } } }
          userErrors { field message }
        }
      }`,
      { id: calculated.id },
    );
    return { calculated, set: set.data, committed: committed.data };
  }

  it("owes the customer what an edit took off a paid order, until it is refunded", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const planLine = order.lineItems[1]!.id;
    const before = await store.run(BALANCE, { id: `gid://shopify/Order/${order.id}` });
    expect(before.data).toMatchObject({
      order: {
        displayFinancialStatus: "PAID",
        totalOutstandingSet: { shopMoney: { amount: "0.0" } },
      },
    });

    const { calculated, set, committed } = await editLine(store, order, planLine, 0);
    // The calculated order shows the plan line with its cart properties, as the app finds it.
    expect(calculated.lineItems.nodes.map((line) => line.id)).toContain(
      `gid://shopify/CalculatedLineItem/${planLine}`,
    );
    expect(set).toEqual({
      orderEditSetQuantity: {
        calculatedLineItem: { id: `gid://shopify/CalculatedLineItem/${planLine}`, quantity: 0 },
        userErrors: [],
      },
    });
    expect(committed).toEqual({
      orderEditCommit: {
        order: {
          displayFinancialStatus: "PAID",
          totalOutstandingSet: { presentmentMoney: { amount: "-4.99" } },
        },
        userErrors: [],
      },
    });
    const edited = store.state.order(store.shop.domain, order.id)!;
    expect(edited.edits.at(-1)).toMatchObject({
      staffNote: "svc-protection: plan reduced with its product (edit 1)",
      notifyCustomer: false,
      lineItemChanges: { additions: [], removals: [{ id: planLine, delta: 1 }] },
    });

    // A refund of the amount alone settles the balance.
    const sale = edited.transactions.find((transaction) => transaction.kind === "SALE")!;
    const refunded = await store.run(
      `mutation Refund($input: RefundInput!) {
        refundCreate(input: $input) @idempotent(key: "5d1c6c1e-1f4e-4c7e-9a53-000000000001") {
          refund { refundLineItems(first: 1) { nodes { quantity } } totalRefundedSet { shopMoney { amount } } }
          userErrors { field message }
        }
      }`,
      {
        input: {
          orderId: `gid://shopify/Order/${order.id}`,
          transactions: [
            {
              orderId: `gid://shopify/Order/${order.id}`,
              parentId: `gid://shopify/OrderTransaction/${sale.id}`,
              amount: "4.99",
              gateway: sale.gateway,
              kind: "REFUND",
            },
          ],
        },
      },
    );
    expect(refunded.data).toEqual({
      refundCreate: {
        refund: {
          refundLineItems: { nodes: [] },
          totalRefundedSet: { shopMoney: { amount: "4.99" } },
        },
        userErrors: [],
      },
    });
    const after = await store.run(BALANCE, { id: `gid://shopify/Order/${order.id}` });
    expect(after.data).toMatchObject({
      order: {
        displayFinancialStatus: "PARTIALLY_REFUNDED",
        totalOutstandingSet: { shopMoney: { amount: "0.0" } },
        netPaymentSet: { shopMoney: { amount: "39.98" } },
      },
    });
  });

  it("refuses to edit fulfilled units away, with a user error", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const planLine = order.lineItems[1]!.id;
    store.state.fulfil(store.shop.domain, order.id, [{ lineItemId: planLine, quantity: 1 }], {
      kind: "merchant",
    });
    const { set } = await editLine(store, order, planLine, 0);
    expect(set).toEqual({
      orderEditSetQuantity: {
        calculatedLineItem: null,
        userErrors: [{ field: ["quantity"], message: expect.stringContaining("fulfilled") }],
      },
    });
    const unchanged = store.state.order(store.shop.domain, order.id)!;
    expect(unchanged.lineItems[1]!.currentQuantity).toBe(1);
    expect(unchanged.edits.at(-1)?.lineItemChanges).toEqual({ additions: [], removals: [] });
  });
});
