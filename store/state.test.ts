import { describe, expect, it } from "vitest";
import { parseWebhookJson } from "../app/lib/json";
import {
  StoreUserError,
  type Actor,
  type Order,
  type WebhookBody,
  type WebhookTopic,
} from "./model";
import { lineItemQuantities, refundableAmount, StoreState } from "./state";

const DOMAIN = "demo-shop.myshopify.com";
const MERCHANT: Actor = { kind: "merchant" };
const APP: Actor = { kind: "app", appId: "9007199254740000" };
const TWO_TO_THE_53 = 2n ** 53n;

interface RecordedWebhook {
  shop: string;
  topic: WebhookTopic;
  body: WebhookBody;
}

/** A store with one installed shop, whose webhooks land in `webhooks`. */
function installedStore(options: { currency?: string; now?: () => Date } = {}) {
  const webhooks: RecordedWebhook[] = [];
  const state = new StoreState({
    onWebhook: (shop, topic, body) => webhooks.push({ shop: shop.domain, topic, body }),
    now: options.now,
  });
  state.createShop({
    domain: DOMAIN,
    appUrl: "https://app.example.com",
    apiKey: "api-key",
    apiSecret: "api-secret",
    currency: options.currency,
  });
  state.install(DOMAIN, ["read_orders", "write_orders"]);
  const topics = () => webhooks.map((webhook) => webhook.topic);
  const forget = () => webhooks.splice(0);
  return { state, webhooks, topics, forget };
}

/** A shirt in two sizes (shipped) and a protection plan (not shipped). */
function addCatalog(state: StoreState) {
  const shirt = state.setProduct(
    DOMAIN,
    {
      title: "Cotton T-shirt",
      variants: [
        { title: "Small", sku: "TS-S", price: 2500 },
        { title: "Large", sku: "TS-L", price: 2700 },
      ],
    },
    MERCHANT,
  );
  const plan = state.setProduct(
    DOMAIN,
    {
      title: "Protection plan",
      variants: [{ title: "2 years", price: 300, requiresShipping: false }],
    },
    APP,
  );
  const [small, large] = shirt.variants;
  const [twoYears] = plan.variants;
  if (!small || !large || !twoYears) throw new Error("The catalog lost a variant");
  return { shirt, plan, small, large, twoYears };
}

