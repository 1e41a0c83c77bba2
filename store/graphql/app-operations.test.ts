import { describe, expect, it } from "vitest";
import { adminOperationSources } from "../../graphql/admin-schema.mjs";
import { appIdOf } from "./index";
import { adminGraphqlFixture } from "./test-support";

/*
 * Every operation the app sends today (app/graphql/), run against the store in the order the
 * app's protection-item flow sends them: what productSet creates is what the later queries read.
 */

const operations = new Map(
  adminOperationSources().map(({ source }) => {
    const name = /\b(?:query|mutation)\s+(\w+)/.exec(source)?.[1] ?? "";
    return [name, source];
  }),
);

function operation(name: string): string {
  const source = operations.get(name);
  if (!source) throw new Error(`No operation ${name} in app/graphql`);
  return source;
}

/** The variables the app's createProtectionProduct builds (protection-items.server.ts). */
function protectionProductVariables(amounts: string[]) {
  const value = (amount: string) => `${amount} EUR`;
  return {
    synchronous: true,
    productSet: {
      title: "Product protection",
      status: "UNLISTED",
      productType: "Product protection",
      tags: ["svc-protection"],
      metafields: [{ namespace: "seo", key: "hidden", type: "number_integer", value: "1" }],
      productOptions: [
        { name: "Plan", position: 1, values: amounts.map((amount) => ({ name: value(amount) })) },
      ],
      variants: amounts.map((amount) => ({
        optionValues: [{ optionName: "Plan", name: value(amount) }],
        price: amount,
        taxable: false,
        inventoryPolicy: "CONTINUE",
        inventoryItem: { tracked: false, requiresShipping: false },
      })),
    },
  };
}

/** An order of two laptops (variant 123) with two plan units protecting them. */
function laptopsWithPlans(store: ReturnType<typeof adminGraphqlFixture>) {
  return store.state.createOrder(store.shop.domain, {
    lineItems: [
      { title: "Laptop", price: 99_900, quantity: 2 },
      {
        title: "Accident protection",
        price: 9_900,
        quantity: 2,
        requiresShipping: false,
        properties: [{ name: "_svc_protected_product_ref", value: "123" }],
      },
    ],
  });
}

