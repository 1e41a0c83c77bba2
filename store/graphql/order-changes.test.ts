import { describe, expect, it } from "vitest";
import { parseWebhookJson } from "../../app/lib/json";
import type { Order } from "../model";
import { orderEditWebhookBody } from "../payloads/index";
import { adminGraphqlFixture } from "./test-support";

/*
 * What reconciliation (issue 17) reads back from the Admin API after the fact: every change to an
 * order moves its updatedAt, so `orders(query: "updated_at:>'…'")` finds it, and the edits appear
 * as OrderEditAgreements under the ID orders/edited carried.
 */

type Store = ReturnType<typeof adminGraphqlFixture>;
const MERCHANT = { kind: "merchant" } as const;

/** Two lamps (19.99) and a plan line (4.99) protecting them. */
function placeOrder(store: Store): Order {
  const product = store.state.setProduct(
    store.shop.domain,
    { title: "Lamp", variants: [{ title: "Red", price: 1999 }] },
    MERCHANT,
  );
  const variantId = product.variants[0]!.id;
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
  });
}

/** The store's time now, to the second, as Shopify writes times and apps send them back. */
function secondNow(store: Store): string {
  return new Date(Math.floor(store.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

async function changedSince(store: Store, query: string): Promise<string[]> {
  const body = await store.run(
    `query Changed($query: String!) {
      orders(first: 10, sortKey: UPDATED_AT, query: $query) { nodes { id } }
    }`,
    { query },
  );
  expect(body.errors).toBeUndefined();
  return (body.data as { orders: { nodes: { id: string }[] } }).orders.nodes.map((node) => node.id);
}

async function appMutation(store: Store, query: string, variables: Record<string, unknown>) {
  const body = await store.run(query, variables);
  expect(body.errors).toBeUndefined();
  const payload = Object.values(body.data ?? {})[0] as { userErrors?: unknown[] };
  expect(payload.userErrors ?? []).toEqual([]);
  return payload;
}

/** The app's edit through the Admin API: the first line set to `quantity`. */
async function appEdit(store: Store, order: Order, quantity: number) {
  const begun = (await appMutation(
    store,
    `mutation Begin($id: ID!) { orderEditBegin(id: $id) { calculatedOrder { id } userErrors { message } } }`,
    { id: `gid://shopify/Order/${order.id}` },
  )) as unknown as { calculatedOrder: { id: string } };
  await appMutation(
    store,
    `mutation Set($id: ID!, $line: ID!, $quantity: Int!) {
      orderEditSetQuantity(id: $id, lineItemId: $line, quantity: $quantity) { userErrors { message } }
    }`,
    {
      id: begun.calculatedOrder.id,
      line: `gid://shopify/LineItem/${order.lineItems[0]!.id}`,
      quantity,
    },
  );
  await appMutation(
    store,
    `mutation Commit($id: ID!) { orderEditCommit(id: $id) { userErrors { message } } }`,
    { id: begun.calculatedOrder.id },
  );
}

describe("updatedAt", () => {
  it("moves on every change to an order, by the merchant or the app, and updated_at AND created_at finds it", async () => {
    const store = adminGraphqlFixture();
    const older = placeOrder(store);
    store.advance(60_000);
    const created = secondNow(store);
    store.advance(1000);
    const order = placeOrder(store);
    const untouched = placeOrder(store);
    const lamp = order.lineItems[0]!;
    const orderGid = `gid://shopify/Order/${order.id}`;
    const domain = store.shop.domain;
    const plan = order.lineItems[1]!;
    const planFulfillmentOrder = () =>
      store.state
        .order(domain, order.id)!
        .fulfillmentOrders.find((fo) => fo.lines.some((line) => line.lineItemId === plan.id))!.id;

    const changes: [string, () => unknown][] = [
      [
        "merchant refund",
        () =>
          store.state.refund(
            domain,
            order.id,
            { lines: [{ lineItemId: lamp.id, quantity: 1, restockType: "no_restock" }] },
            MERCHANT,
          ),
      ],
      [
        "merchant edit",
        () => {
          const edit = store.state.beginEdit(domain, order.id, MERCHANT);
          store.state.stageQuantity(domain, edit.id, lamp.id, 4);
          return store.state.commitEdit(domain, edit.id, {});
        },
      ],
      ["app edit", () => appEdit(store, order, 3)],
      [
        "app refund",
        () =>
          appMutation(
            store,
            `mutation Refund($input: RefundInput!) {
            refundCreate(input: $input) @idempotent(key: "order-changes-refund") { userErrors { message } }
          }`,
            {
              input: {
                orderId: orderGid,
                refundLineItems: [{ lineItemId: `gid://shopify/LineItem/${lamp.id}`, quantity: 1 }],
              },
            },
          ),
      ],
      [
        "merchant fulfilment",
        () =>
          store.state.fulfil(domain, order.id, [{ lineItemId: lamp.id, quantity: 1 }], MERCHANT),
      ],
      [
        "fulfilment update",
        () => {
          const fulfillment = store.state.order(domain, order.id)!.fulfillments[0]!;
          return store.state.updateFulfillment(
            domain,
            order.id,
            fulfillment.id,
            { shipmentStatus: "in_transit" },
            MERCHANT,
          );
        },
      ],
      [
        "app fulfilment",
        () =>
          appMutation(
            store,
            `mutation Fulfil($input: FulfillmentInput!) { fulfillmentCreate(fulfillment: $input) { userErrors { message } } }`,
            {
              input: {
                lineItemsByFulfillmentOrder: [
                  {
                    fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${planFulfillmentOrder()}`,
                  },
                ],
              },
            },
          ),
      ],
      [
        "app cancel",
        () =>
          appMutation(
            store,
            `mutation Cancel($id: ID!) {
            orderCancel(orderId: $id, reason: CUSTOMER, restock: false) { orderCancelUserErrors { message } }
          }`,
            { id: `gid://shopify/Order/${older.id}` },
          ),
      ],
    ];

    for (const [change, act] of changes) {
      store.advance(2000);
      const before = secondNow(store);
      store.advance(1000);
      await act();
      const changedOrder = change === "app cancel" ? older : order;
      const since = await changedSince(store, `updated_at:>'${before}'`);
      expect(since, change).toEqual([`gid://shopify/Order/${changedOrder.id}`]);
      // Both forms of AND: the older order and the untouched one stay out.
      for (const joined of [" AND ", " "]) {
        const both = await changedSince(
          store,
          `updated_at:>'${before}'${joined}created_at:>='${created}'`,
        );
        expect(both, `${change}, "${joined.trim() || "space"}"`).toEqual(
          changedOrder === order ? [orderGid] : [],
        );
      }
    }
    expect(await changedSince(store, `created_at:>='${created}'`)).toEqual(
      expect.arrayContaining([orderGid, `gid://shopify/Order/${untouched.id}`]),
    );
  });
});

describe("Order.agreements", () => {
  const AGREEMENTS = `#graphql
    query Agreements($id: ID!) {
      order(id: $id) {
        agreements(first: 10) {
          nodes {
            __typename id reason happenedAt app { id } user { id }
            ... on OrderAgreement { order { id } }
            ... on RefundAgreement { refund { id } }
            sales(first: 10) {
              nodes {
                __typename actionType lineType quantity
                ... on ProductSale { lineItem { id } }
                totalAmount { shopMoney { amount currencyCode } }
              }
            }
          }
        }
      }
    }
  `;

  interface AgreementAnswer {
    __typename: string;
    id: string;
    reason: string;
    happenedAt: string;
    app: null;
    user: null;
    sales: {
      nodes: {
        actionType: string;
        quantity: number;
        lineItem: { id: string };
        totalAmount: { shopMoney: { amount: string } };
      }[];
    };
  }

  it("lists the placement, each committed edit under orders/edited's ID, and each refund, with their sales", async () => {
    const store = adminGraphqlFixture();
    const order = placeOrder(store);
    const [lamp, plan] = order.lineItems as [
      Order["lineItems"][number],
      Order["lineItems"][number],
    ];
    store.advance(1000);
    await appEdit(store, order, 1);
    store.advance(1000);
    const edit = store.state.beginEdit(store.shop.domain, order.id, MERCHANT);
    store.state.stageQuantity(store.shop.domain, edit.id, plan.id, 2);
    store.state.commitEdit(store.shop.domain, edit.id, {});
    // An edit begun but never committed is no agreement.
    store.state.beginEdit(store.shop.domain, order.id, MERCHANT);
    store.advance(1000);
    store.state.refund(
      store.shop.domain,
      order.id,
      { lines: [{ lineItemId: plan.id, quantity: 1, restockType: "no_restock" }] },
      MERCHANT,
    );

    const body = await store.run(AGREEMENTS, { id: `gid://shopify/Order/${order.id}` });
    expect(body.errors).toBeUndefined();
    const agreements = (body.data as { order: { agreements: { nodes: AgreementAnswer[] } } }).order
      .agreements.nodes;
    expect(agreements.map((agreement) => [agreement.__typename, agreement.reason])).toEqual([
      ["OrderAgreement", "ORDER"],
      ["OrderEditAgreement", "ORDER_EDIT"],
      ["OrderEditAgreement", "ORDER_EDIT"],
      ["RefundAgreement", "REFUND"],
    ]);

    const stored = store.state.order(store.shop.domain, order.id)!;
    const editIds = stored.edits
      .filter((committed) => committed.committedAt !== null)
      .map((committed) => {
        const webhook = parseWebhookJson(orderEditWebhookBody(store.shop, stored, committed).json);
        return String((webhook as { order_edit: { id: unknown } }).order_edit.id);
      });
    expect(agreements.slice(1, 3).map((agreement) => agreement.id)).toEqual(
      editIds.map((id) => `gid://shopify/OrderEditAgreement/${id}`),
    );
    expect(agreements[1]).toMatchObject({
      happenedAt: stored.edits[0]!.committedAt!.replace(/\.\d{3}Z$/, "Z"),
      app: null,
      user: null,
      sales: {
        nodes: [
          {
            actionType: "RETURN",
            quantity: -1,
            lineItem: { id: `gid://shopify/LineItem/${lamp.id}` },
            totalAmount: { shopMoney: { amount: "-19.99" } },
          },
        ],
      },
    });
    expect(agreements[2]?.sales.nodes).toEqual([
      expect.objectContaining({
        actionType: "ORDER",
        quantity: 1,
        lineItem: { id: `gid://shopify/LineItem/${plan.id}` },
        totalAmount: { shopMoney: { amount: "4.99", currencyCode: "EUR" } },
      }),
    ]);
    expect(agreements[0]?.sales.nodes.map((sale) => [sale.actionType, sale.quantity])).toEqual([
      ["ORDER", 2],
      ["ORDER", 1],
    ]);
    expect(agreements[3]).toMatchObject({
      refund: { id: `gid://shopify/Refund/${stored.refunds[0]!.id}` },
      sales: { nodes: [{ actionType: "RETURN", quantity: -1 }] },
    });
  });
});