/** An order of 3 small shirts and 1 plan: 3 × 25.00 + 3.00 = 78.00. */
function orderShirtsAndPlan(state: StoreState) {
  const { small, twoYears } = addCatalog(state);
  const order = state.createOrder(DOMAIN, {
    lineItems: [
      { variantId: small.id, quantity: 3 },
      {
        variantId: twoYears.id,
        quantity: 1,
        properties: [{ name: "_svc_protected_product_ref", value: "ref-1" }],
      },
    ],
    customer: { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace" },
    noteAttributes: [{ name: "_svc_plan", value: "2y" }],
    cartToken: "cart-1",
  });
  const [shirtLine, planLine] = order.lineItems;
  if (!shirtLine || !planLine) throw new Error("The order lost a line");
  return { order, shirtLine, planLine };
}

function quantities(state: StoreState, orderId: string, lineItemId: string) {
  const order = state.order(DOMAIN, orderId);
  if (!order) throw new Error(`Order ${orderId} is gone`);
  const found = lineItemQuantities(order, lineItemId);
  if (!found) throw new Error(`Line item ${lineItemId} is gone`);
  return found;
}

function storeUserError(action: () => unknown): StoreUserError {
  try {
    action();
  } catch (error) {
    if (error instanceof StoreUserError) return error;
    throw error;
  }
  throw new Error("Expected a StoreUserError, but the action succeeded");
}

describe("shops", () => {
  it("creates a shop with Shopify's defaults, two channel publications and IDs above 2^53", () => {
    const state = new StoreState();
    const shop = state.createShop({
      domain: "Demo-Shop.myshopify.com",
      appUrl: "https://app.example.com",
      apiKey: "key",
      apiSecret: "secret",
    });
    expect(shop).toMatchObject({
      domain: DOMAIN,
      name: "Demo Shop",
      currency: "EUR",
      currencyDecimals: 2,
      plan: "standard",
      installation: null,
      app: { url: "https://app.example.com", apiKey: "key", apiSecret: "secret" },
    });
    expect(shop.email).toMatch(/@/);
    expect(shop.ianaTimezone).toMatch(/^[A-Za-z]+\/[A-Za-z_]+$/);
    const publications = state.publications(DOMAIN);
    expect(publications.map((publication) => publication.catalogTitle)).toEqual([
      "Online Store",
      "Point of Sale",
    ]);
    expect(publications[0]?.id).toBe(shop.onlineStorePublicationId);
    for (const id of [shop.id, shop.locationId, ...publications.map((p) => p.id)]) {
      expect(BigInt(id) > TWO_TO_THE_53).toBe(true);
    }
    expect(state.shop(DOMAIN)).toEqual(shop);
    expect(state.shops()).toEqual([shop]);
  });

  it("knows the decimals of zero- and three-decimal currencies", () => {
    const state = new StoreState();
    const base = { appUrl: "https://app.example.com", apiKey: "key", apiSecret: "secret" };
    const yen = state.createShop({ ...base, domain: "yen.myshopify.com", currency: "jpy" });
    const dinar = state.createShop({ ...base, domain: "dinar.myshopify.com", currency: "KWD" });
    expect([yen.currency, yen.currencyDecimals]).toEqual(["JPY", 0]);
    expect([dinar.currency, dinar.currencyDecimals]).toEqual(["KWD", 3]);
  });

  it("refuses a taken domain, a domain outside myshopify.com, and an unknown plan or currency", () => {
    const state = new StoreState();
    const base = { appUrl: "https://app.example.com", apiKey: "key", apiSecret: "secret" };
    state.createShop({ ...base, domain: DOMAIN });
    expect(storeUserError(() => state.createShop({ ...base, domain: DOMAIN })).code).toBe("TAKEN");
    for (const domain of ["demo.example.com", "myshopify.com", "-x.myshopify.com"]) {
      expect(storeUserError(() => state.createShop({ ...base, domain })).field).toEqual(["domain"]);
    }
    expect(
      storeUserError(() =>
        state.createShop({ ...base, domain: "b.myshopify.com", plan: "gold" as "plus" }),
      ).field,
    ).toEqual(["plan"]);
    expect(
      storeUserError(() => state.createShop({ ...base, domain: "c.myshopify.com", currency: "€" }))
        .field,
    ).toEqual(["currency"]);
    expect(state.shops()).toHaveLength(1);
  });

  it("installs with an offline token, finds the shop by it, and revokes it on uninstall", () => {
    const { state, webhooks, topics } = installedStore();
    const installation = state.install(DOMAIN, ["read_orders", "write_orders", "read_orders"]);
    expect(installation.offlineAccessToken).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(installation.scopes).toEqual(["read_orders", "write_orders"]);
    expect(state.shopByAccessToken(installation.offlineAccessToken)?.domain).toBe(DOMAIN);
    expect(state.shopByAccessToken("shpat_00000000000000000000000000000000")).toBeUndefined();

    const regrant = state.install(DOMAIN, ["read_orders", "write_orders", "read_products"]);
    expect(regrant.offlineAccessToken).toBe(installation.offlineAccessToken);
    expect(regrant.scopes).toContain("read_products");

    state.uninstall(DOMAIN);
    expect(state.shop(DOMAIN)?.installation).toBeNull();
    expect(state.shopByAccessToken(installation.offlineAccessToken)).toBeUndefined();
    expect(topics()).toEqual(["app/uninstalled"]);
    expect(webhooks[0]?.shop).toBe(DOMAIN);
    expect(storeUserError(() => state.uninstall(DOMAIN)).code).toBe("INVALID");

    const reinstalled = state.install(DOMAIN, ["read_orders"]);
    expect(reinstalled.offlineAccessToken).not.toBe(installation.offlineAccessToken);
  });

  it("sends an app no webhooks from a shop it is not installed on", () => {
    const { state, topics } = installedStore();
    addCatalog(state);
    state.uninstall(DOMAIN);
    const { small } = addCatalog(state);
    state.createOrder(DOMAIN, { lineItems: [{ variantId: small.id, quantity: 1 }] });
    expect(topics()).toEqual(["app/uninstalled"]);
  });

  it("resets to nothing", () => {
    const { state } = installedStore();
    orderShirtsAndPlan(state);
    state.reset();
    expect(state.shops()).toEqual([]);
    expect(state.products(DOMAIN)).toEqual([]);
    expect(state.orders(DOMAIN)).toEqual([]);
    expect(storeUserError(() => state.createOrder(DOMAIN, { lineItems: [] })).code).toBe(
      "NOT_FOUND",
    );
  });
});

describe("catalog", () => {
  it("creates a product with a unique handle from its title, and IDs above 2^53", () => {
    const { state } = installedStore();
    const { shirt, small } = addCatalog(state);
    expect(shirt).toMatchObject({
      title: "Cotton T-shirt",
      handle: "cotton-t-shirt",
      status: "ACTIVE",
      vendor: "Demo Shop",
      publicationIds: [],
    });
    expect(small).toMatchObject({ title: "Small", sku: "TS-S", price: 2500, productId: shirt.id });
    expect(BigInt(small.id) > TWO_TO_THE_53).toBe(true);

    const second = state.setProduct(
      DOMAIN,
      { title: "Cotton  T-shirt!", variants: [{ title: "One", price: 100 }] },
      MERCHANT,
    );
    const third = state.setProduct(
      DOMAIN,
      { title: "Cotton T-shirt", variants: [{ title: "One", price: 100 }] },
      MERCHANT,
    );
    expect([second.handle, third.handle]).toEqual(["cotton-t-shirt-1", "cotton-t-shirt-2"]);
    expect(
      storeUserError(() =>
        state.setProduct(
          DOMAIN,
          { title: "Other", handle: "cotton-t-shirt", variants: [] },
          MERCHANT,
        ),
      ).field,
    ).toEqual(["input", "handle"]);
  });

  it("gives a product without variants Shopify's default variant", () => {
    const { state } = installedStore();
    const product = state.setProduct(DOMAIN, { title: "Gift", variants: [] }, MERCHANT);
    expect(product.variants.map((variant) => [variant.title, variant.price])).toEqual([
      ["Default Title", 0],
    ]);
  });

  it("replaces the variants on productSet with an ID: listed ones kept, others deleted", () => {
    const { state } = installedStore();
    const { shirt, small, large } = addCatalog(state);
    const updated = state.setProduct(
      DOMAIN,
      {
        id: shirt.id,
        title: "Organic T-shirt",
        variants: [
          { id: large.id, title: "Large", price: 2900 },
          { title: "Medium", price: 2600 },
        ],
      },
      MERCHANT,
    );
    expect(updated.id).toBe(shirt.id);
    expect(updated.handle).toBe("cotton-t-shirt");
    expect(updated.createdAt).toBe(shirt.createdAt);
    expect(updated.updatedAt > shirt.updatedAt).toBe(true);
    expect(updated.variants.map((variant) => [variant.title, variant.price])).toEqual([
      ["Large", 2900],
      ["Medium", 2600],
    ]);
    expect(updated.variants[0]?.id).toBe(large.id);
    expect(updated.variants[0]?.sku).toBe("TS-L");
    expect(state.variant(DOMAIN, small.id)).toBeUndefined();
    expect(state.variant(DOMAIN, large.id)?.product.title).toBe("Organic T-shirt");
  });

  it("refuses an unknown product or variant, duplicate variant titles and negative prices", () => {
    const { state } = installedStore();
    const { shirt, twoYears } = addCatalog(state);
    const before = state.products(DOMAIN);
    const attempts = [
      { id: "1", title: "Ghost", variants: [] },
      { id: shirt.id, title: "Shirt", variants: [{ id: twoYears.id, title: "X", price: 1 }] },
      {
        title: "Twins",
        variants: [
          { title: "Same", price: 1 },
          { title: "same", price: 2 },
        ],
      },
      { title: "Cheap", variants: [{ title: "One", price: -1 }] },
      { title: "  ", variants: [] },
    ];
    for (const attempt of attempts) {
      expect(() => state.setProduct(DOMAIN, attempt, MERCHANT)).toThrow(StoreUserError);
    }
    expect(state.products(DOMAIN)).toEqual(before);
  });

  it("publishes to and unpublishes from known publications only", () => {
    const { state } = installedStore();
    const { shirt } = addCatalog(state);
    const [onlineStore, pointOfSale] = state.publications(DOMAIN);
    if (!onlineStore || !pointOfSale) throw new Error("Missing publications");

    const published = state.publish(DOMAIN, shirt.id, [onlineStore.id, pointOfSale.id], APP);
    expect(published.publicationIds).toEqual([onlineStore.id, pointOfSale.id]);
    expect(state.publish(DOMAIN, shirt.id, [onlineStore.id], APP).publicationIds).toHaveLength(2);

    const error = storeUserError(() => state.publish(DOMAIN, shirt.id, ["404"], APP));
    expect(error.field).toEqual(["input", "0", "publicationId"]);
    expect(() => state.unpublish(DOMAIN, shirt.id, [pointOfSale.id, "404"], APP)).toThrow(
      StoreUserError,
    );
    expect(state.product(DOMAIN, shirt.id)?.publicationIds).toHaveLength(2);

    const unpublished = state.unpublish(DOMAIN, shirt.id, [pointOfSale.id], APP);
    expect(unpublished.publicationIds).toEqual([onlineStore.id]);
    expect(() => state.publish(DOMAIN, "404", [onlineStore.id], APP)).toThrow(StoreUserError);
  });
});

describe("metafields", () => {
  const hint = (ownerId: string, value: string) => ({
    ownerId,
    namespace: "app--123",
    key: "plan_availability",
    type: "json",
    value,
  });

  it("upserts by owner, namespace and key, and bumps updatedAt on every set", () => {
    const { state } = installedStore();
    const { shirt, small } = addCatalog(state);
    const [created] = state.setMetafields(DOMAIN, [hint(shirt.id, '["1"]')], APP);
    const [same] = state.setMetafields(DOMAIN, [hint(shirt.id, '["1"]')], APP);
    const [changed] = state.setMetafields(DOMAIN, [hint(shirt.id, '["2"]')], APP);
    expect(same?.id).toBe(created?.id);
    expect(changed?.id).toBe(created?.id);
    expect(same?.createdAt).toBe(created?.createdAt);
    expect((same?.updatedAt ?? "") > (created?.updatedAt ?? "")).toBe(true);
    expect((changed?.updatedAt ?? "") > (same?.updatedAt ?? "")).toBe(true);
    expect(state.product(DOMAIN, shirt.id)?.metafields).toEqual([changed]);

    const [onVariant] = state.setMetafields(DOMAIN, [hint(small.id, "{}")], APP);
    expect(onVariant?.id).not.toBe(created?.id);
    expect(state.variant(DOMAIN, small.id)?.variant.metafields).toEqual([onVariant]);
  });

  it("writes nothing when one input is invalid", () => {
    const { state } = installedStore();
    const { shirt, small } = addCatalog(state);
    const invalid = [
      [hint(small.id, "{}"), hint(shirt.id, "{not json")],
      [hint(small.id, "{}"), hint("404", "{}")],
      [hint(small.id, "{}"), { ...hint(shirt.id, "{}"), type: "jsonish" }],
      [hint(small.id, "{}"), { ...hint(shirt.id, "12x"), type: "number_integer" }],
      [hint(small.id, "{}"), { ...hint(shirt.id, "{}"), key: "k" }],
      [hint(small.id, "{}"), hint(shirt.id, "")],
    ];
    const fields = invalid.map(
      (inputs) => storeUserError(() => state.setMetafields(DOMAIN, inputs, APP)).field,
    );
    expect(fields).toEqual([
      ["metafields", "1", "value"],
      ["metafields", "1", "ownerId"],
      ["metafields", "1", "type"],
      ["metafields", "1", "value"],
      ["metafields", "1", "key"],
      ["metafields", "1", "value"],
    ]);
    expect(state.variant(DOMAIN, small.id)?.variant.metafields).toEqual([]);
    expect(state.product(DOMAIN, shirt.id)?.metafields).toEqual([]);
  });
});

describe("orders", () => {
  it("creates a paid order from the catalog and custom lines, and fires orders/create then orders/paid", () => {
    const { state, webhooks, topics, forget } = installedStore();
    const { small, twoYears, shirt } = addCatalog(state);
    forget();
    const order = state.createOrder(DOMAIN, {
      lineItems: [
        { variantId: small.id, quantity: 2 },
        { variantId: twoYears.id, quantity: 1, properties: [{ name: "_ref", value: "r1" }] },
        { title: "Gift wrap", price: 450, quantity: 1, requiresShipping: false },
      ],
      customer: { email: "ada@example.com", firstName: "Ada" },
      noteAttributes: [{ name: "_svc_plan", value: "2y" }],
      cartToken: "cart-1",
    });
    expect(order).toMatchObject({
      number: 1001,
      name: "#1001",
      currency: "EUR",
      email: "ada@example.com",
      cartToken: "cart-1",
      noteAttributes: [{ name: "_svc_plan", value: "2y" }],
      cancelledAt: null,
      refunds: [],
      fulfillments: [],
    });
    expect(order.token).toMatch(/^[0-9a-f]{32}$/);
    expect(order.customer).toMatchObject({ email: "ada@example.com", firstName: "Ada" });
    expect(
      order.lineItems.map((line) => [
        line.title,
        line.variantTitle,
        line.name,
        line.sku,
        line.price,
      ]),
    ).toEqual([
      ["Cotton T-shirt", "Small", "Cotton T-shirt - Small", "TS-S", 2500],
      ["Protection plan", "2 years", "Protection plan - 2 years", null, 300],
      ["Gift wrap", null, "Gift wrap", null, 450],
    ]);
    expect(order.lineItems[0]).toMatchObject({
      productId: shirt.id,
      quantity: 2,
      currentQuantity: 2,
    });
    expect(order.lineItems[1]?.properties).toEqual([{ name: "_ref", value: "r1" }]);
    expect(order.transactions).toEqual([
      expect.objectContaining({
        kind: "SALE",
        status: "SUCCESS",
        amount: 2 * 2500 + 300 + 450,
        parentId: null,
      }),
    ]);
    // Shipped and unshipped items are fulfilled from separate fulfillment orders.
    expect(
      order.fulfillmentOrders.map((fo) => [
        fo.status,
        fo.lines.map((line) => line.remainingQuantity),
      ]),
    ).toEqual([
      ["OPEN", [2]],
      ["OPEN", [1, 1]],
    ]);

    expect(topics()).toEqual(["orders/create", "orders/paid"]);
    expect(webhooks[0]?.body.subjectGid).toBe(`gid://shopify/Order/${order.id}`);
    const body = parseWebhookJson(webhooks[0]?.body.json ?? "") as { id: unknown };
    expect(String(body.id)).toBe(order.id);
    expect(BigInt(order.id) > TWO_TO_THE_53).toBe(true);

    const second = state.createOrder(DOMAIN, {
      lineItems: [{ variantId: small.id, quantity: 1 }],
      customer: { email: "ADA@example.com" },
    });
    expect(second.name).toBe("#1002");
    expect(second.customer?.id).toBe(order.customer?.id);
  });

  it("refuses empty orders, quantities under 1, unknown variants, untitled custom lines and another currency", () => {
    const { state, topics, forget } = installedStore();
    const { small } = addCatalog(state);
    forget();
    const attempts = [
      { lineItems: [] },
      { lineItems: [{ variantId: small.id, quantity: 0 }] },
      { lineItems: [{ variantId: small.id, quantity: 1.5 }] },
      { lineItems: [{ variantId: "404", quantity: 1 }] },
      { lineItems: [{ price: 100, quantity: 1 }] },
      { lineItems: [{ title: "Free?", quantity: 1 }] },
      { lineItems: [{ variantId: small.id, quantity: 1 }], currency: "USD" },
    ];
    for (const attempt of attempts) {
      expect(() => state.createOrder(DOMAIN, attempt)).toThrow(StoreUserError);
    }
    expect(state.orders(DOMAIN)).toEqual([]);
    expect(topics()).toEqual([]);
    expect(
      state.createOrder(DOMAIN, { lineItems: [{ variantId: small.id, quantity: 1 }] }).name,
    ).toBe("#1001");
  });

  it("keeps amounts in minor units of zero- and three-decimal currencies", () => {
    for (const [currency, price, total] of [
      ["JPY", 1500, "3000"],
      ["KWD", 1250, "2.500"],
    ] as const) {
      const { state, webhooks } = installedStore({ currency });
      const order = state.createOrder(DOMAIN, {
        lineItems: [{ title: "Teapot", price, quantity: 2 }],
      });
      expect(order.currency).toBe(currency);
      expect(order.transactions[0]?.amount).toBe(price * 2);
      const body = JSON.parse(webhooks.at(-1)?.body.json ?? "{}") as { total_price?: string };
      expect(body.total_price).toBe(total);

      const refund = state.refund(
        DOMAIN,
        order.id,
        {
          lines: [
            { lineItemId: order.lineItems[0]?.id ?? "", quantity: 1, restockType: "no_restock" },
          ],
        },
        MERCHANT,
      );
      expect(refund.lines[0]?.subtotal).toBe(price);
      expect(refundableAmount(state.order(DOMAIN, order.id) as Order)).toBe(price);
    }
  });
});

describe("fulfilment", () => {
  it("updates a fulfillment's tracking and shipment status, firing fulfillments/update", () => {
    const { state, topics, forget } = installedStore();
    const { order, shirtLine } = orderShirtsAndPlan(state);
    const shipped = state.fulfil(
      DOMAIN,
      order.id,
      [{ lineItemId: shirtLine.id, quantity: 1 }],
      MERCHANT,
    );
    const before = state.order(DOMAIN, order.id);
    forget();

    const updated = state.updateFulfillment(
      DOMAIN,
      order.id,
      shipped.id,
      { tracking: { company: "UPS", number: "1Z999" }, shipmentStatus: "delivered" },
      MERCHANT,
    );
    expect(updated).toMatchObject({
      id: shipped.id,
      status: "success",
      shipmentStatus: "delivered",
      trackingCompany: "UPS",
      trackingNumbers: ["1Z999"],
      lines: shipped.lines,
    });
    expect(topics()).toEqual(["fulfillments/update", "orders/updated"]);
    const after = state.order(DOMAIN, order.id);
    expect(after!.updatedAt > before!.updatedAt).toBe(true);
    expect(quantities(state, order.id, shirtLine.id)).toEqual(
      quantities(state, order.id, shirtLine.id),
    );

    forget();
    expect(
      storeUserError(() =>
        state.updateFulfillment(DOMAIN, order.id, "1", { shipmentStatus: "delivered" }, MERCHANT),
      ).code,
    ).toBe("NOT_FOUND");
    expect(
      storeUserError(() => state.updateFulfillment(DOMAIN, order.id, shipped.id, {}, MERCHANT))
        .code,
    ).toBe("BLANK");
    expect(topics()).toEqual([]);
  });

  it("fulfils part, then the rest, with the topics Shopify sends for each", () => {
    const { state, topics, forget } = installedStore();
    const { order, shirtLine, planLine } = orderShirtsAndPlan(state);
    forget();

    const first = state.fulfil(
      DOMAIN,
      order.id,
      [{ lineItemId: shirtLine.id, quantity: 2 }],
      MERCHANT,
      {
        company: "DHL",
        number: "123",
        url: "https://track.example/123",
      },
    );
    expect(first).toMatchObject({
      name: "#1001.1",
      status: "success",
      trackingCompany: "DHL",
      trackingNumbers: ["123"],
      lines: [{ lineItemId: shirtLine.id, quantity: 2 }],
    });
    expect(topics()).toEqual([
      "fulfillments/create",
      "orders/partially_fulfilled",
      "orders/updated",
    ]);
    let current = state.order(DOMAIN, order.id);
    expect(
      current?.fulfillmentOrders.map((fo) => [fo.status, fo.lines[0]?.remainingQuantity]),
    ).toEqual([
      ["IN_PROGRESS", 1],
      ["OPEN", 1],
    ]);

    forget();
    const error = storeUserError(() =>
      state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 2 }], MERCHANT),
    );
    expect(error.message).toContain("1 left to fulfil");
    expect(() =>
      state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 0 }], MERCHANT),
    ).toThrow(StoreUserError);
    expect(() =>
      state.fulfil(DOMAIN, order.id, [{ lineItemId: "404", quantity: 1 }], MERCHANT),
    ).toThrow(StoreUserError);
    expect(topics()).toEqual([]);

    // No lines: everything still to fulfil, as fulfillmentCreate without line items.
    const rest = state.fulfil(DOMAIN, order.id, [], APP);
    expect(rest.name).toBe("#1001.2");
    expect(rest.lines).toEqual([
      { lineItemId: shirtLine.id, quantity: 1 },
      { lineItemId: planLine.id, quantity: 1 },
    ]);
    expect(topics()).toEqual(["fulfillments/create", "orders/fulfilled", "orders/updated"]);
    current = state.order(DOMAIN, order.id);
    expect(current?.fulfillmentOrders.map((fo) => fo.status)).toEqual(["CLOSED", "CLOSED"]);
    expect(() => state.fulfil(DOMAIN, order.id, [], MERCHANT)).toThrow(/nothing left to fulfil/);
  });
});