describe("the app's Admin GraphQL operations against the store", () => {
  it("covers every operation in app/graphql", () => {
    expect([...operations.keys()].sort()).toEqual([
      "BackfillOperation",
      "BeginPlanEdit",
      "CommitPlanEdit",
      "CreateProtectionProduct",
      "FulfilPlanLines",
      "OnlineStorePublication",
      "OrderForPlanEdit",
      "OrderForPlanFulfilment",
      "OrderForPlanRefund",
      "OrderPlacedAt",
      "ProductVariantOwner",
      "ProtectionItemCandidates",
      "ProtectionProductsPublished",
      "PublishProtectionProduct",
      "ReconcileOrder",
      "ReconcileOrderList",
      "RefundPlanLine",
      "RunBackfillQuery",
      "SetPlanAvailability",
      "SetPlanEditQuantity",
      "ShopAccessScopes",
      "ShopCurrency",
      "SuggestedPlanRefund",
    ]);
  });

  it("validates each operation against the schema", () => {
    const { engine } = adminGraphqlFixture();
    for (const [name, source] of operations) {
      expect({ name, errors: engine.validate(source) }).toEqual({ name, errors: [] });
    }
  });

  it("answers OrderPlacedAt for the shop's own order, and null for another shop's", async () => {
    const store = adminGraphqlFixture();
    const order = laptopsWithPlans(store);
    const orderGid = `gid://shopify/Order/${order.id}`;
    const own = await store.run(operation("OrderPlacedAt"), { id: orderGid });
    expect(own.errors).toBeUndefined();
    // Shopify's DateTime: whole seconds, UTC.
    const createdAt = order.createdAt.replace(/\.\d{3}Z$/, "Z");
    expect(own.data).toEqual({ order: { id: orderGid, createdAt } });

    const other = store.state.createShop({
      domain: "other.myshopify.com",
      appUrl: "https://app.example.com",
      apiKey: "test-api-key",
      apiSecret: "test-api-secret",
    });
    const theirOrder = store.state.createOrder(other.domain, {
      lineItems: [{ title: "Laptop", price: 99_900, quantity: 1 }],
    });
    const theirs = await store.run(operation("OrderPlacedAt"), {
      id: `gid://shopify/Order/${theirOrder.id}`,
    });
    expect(theirs.errors).toBeUndefined();
    expect(theirs.data).toEqual({ order: null });
  });

  it("runs the plan-refund flow: read the order, ask the suggested refund, refund once", async () => {
    const store = adminGraphqlFixture();
    const order = laptopsWithPlans(store);
    const orderGid = `gid://shopify/Order/${order.id}`;
    const planLineGid = `gid://shopify/LineItem/${order.lineItems[1]!.id}`;
    const ok = async (name: string, variables: Record<string, unknown>) => {
      const body = await store.run(operation(name), variables);
      expect(body.errors, `${name} answered errors`).toBeUndefined();
      return body.data as Record<string, Record<string, unknown>>;
    };

    const read = await ok("OrderForPlanRefund", { id: orderGid });
    expect(read.order).toMatchObject({ id: orderGid, cancelledAt: null, refunds: [] });
    expect((read.order!.lineItems as { nodes: unknown[] }).nodes[1]).toMatchObject({
      id: planLineGid,
      refundableQuantity: 2,
      unfulfilledQuantity: 2,
      customAttributes: [{ key: "_svc_protected_product_ref", value: "123" }],
    });

    const refundLineItems = [{ lineItemId: planLineGid, quantity: 1, restockType: "CANCEL" }];
    const suggested = await ok("SuggestedPlanRefund", { id: orderGid, refundLineItems });
    const suggestion = suggested.order!.suggestedRefund as {
      amountSet: { presentmentMoney: { amount: string } };
      suggestedTransactions: { gateway: string; kind: string; parentTransaction: { id: string } }[];
    };
    expect(suggestion.amountSet.presentmentMoney.amount).toBe("99.0");
    const [transaction] = suggestion.suggestedTransactions;

    const input = {
      orderId: orderGid,
      note: "svc-protection: plan refunded with its product",
      refundLineItems,
      transactions: [
        {
          orderId: orderGid,
          gateway: transaction!.gateway,
          kind: "REFUND",
          amount: "99.00",
          parentId: transaction!.parentTransaction.id,
        },
      ],
    };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refunded = await ok("RefundPlanLine", { input, idempotencyKey: "plan-refund-key-1" });
      expect(refunded.refundCreate!.userErrors).toEqual([]);
    }
    expect(store.state.order(store.shop.domain, order.id)?.refunds).toHaveLength(1);
  });

  it("runs the plan-fulfilment flow: read the order and its fulfilment orders, fulfil the plan unnotified", async () => {
    const store = adminGraphqlFixture();
    const order = laptopsWithPlans(store);
    const [laptop, plan] = order.lineItems;
    store.state.fulfil(store.shop.domain, order.id, [{ lineItemId: laptop!.id, quantity: 1 }], {
      kind: "merchant",
    });
    const orderGid = `gid://shopify/Order/${order.id}`;
    const body = await store.run(operation("OrderForPlanFulfilment"), { id: orderGid });
    expect(body.errors).toBeUndefined();
    // Within the 1,000 points Shopify allows a single query.
    const cost = (body.extensions as { cost?: { requestedQueryCost: number } } | undefined)?.cost;
    expect(cost?.requestedQueryCost).toBeLessThanOrEqual(1_000);
    const read = (body.data as { order: Record<string, unknown> }).order as {
      fulfillments: { status: string; fulfillmentLineItems: { nodes: unknown[] } }[];
      fulfillmentOrders: {
        nodes: {
          id: string;
          status: string;
          supportedActions: { action: string }[];
          lineItems: {
            nodes: { id: string; remainingQuantity: number; lineItem: { id: string } }[];
          };
        }[];
      };
    };
    expect(read.fulfillments).toEqual([
      {
        id: expect.any(String),
        status: "SUCCESS",
        fulfillmentLineItems: {
          nodes: [{ quantity: 1, lineItem: { id: `gid://shopify/LineItem/${laptop!.id}` } }],
        },
      },
    ]);
    const planFo = read.fulfillmentOrders.nodes[1]!;
    expect(planFo).toMatchObject({
      status: "OPEN",
      supportedActions: expect.arrayContaining([{ action: "CREATE_FULFILLMENT" }]),
      lineItems: {
        nodes: [{ remainingQuantity: 2, lineItem: { id: `gid://shopify/LineItem/${plan!.id}` } }],
      },
    });

    const fulfilled = await store.run(operation("FulfilPlanLines"), {
      fulfillment: {
        notifyCustomer: false,
        lineItemsByFulfillmentOrder: [
          {
            fulfillmentOrderId: planFo.id,
            fulfillmentOrderLineItems: [{ id: planFo.lineItems.nodes[0]!.id, quantity: 1 }],
          },
        ],
      },
    });
    expect(fulfilled.errors).toBeUndefined();
    expect(fulfilled.data).toEqual({
      fulfillmentCreate: {
        fulfillment: {
          id: expect.stringMatching(/^gid:\/\/shopify\/Fulfillment\/\d+$/),
          status: "SUCCESS",
        },
        userErrors: [],
      },
    });
    const after = store.state.order(store.shop.domain, order.id)!;
    expect(after.fulfillments.map((f) => [f.lines, f.notifyCustomer])).toEqual([
      [[{ lineItemId: laptop!.id, quantity: 1 }], true],
      [[{ lineItemId: plan!.id, quantity: 1 }], false],
    ]);
  });

  it("answers the scopes API's query: requested, optional and granted scopes", async () => {
    const store = adminGraphqlFixture({
      appScopes: {
        required: ["read_orders", "write_orders"],
        optional: ["write_merchant_managed_fulfillment_orders"],
      },
    });
    // shopify-app-remix's own query (scopes.query() and scopes.request() send it).
    const body = await store.run(`query FetchAccessScopes {
      app {
        requestedAccessScopes { handle }
        optionalAccessScopes { handle }
        installation { accessScopes { handle } }
      }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      app: {
        requestedAccessScopes: [{ handle: "read_orders" }, { handle: "write_orders" }],
        optionalAccessScopes: [{ handle: "write_merchant_managed_fulfillment_orders" }],
        installation: {
          accessScopes: ["read_products", "write_products", "read_orders", "write_orders"].map(
            (handle) => ({ handle }),
          ),
        },
      },
    });
  });

  it("runs the protection-item flow: create, publish, read back, check ownership, set the hint", async () => {
    const store = adminGraphqlFixture();
    const ok = async (name: string, variables: Record<string, unknown> = {}) => {
      const body = await store.run(operation(name), variables);
      expect(body.errors, `${name} answered errors`).toBeUndefined();
      expect(body.extensions?.cost.requestedQueryCost).toBeGreaterThan(0);
      return body.data as Record<string, unknown>;
    };

    expect(await ok("ShopCurrency")).toEqual({ shop: { currencyCode: "EUR" } });

    const created = await ok(
      "CreateProtectionProduct",
      protectionProductVariables(["4.99", "19.99"]),
    );
    const productSet = created.productSet as {
      product: {
        id: string;
        title: string;
        status: string;
        variants: {
          nodes: {
            id: string;
            title: string;
            price: string;
            taxable: boolean;
            selectedOptions: unknown[];
          }[];
        };
      };
      userErrors: unknown[];
    };
    expect(productSet.userErrors).toEqual([]);
    expect(productSet.product).toMatchObject({ title: "Product protection", status: "UNLISTED" });
    expect(productSet.product.variants.nodes.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        title: "4.99 EUR",
        price: "4.99",
        taxable: false,
        selectedOptions: [{ name: "Plan", value: "4.99 EUR" }],
      },
      {
        title: "19.99 EUR",
        price: "19.99",
        taxable: false,
        selectedOptions: [{ name: "Plan", value: "19.99 EUR" }],
      },
    ]);
    const productId = productSet.product.id;
    const [firstVariant] = productSet.product.variants.nodes;
    expect(productId).toMatch(/^gid:\/\/shopify\/Product\/\d+$/);
    expect(BigInt(productId.split("/").pop() ?? "0")).toBeGreaterThan(2n ** 53n);

    const stored = store.state.product(store.shop.domain, productId.split("/").pop() ?? "");
    expect(stored?.metafields).toEqual([
      expect.objectContaining({
        namespace: "seo",
        key: "hidden",
        type: "number_integer",
        value: "1",
      }),
    ]);
    expect(stored?.variants.map((variant) => [variant.price, variant.requiresShipping])).toEqual([
      [499, false],
      [1999, false],
    ]);

    const publications = await ok("OnlineStorePublication");
    const nodes = (
      publications.publications as { nodes: { id: string; catalog: { title: string } }[] }
    ).nodes;
    expect(nodes.map((node) => node.catalog.title)).toEqual(["Online Store", "Point of Sale"]);
    const onlineStore = nodes[0]?.id ?? "";

    const before = await ok("ProtectionProductsPublished", {
      ids: [productId],
      publicationId: onlineStore,
    });
    expect(before.nodes).toEqual([
      {
        __typename: "Product",
        id: productId,
        title: "Product protection",
        publishedOnPublication: false,
      },
    ]);
    const published = await ok("PublishProtectionProduct", {
      id: productId,
      input: [{ publicationId: onlineStore }],
    });
    expect(published).toEqual({ publishablePublish: { userErrors: [] } });
    const after = await ok("ProtectionProductsPublished", {
      ids: [productId],
      publicationId: onlineStore,
    });
    expect(after.nodes).toEqual([
      {
        __typename: "Product",
        id: productId,
        title: "Product protection",
        publishedOnPublication: true,
      },
    ]);

    const candidatesBody = await store.run(operation("ProtectionItemCandidates"), {
      ids: [firstVariant?.id, productId],
    });
    // shop 1 + 2 IDs × the dearer node (a product: 1 + variants 2 + 250 × 1) requested; the
    // variant (1 + its product 1) and the product (1 + 2 + its 2 variants) returned.
    expect(candidatesBody.extensions?.cost).toMatchObject({
      requestedQueryCost: 507,
      actualQueryCost: 8,
    });
    const candidates = candidatesBody.data;
    expect(candidates).toEqual({
      shop: { currencyCode: "EUR" },
      nodes: [
        {
          __typename: "ProductVariant",
          id: firstVariant?.id,
          title: "4.99 EUR",
          price: "4.99",
          product: { id: productId, title: "Product protection" },
        },
        {
          __typename: "Product",
          id: productId,
          title: "Product protection",
          variants: {
            nodes: productSet.product.variants.nodes.map(({ id, title, price }) => ({
              id,
              title,
              price,
            })),
          },
        },
      ],
    });

    expect(await ok("ProductVariantOwner", { id: firstVariant?.id })).toEqual({
      productVariant: { id: firstVariant?.id, product: { id: productId } },
    });
    expect(
      await ok("ProductVariantOwner", { id: "gid://shopify/ProductVariant/9007199254749999" }),
    ).toEqual({
      productVariant: null,
    });

    const hint = JSON.stringify({ without_plans: ["1"] });
    const set = await ok("SetPlanAvailability", {
      metafields: [
        {
          ownerId: productId,
          namespace: "$app",
          key: "plan_availability",
          type: "json",
          value: hint,
        },
      ],
    });
    const appNamespace = `app--${appIdOf(store.shop)}`;
    expect(set).toEqual({
      metafieldsSet: {
        metafields: [
          { key: "plan_availability", namespace: appNamespace, updatedAt: expect.any(String) },
        ],
        userErrors: [],
      },
    });
    const product = store.state.product(store.shop.domain, productId.split("/").pop() ?? "");
    expect(product?.metafields.find((m) => m.key === "plan_availability")).toMatchObject({
      namespace: appNamespace,
      value: hint,
    });
  });
});