describe("refunds", () => {
  it("refunds a quantity with its share of the payment, as a REFUND on the SALE", () => {
    const { state, webhooks, topics, forget } = installedStore();
    const { order, shirtLine } = orderShirtsAndPlan(state);
    forget();
    const refund = state.refund(
      DOMAIN,
      order.id,
      {
        lines: [{ lineItemId: shirtLine.id, quantity: 2, restockType: "no_restock" }],
        note: "Too small",
      },
      APP,
    );
    expect(refund).toMatchObject({
      orderId: order.id,
      note: "Too small",
      restock: false,
      appId: APP.kind === "app" ? APP.appId : null,
      lines: [
        { lineItemId: shirtLine.id, quantity: 2, subtotal: 5000, totalTax: 0, locationId: null },
      ],
    });
    const updated = state.order(DOMAIN, order.id) as Order;
    const sale = updated.transactions[0];
    expect(updated.transactions[1]).toMatchObject({
      kind: "REFUND",
      status: "SUCCESS",
      amount: 5000,
      parentId: sale?.id,
    });
    expect(refund.transactionIds).toEqual([updated.transactions[1]?.id]);
    expect(topics()).toEqual(["refunds/create", "orders/updated"]);
    expect(webhooks[0]?.body.subjectGid).toContain(refund.id);
    expect(refundableAmount(updated)).toBe(7800 - 5000);
  });

  it("refuses more than the refundable quantity or amount, and changes nothing", () => {
    const { state, topics, forget } = installedStore();
    const { order, shirtLine, planLine } = orderShirtsAndPlan(state);
    state.refund(
      DOMAIN,
      order.id,
      { lines: [{ lineItemId: shirtLine.id, quantity: 2, restockType: "cancel" }] },
      MERCHANT,
    );
    forget();
    const before = state.order(DOMAIN, order.id);

    const overQuantity = storeUserError(() =>
      state.refund(
        DOMAIN,
        order.id,
        { lines: [{ lineItemId: shirtLine.id, quantity: 2, restockType: "no_restock" }] },
        MERCHANT,
      ),
    );
    expect(overQuantity.message).toContain("only 1 can be refunded");
    // Two lines for one item count together.
    expect(() =>
      state.refund(
        DOMAIN,
        order.id,
        {
          lines: [
            { lineItemId: shirtLine.id, quantity: 1, restockType: "no_restock" },
            { lineItemId: shirtLine.id, quantity: 1, restockType: "no_restock" },
          ],
        },
        MERCHANT,
      ),
    ).toThrow(StoreUserError);
    const overAmount = storeUserError(() =>
      state.refund(
        DOMAIN,
        order.id,
        {
          lines: [{ lineItemId: planLine.id, quantity: 1, restockType: "no_restock" }],
          amount: 2801,
        },
        MERCHANT,
      ),
    );
    expect(overAmount.field).toEqual(["amount"]);
    expect(() => state.refund(DOMAIN, order.id, { lines: [] }, MERCHANT)).toThrow(StoreUserError);
    expect(state.order(DOMAIN, order.id)).toEqual(before);
    expect(topics()).toEqual([]);

    expect(
      state.suggestRefund(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 1 }]).amount,
    ).toBe(2500);
    expect(() =>
      state.suggestRefund(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 2 }]),
    ).toThrow(StoreUserError);
  });

  it("removes restocked units (cancel, return) from currentQuantity and keeps them without restock", () => {
    const { state } = installedStore();
    const { order, shirtLine } = orderShirtsAndPlan(state);
    state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 1 }], MERCHANT);
    const refundOne = (restockType: "cancel" | "return" | "no_restock") =>
      state.refund(
        DOMAIN,
        order.id,
        { lines: [{ lineItemId: shirtLine.id, quantity: 1, restockType }] },
        MERCHANT,
      );

    // 3 ordered, 1 fulfilled. "return" needs a fulfilled unit; "cancel" an unfulfilled one.
    expect(quantities(state, order.id, shirtLine.id)).toMatchObject({
      current: 3,
      fulfillable: 2,
      refundable: 3,
    });
    const cancelled = refundOne("cancel");
    expect(cancelled.restock).toBe(true);
    expect(cancelled.lines[0]?.locationId).toBe(state.shop(DOMAIN)?.locationId);
    expect(quantities(state, order.id, shirtLine.id)).toMatchObject({
      current: 2,
      fulfillable: 1,
      refundable: 2,
    });
    expect(state.order(DOMAIN, order.id)?.fulfillmentOrders[0]?.lines[0]).toMatchObject({
      totalQuantity: 2,
      remainingQuantity: 1,
    });

    refundOne("return");
    expect(quantities(state, order.id, shirtLine.id)).toMatchObject({
      current: 1,
      fulfillable: 1,
      refundable: 1,
    });
    expect(() => refundOne("return")).toThrow(/only 0 are fulfilled/);

    refundOne("no_restock");
    expect(quantities(state, order.id, shirtLine.id)).toMatchObject({
      current: 1,
      fulfillable: 0,
      refundable: 0,
    });
    expect(state.order(DOMAIN, order.id)?.lineItems[0]?.currentQuantity).toBe(1);
    expect(state.order(DOMAIN, order.id)?.fulfillmentOrders[0]?.status).toBe("CLOSED");
    expect(() => refundOne("no_restock")).toThrow(/only 0 can be refunded/);
  });

  it("counts a refund without restock against fulfilled units first, as Shopify's fulfillable quantity", () => {
    const { state } = installedStore();
    const { order, shirtLine } = orderShirtsAndPlan(state);
    state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 1 }], MERCHANT);
    state.refund(
      DOMAIN,
      order.id,
      { lines: [{ lineItemId: shirtLine.id, quantity: 2, restockType: "no_restock" }] },
      MERCHANT,
    );
    // 3 − max(refunded 2, fulfilled 1) = 1, and it stays 1 after later fulfilments.
    expect(quantities(state, order.id, shirtLine.id).fulfillable).toBe(1);
    state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 1 }], MERCHANT);
    expect(quantities(state, order.id, shirtLine.id)).toMatchObject({
      fulfillable: 0,
      refundable: 1,
    });
  });

  it("suggests a refund without changing anything", () => {
    const { state, topics, forget } = installedStore();
    const { order, shirtLine, planLine } = orderShirtsAndPlan(state);
    forget();
    const before = state.order(DOMAIN, order.id);
    const suggestion = state.suggestRefund(DOMAIN, order.id, [
      { lineItemId: shirtLine.id, quantity: 1 },
      { lineItemId: planLine.id, quantity: 1 },
    ]);
    expect(suggestion.amount).toBe(2800);
    expect(suggestion.lines.map((line) => [line.lineItemId, line.quantity, line.subtotal])).toEqual(
      [
        [shirtLine.id, 1, 2500],
        [planLine.id, 1, 300],
      ],
    );
    expect(state.order(DOMAIN, order.id)).toEqual(before);
    expect(topics()).toEqual([]);

    const refund = state.refund(
      DOMAIN,
      order.id,
      {
        lines: suggestion.lines.map((line) => ({ ...line, restockType: "no_restock" as const })),
      },
      APP,
    );
    expect(refund.lines.map((line) => line.subtotal)).toEqual([2500, 300]);
    expect(state.order(DOMAIN, order.id)?.transactions[1]?.amount).toBe(suggestion.amount);
  });

  it("refunds an amount of its own, or only what the payment can still return", () => {
    const { state } = installedStore();
    const { order, shirtLine } = orderShirtsAndPlan(state);
    const partial = state.refund(
      DOMAIN,
      order.id,
      { lines: [], amount: 1000, note: "Goodwill" },
      MERCHANT,
    );
    expect(partial.lines).toEqual([]);
    expect(refundableAmount(state.order(DOMAIN, order.id) as Order)).toBe(6800);
    const all = state.refund(
      DOMAIN,
      order.id,
      { lines: [{ lineItemId: shirtLine.id, quantity: 3, restockType: "cancel" }] },
      MERCHANT,
    );
    expect(all.lines[0]?.subtotal).toBe(7500);
    const updated = state.order(DOMAIN, order.id) as Order;
    expect(updated.transactions.at(-1)?.amount).toBe(6800);
    expect(refundableAmount(updated)).toBe(0);
  });
});

describe("cancellation", () => {
  it("refunds what is left, then cancels: refunds/create, orders/cancelled, orders/updated", () => {
    const { state, topics, forget } = installedStore();
    const { order, shirtLine, planLine } = orderShirtsAndPlan(state);
    state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 1 }], MERCHANT);
    forget();

    const cancelled = state.cancel(
      DOMAIN,
      order.id,
      { reason: "customer", refund: true, restock: true },
      MERCHANT,
    );
    expect(topics()).toEqual(["refunds/create", "orders/cancelled", "orders/updated"]);
    expect(cancelled.cancelReason).toBe("customer");
    expect(cancelled.cancelledAt).not.toBeNull();
    expect(cancelled.refunds).toHaveLength(1);
    expect(
      cancelled.refunds[0]?.lines.map((line) => [line.lineItemId, line.quantity, line.restockType]),
    ).toEqual([
      [shirtLine.id, 2, "cancel"],
      [shirtLine.id, 1, "no_restock"],
      [planLine.id, 1, "cancel"],
    ]);
    expect(refundableAmount(cancelled)).toBe(0);
    expect(cancelled.transactions.at(-1)).toMatchObject({ kind: "REFUND", amount: 7800 });
    expect(cancelled.fulfillmentOrders.map((fo) => fo.status)).toEqual(["CLOSED", "CLOSED"]);
    // What stays is what the customer received.
    expect(cancelled.lineItems.map((line) => line.currentQuantity)).toEqual([1, 0]);
    expect((cancelled.refunds[0]?.createdAt ?? "") < (cancelled.cancelledAt ?? "")).toBe(true);

    forget();
    expect(storeUserError(() => state.cancel(DOMAIN, order.id, {}, MERCHANT)).message).toContain(
      "already cancelled",
    );
    expect(() => state.fulfil(DOMAIN, order.id, [], MERCHANT)).toThrow(StoreUserError);
    expect(topics()).toEqual([]);
  });

  it("cancels without a refund: the payment stays refundable and unshipped units are removed", () => {
    const { state, topics, forget } = installedStore();
    const { order, shirtLine } = orderShirtsAndPlan(state);
    forget();
    const cancelled = state.cancel(DOMAIN, order.id, {}, MERCHANT);
    expect(topics()).toEqual(["orders/cancelled", "orders/updated"]);
    expect(cancelled.cancelReason).toBe("other");
    expect(cancelled.refunds).toEqual([]);
    expect(cancelled.lineItems.map((line) => line.currentQuantity)).toEqual([0, 0]);
    expect(refundableAmount(cancelled)).toBe(7800);
    expect(quantities(state, order.id, shirtLine.id)).toMatchObject({
      refundable: 3,
      fulfillable: 0,
    });
  });

  it("refuses to cancel a fully fulfilled order", () => {
    const { state, topics, forget } = installedStore();
    const { order } = orderShirtsAndPlan(state);
    state.fulfil(DOMAIN, order.id, [], MERCHANT);
    forget();
    expect(
      storeUserError(() => state.cancel(DOMAIN, order.id, { refund: true }, MERCHANT)).message,
    ).toMatch(/refund it instead/);
    expect(state.order(DOMAIN, order.id)?.cancelledAt).toBeNull();
    expect(topics()).toEqual([]);
  });
});

describe("order edits", () => {
  it("stages and commits quantities: orders/edited then orders/updated, with the net changes", () => {
    const { state, topics, forget } = installedStore();
    const { order, shirtLine, planLine } = orderShirtsAndPlan(state);
    state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 1 }], MERCHANT);
    forget();

    const edit = state.beginEdit(DOMAIN, order.id, APP);
    expect(edit).toMatchObject({ orderId: order.id, committedAt: null, appId: "9007199254740000" });
    // One shirt is fulfilled: the line can go down to 1, not to 0.
    expect(() => state.stageQuantity(DOMAIN, edit.id, shirtLine.id, 0)).toThrow(/1 are fulfilled/);
    expect(() => state.stageQuantity(DOMAIN, edit.id, "404", 1)).toThrow(StoreUserError);
    expect(() => state.stageQuantity(DOMAIN, edit.id, planLine.id, -1)).toThrow(StoreUserError);
    state.stageQuantity(DOMAIN, edit.id, shirtLine.id, 1);
    const staged = state.stageQuantity(DOMAIN, edit.id, planLine.id, 2);
    expect(staged.stagedQuantities).toEqual({ [shirtLine.id]: 1, [planLine.id]: 2 });
    expect(state.order(DOMAIN, order.id)?.lineItems.map((line) => line.currentQuantity)).toEqual([
      3, 1,
    ]);
    expect(topics()).toEqual([]);

    const edited = state.commitEdit(DOMAIN, edit.id, {
      staffNote: "Customer asked",
      notifyCustomer: true,
    });
    expect(topics()).toEqual(["orders/edited", "orders/updated"]);
    const committed = edited.edits[0];
    expect(committed?.lineItemChanges).toEqual({
      additions: [{ id: planLine.id, delta: 1 }],
      removals: [{ id: shirtLine.id, delta: 2 }],
    });
    expect(committed).toMatchObject({ staffNote: "Customer asked", notifyCustomer: true });
    expect(edited.lineItems.map((line) => [line.quantity, line.currentQuantity])).toEqual([
      [3, 1],
      [1, 2],
    ]);
    expect(
      edited.fulfillmentOrders.map((fo) => [
        fo.status,
        fo.lines.map((line) => line.remainingQuantity),
      ]),
    ).toEqual([
      ["CLOSED", [0]],
      ["OPEN", [2]],
    ]);
    // Removed units can no longer be refunded; added ones can.
    expect(quantities(state, order.id, shirtLine.id).refundable).toBe(1);
    expect(quantities(state, order.id, planLine.id).refundable).toBe(2);
    expect(() =>
      state.refund(
        DOMAIN,
        order.id,
        { lines: [{ lineItemId: shirtLine.id, quantity: 2, restockType: "no_restock" }] },
        MERCHANT,
      ),
    ).toThrow(/only 1 can be refunded/);

    forget();
    expect(() => state.commitEdit(DOMAIN, edit.id, {})).toThrow(/already been committed/);
    expect(() => state.stageQuantity(DOMAIN, edit.id, planLine.id, 1)).toThrow(StoreUserError);
    expect(topics()).toEqual([]);
  });

  it("re-checks staged quantities on commit and refuses to edit a cancelled order", () => {
    const { state } = installedStore();
    const { order, shirtLine } = orderShirtsAndPlan(state);
    const edit = state.beginEdit(DOMAIN, order.id, MERCHANT);
    state.stageQuantity(DOMAIN, edit.id, shirtLine.id, 0);
    state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 1 }], MERCHANT);
    expect(() => state.commitEdit(DOMAIN, edit.id, {})).toThrow(/1 are fulfilled/);
    expect(state.order(DOMAIN, order.id)?.edits[0]?.committedAt).toBeNull();

    state.cancel(DOMAIN, order.id, {}, MERCHANT);
    expect(() => state.beginEdit(DOMAIN, order.id, MERCHANT)).toThrow(/cancelled/);
    expect(() => state.commitEdit(DOMAIN, edit.id, {})).toThrow(/cancelled/);
  });
});

describe("time", () => {
  it("moves updatedAt strictly forward on every change, even on a frozen or backward clock", () => {
    let now = new Date("2026-03-01T10:00:00.000Z");
    const { state } = installedStore({ now: () => now });
    const { order, shirtLine, planLine } = orderShirtsAndPlan(state);
    const stamps = [order.updatedAt];
    const record = (changed: Order) => stamps.push(changed.updatedAt);

    state.fulfil(DOMAIN, order.id, [{ lineItemId: shirtLine.id, quantity: 1 }], MERCHANT);
    record(state.order(DOMAIN, order.id) as Order);
    now = new Date("2026-03-01T09:00:00.000Z");
    state.refund(
      DOMAIN,
      order.id,
      { lines: [{ lineItemId: planLine.id, quantity: 1, restockType: "cancel" }] },
      MERCHANT,
    );
    record(state.order(DOMAIN, order.id) as Order);
    const edit = state.beginEdit(DOMAIN, order.id, MERCHANT);
    state.stageQuantity(DOMAIN, edit.id, shirtLine.id, 4);
    record(state.commitEdit(DOMAIN, edit.id, {}));
    record(state.cancel(DOMAIN, order.id, {}, MERCHANT));

    for (let index = 1; index < stamps.length; index += 1) {
      expect(Date.parse(stamps[index] ?? "")).toBeGreaterThan(Date.parse(stamps[index - 1] ?? ""));
    }
    expect(stamps[0]).toMatch(/^2026-03-01T10:00:00\.\d{3}Z$/);

    const orders = [
      state.createOrder(DOMAIN, { lineItems: [{ title: "A", price: 1, quantity: 1 }] }),
    ];
    orders.push(state.createOrder(DOMAIN, { lineItems: [{ title: "B", price: 1, quantity: 1 }] }));
    expect(orders[1]?.updatedAt).not.toBe(orders[0]?.updatedAt);
  });
});

describe("customers' privacy requests", () => {
  /** Two orders by Ada (one e-mail, any case), one by Grace, one by a guest without e-mail. */
  function storeWithCustomers() {
    const store = installedStore();
    const order = (email: string | undefined, firstName: string) =>
      store.state.createOrder(DOMAIN, {
        lineItems: [{ title: "Lamp", price: 1000, quantity: 1 }],
        customer: { ...(email === undefined ? {} : { email }), firstName, phone: "+1 555 0100" },
      });
    const adaFirst = order("ada@example.com", "Ada");
    const grace = order("grace@example.com", "Grace");
    const adaSecond = order("ADA@example.com", "Ada");
    const guest = order(undefined, "Guest");
    const ada = adaFirst.customer;
    if (!ada || !grace.customer || !guest.customer) throw new Error("An order lost its customer");
    store.forget();
    return { ...store, ada, adaOrders: [adaFirst.id, adaSecond.id], grace, guest };
  }

  function sentBody(webhooks: RecordedWebhook[], topic: WebhookTopic) {
    const webhook = webhooks.find((candidate) => candidate.topic === topic);
    if (!webhook) throw new Error(`No ${topic} was sent`);
    return parseWebhookJson(webhook.body.json) as Record<string, unknown>;
  }

  it("lists each customer once, by e-mail address, and a guest without one, oldest first", () => {
    const { state, ada, grace, guest } = storeWithCustomers();
    expect(state.customers(DOMAIN).map((customer) => customer.id)).toEqual([
      ada.id,
      grace.customer?.id,
      guest.customer?.id,
    ]);
    expect(state.customers("nowhere.myshopify.com")).toEqual([]);
  });

  it("sends customers/data_request with the customer's orders and a new request ID", () => {
    const { state, webhooks, topics, ada, adaOrders } = storeWithCustomers();
    const request = state.requestCustomerData(DOMAIN, ada.id);

    expect(request.orderIds).toEqual(adaOrders);
    expect(BigInt(request.id) > TWO_TO_THE_53).toBe(true);
    expect(topics()).toEqual(["customers/data_request"]);
    expect(sentBody(webhooks, "customers/data_request")).toEqual({
      shop_id: state.shop(DOMAIN)?.id,
      shop_domain: DOMAIN,
      customer: { id: ada.id, email: "ada@example.com", phone: "+1 555 0100" },
      orders_requested: adaOrders,
      data_request: { id: request.id },
    });
    expect(webhooks[0]?.body.subjectGid).toBe(`gid://shopify/Customer/${ada.id}`);
  });

  it("sends customers/redact with the orders to redact, and keeps the store's own copy", () => {
    const { state, webhooks, guest } = storeWithCustomers();
    const customerId = guest.customer?.id ?? "";
    const redaction = state.redactCustomer(DOMAIN, customerId);

    expect(redaction.orderIds).toEqual([guest.id]);
    expect(sentBody(webhooks, "customers/redact")).toEqual({
      shop_id: state.shop(DOMAIN)?.id,
      shop_domain: DOMAIN,
      customer: { id: customerId, email: null, phone: "+1 555 0100" },
      orders_to_redact: [guest.id],
    });
    expect(state.order(DOMAIN, guest.id)?.customer?.id).toBe(customerId);
  });

  it("refuses an unknown customer and sends nothing", () => {
    const { state, topics } = storeWithCustomers();
    expect(storeUserError(() => state.requestCustomerData(DOMAIN, "9007199254740000")).code).toBe(
      "NOT_FOUND",
    );
    expect(storeUserError(() => state.redactCustomer(DOMAIN, "9007199254740000")).code).toBe(
      "NOT_FOUND",
    );
    expect(topics()).toEqual([]);
  });

  it("still sends the compliance topics after the uninstall, and shop/redact only then", () => {
    const { state, webhooks, topics, forget, ada } = storeWithCustomers();
    expect(storeUserError(() => state.redactShop(DOMAIN)).message).toMatch(/still installed/);

    state.uninstall(DOMAIN);
    forget();
    state.requestCustomerData(DOMAIN, ada.id);
    state.redactCustomer(DOMAIN, ada.id);
    state.redactShop(DOMAIN);
    state.createOrder(DOMAIN, { lineItems: [{ title: "Lamp", price: 1000, quantity: 1 }] });

    expect(topics()).toEqual(["customers/data_request", "customers/redact", "shop/redact"]);
    expect(sentBody(webhooks, "shop/redact")).toEqual({
      shop_id: state.shop(DOMAIN)?.id,
      shop_domain: DOMAIN,
    });
  });

  it("sends an app nothing about a shop it never had, and refuses its shop/redact", () => {
    const webhooks: RecordedWebhook[] = [];
    const state = new StoreState({
      onWebhook: (shop, topic, body) => webhooks.push({ shop: shop.domain, topic, body }),
    });
    state.createShop({
      domain: DOMAIN,
      appUrl: "https://app.example.com",
      apiKey: "k",
      apiSecret: "s",
    });
    const order = state.createOrder(DOMAIN, {
      lineItems: [{ title: "Lamp", price: 1000, quantity: 1 }],
      customer: { email: "ada@example.com" },
    });
    state.requestCustomerData(DOMAIN, order.customer?.id ?? "");
    state.redactCustomer(DOMAIN, order.customer?.id ?? "");

    expect(storeUserError(() => state.redactShop(DOMAIN)).message).toMatch(/never installed/);
    expect(webhooks).toEqual([]);
  });
});

describe("scope changes", () => {
  it("sends app/scopes_update with the scopes before and after, and keeps the new ones", () => {
    const { state, webhooks, topics } = installedStore();
    const change = state.updateScopes(DOMAIN, [" read_orders", "write_orders", "read_products"]);

    expect(change).toMatchObject({
      previous: ["read_orders", "write_orders"],
      current: ["read_orders", "write_orders", "read_products"],
    });
    expect(state.shop(DOMAIN)?.installation?.scopes).toEqual(change.current);
    expect(topics()).toEqual(["app/scopes_update"]);
    expect(parseWebhookJson(webhooks[0]?.body.json ?? "")).toEqual({
      id: change.id,
      shop_id: `gid://shopify/Shop/${state.shop(DOMAIN)?.id}`,
      previous: ["read_orders", "write_orders"],
      current: ["read_orders", "write_orders", "read_products"],
      updated_at: change.updatedAt,
    });
  });

  it("refuses a change to the same scopes, in any order, and a shop without the app", () => {
    const { state, topics } = installedStore();
    expect(
      storeUserError(() => state.updateScopes(DOMAIN, ["write_orders", "read_orders"])).code,
    ).toBe("UNCHANGED");
    state.uninstall(DOMAIN);
    expect(storeUserError(() => state.updateScopes(DOMAIN, ["read_orders"])).code).toBe("INVALID");
    expect(topics()).toEqual(["app/uninstalled"]);
  });
});
