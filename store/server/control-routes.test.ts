import { beforeEach, describe, expect, it } from "vitest";
import { parseWebhookJson } from "../../app/lib/json";
import { API_KEY, SHOP, withTestStore } from "./test-support";

const client = withTestStore();
const APP_URL = "http://127.0.0.1:9";

interface OrderBody {
  admin_graphql_api_id: string;
  currency: string;
  total_price: string;
  line_items: { admin_graphql_api_id: string; price: string; quantity: number }[];
  refunds: unknown[];
  fulfillments: unknown[];
  edits: { order_edit: unknown }[];
  cancelled_at: string | null;
}

function digitsOf(gid: string): string {
  return gid.replace(/^gid:\/\/shopify\/\w+\//, "");
}

async function createOrder(
  lineItems: unknown[] = [
    { title: "Oak dining chair", price: "89.50", quantity: 2 },
    {
      title: "Linen cushion",
      price: "19.99",
      quantity: 1,
      properties: [{ name: "Colour", value: "Sand" }],
    },
  ],
): Promise<OrderBody> {
  const answer = await client.control<OrderBody>(`shops/${SHOP}/orders`, { line_items: lineItems });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

beforeEach(async () => {
  await client.createShop(APP_URL);
});

describe("POST /__store/shops", () => {
  it("creates a shop with its currency and answers it without the secret", async () => {
    const answer = await client.control<Record<string, unknown>>("shops", {
      shop: "kyoto-tea.myshopify.com",
      app_url: APP_URL,
      api_key: API_KEY,
      api_secret: "secret",
      currency: "JPY",
    });

    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      shop: "kyoto-tea.myshopify.com",
      currency: "JPY",
      app_url: APP_URL,
      api_key: API_KEY,
      installed: false,
      scopes: [],
    });
    expect(answer.text).not.toContain("secret");
    expect((await client.control("shops/kyoto-tea.myshopify.com")).status).toBe(200);
  });

  it("names every bad field, and answers a duplicate shop with 422", async () => {
    const answer = await client.control("shops", {
      shop: "Not A Domain",
      app_url: "localhost:3000",
      api_key: "",
      currency: "euro",
      colour: "blue",
    });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: "invalid_request",
      message: expect.stringContaining("shop must be a myshopify domain"),
      problems: [
        { field: "shop", message: "must be a myshopify domain such as demo.myshopify.com" },
        { field: "app_url", message: "must be an http:// or https:// URL" },
        { field: "api_key", message: "must not be empty" },
        { field: "api_secret", message: "is required" },
        { field: "currency", message: "must be a three-letter ISO 4217 code such as EUR" },
        { field: "colour", message: "is not a known field" },
      ],
    });

    const duplicate = await client.control("shops", {
      shop: SHOP,
      app_url: APP_URL,
      api_key: API_KEY,
      api_secret: "x",
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body).toMatchObject({ error: "user_error" });
  });

  it("answers malformed JSON with 400 naming the body", async () => {
    const answer = await client.request("/__store/shops", { rawBody: "{not json" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      problems: [{ field: "body", message: "is not valid JSON" }],
    });
  });
});

describe("orders through the control API", () => {
  it("creates a paid order from decimal prices and answers it as orders/create carries it", async () => {
    const order = await createOrder();

    expect(order.currency).toBe("EUR");
    expect(order.total_price).toBe("198.99");
    expect(order.line_items.map((line) => [line.price, line.quantity])).toEqual([
      ["89.50", 2],
      ["19.99", 1],
    ]);
  });

  it("writes IDs above 2^53 as exact JSON numbers", async () => {
    const answer = await client.control(`shops/${SHOP}/orders`, {
      line_items: [{ title: "Lamp", price: "10.00", quantity: 1 }],
    });
    const exact = parseWebhookJson(answer.text) as { id: string; admin_graphql_api_id: string };
    expect(String(exact.id)).toBe(digitsOf(exact.admin_graphql_api_id));
    expect(BigInt(String(exact.id)) > 2n ** 53n).toBe(true);
  });

  it("takes amounts in the shop's currency decimals", async () => {
    await client.control("shops", {
      shop: "kuwait-gold.myshopify.com",
      app_url: APP_URL,
      api_key: API_KEY,
      api_secret: "x",
      currency: "KWD",
    });
    const kwd = await client.control<OrderBody>("shops/kuwait-gold.myshopify.com/orders", {
      line_items: [{ title: "Ring", price: "12.345", quantity: 1 }],
    });
    expect(kwd.status).toBe(201);
    expect(kwd.body.total_price).toBe("12.345");

    const tooPrecise = await client.control(`shops/${SHOP}/orders`, {
      line_items: [{ title: "Ring", price: "12.345", quantity: 1 }],
    });
    expect(tooPrecise.status).toBe(400);
    expect(tooPrecise.body).toMatchObject({
      problems: [{ field: "line_items[0].price", message: "must have at most 2 decimals in EUR" }],
    });
  });

  it("names each bad line item field", async () => {
    const answer = await client.control(`shops/${SHOP}/orders`, {
      line_items: [
        { title: "Chair", price: 89.5, quantity: 1 },
        { quantity: 0 },
        { variant_id: 4432017, quantity: 1.5 },
      ],
    });

    expect(answer.status).toBe(400);
    expect((answer.body as { problems: unknown[] }).problems).toEqual([
      { field: "line_items[0].price", message: 'must be a decimal string such as "19.99"' },
      { field: "line_items[1].quantity", message: "must be at least 1" },
      { field: "line_items[1].variant_id", message: "or title is required" },
      {
        field: "line_items[1].price",
        message: "is required for a custom line item (one without variant_id)",
      },
      {
        field: "line_items[2].variant_id",
        message:
          'must be a numeric ID as a string, such as "9007199254740993", or a gid://shopify/… ID',
      },
      { field: "line_items[2].quantity", message: "must be a whole number" },
    ]);
    const empty = await client.control(`shops/${SHOP}/orders`, { line_items: [] });
    expect(empty.body).toMatchObject({
      problems: [{ field: "line_items", message: "must have at least 1 entry" }],
    });
  });

  it("answers 404 for an unknown shop or order and 400 for an ID that is not one", async () => {
    const order = await createOrder();

    expect(
      (await client.control("shops/nowhere.myshopify.com/orders", { line_items: [] })).status,
    ).toBe(404);
    expect((await client.control(`shops/${SHOP}/orders/9007199254740000`)).status).toBe(404);
    expect((await client.control(`shops/${SHOP}/orders/latest`)).status).toBe(400);
    expect(
      (await client.control(`shops/${SHOP}/orders/${digitsOf(order.admin_graphql_api_id)}`)).status,
    ).toBe(200);
  });

  it("updates a shipment's tracking and status as fulfillments/update carries it", async () => {
    const order = await createOrder();
    const orderPath = `shops/${SHOP}/orders/${encodeURIComponent(order.admin_graphql_api_id)}`;
    const chair = order.line_items[0]!.admin_graphql_api_id;
    const shipped = await client.control<{ admin_graphql_api_id: string }>(
      `${orderPath}/fulfillments`,
      { line_items: [{ id: chair, quantity: 1 }] },
    );
    const fulfillmentPath = `${orderPath}/fulfillments/${encodeURIComponent(shipped.body.admin_graphql_api_id)}`;

    const delivered = await client.control<Record<string, unknown>>(fulfillmentPath, {
      tracking_info: { company: "UPS", number: "1Z999AA10123456784" },
      shipment_status: "delivered",
    });
    expect(delivered.status, delivered.text).toBe(200);
    expect(delivered.body).toMatchObject({
      admin_graphql_api_id: shipped.body.admin_graphql_api_id,
      shipment_status: "delivered",
      tracking_company: "UPS",
      tracking_numbers: ["1Z999AA10123456784"],
    });

    const empty = await client.control<{ message: string }>(fulfillmentPath, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("needs tracking_info or shipment_status");
    const unknownStatus = await client.control(fulfillmentPath, { shipment_status: "teleported" });
    expect(unknownStatus.status).toBe(400);
    const unknown = await client.control(`${orderPath}/fulfillments/123`, {
      shipment_status: "delivered",
    });
    expect(unknown.status).toBe(422);
  });

  it("fulfils, refunds and edits as the admin would, and shows it all on the order", async () => {
    const order = await createOrder();
    const orderPath = `shops/${SHOP}/orders/${encodeURIComponent(order.admin_graphql_api_id)}`;
    const [chair, cushion] = order.line_items.map((line) => line.admin_graphql_api_id);

    const fulfilment = await client.control<{ line_items: { quantity: number }[]; status: string }>(
      `${orderPath}/fulfillments`,
      {
        line_items: [{ id: chair, quantity: 2 }],
        tracking_info: { company: "DHL", number: "JD014600" },
      },
    );
    expect(fulfilment.status, fulfilment.text).toBe(201);
    expect(fulfilment.body.line_items.map((line) => line.quantity)).toEqual([2]);

    const refund = await client.control<{
      refund_line_items: { quantity: number; restock_type: string }[];
    }>(`${orderPath}/refunds`, {
      refund_line_items: [{ line_item_id: cushion, quantity: 1, restock_type: "cancel" }],
      note: "Damaged",
    });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body.refund_line_items.map((line) => [line.quantity, line.restock_type])).toEqual(
      [[1, "cancel"]],
    );

    const overRefund = await client.control(`${orderPath}/refunds`, {
      refund_line_items: [{ line_item_id: cushion, quantity: 1 }],
    });
    expect(overRefund.status).toBe(422);
    expect(overRefund.body).toMatchObject({ error: "user_error", message: expect.any(String) });

    const edit = await client.control<{ order_edit: unknown }>(`${orderPath}/edits`, {
      set_quantities: [{ line_item_id: chair, quantity: 3 }],
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toHaveProperty("order_edit");

    const shown = await client.control<OrderBody>(orderPath);
    expect(shown.status).toBe(200);
    expect(shown.body.fulfillments).toHaveLength(1);
    expect(shown.body.refunds).toHaveLength(1);
    expect(shown.body.edits).toHaveLength(1);
    expect(shown.body.edits[0]).toHaveProperty("order_edit");
  });

  it("cancels with a refund, and refuses a second cancel", async () => {
    const order = await createOrder();
    const orderPath = `shops/${SHOP}/orders/${digitsOf(order.admin_graphql_api_id)}`;

    const cancelled = await client.control<OrderBody>(`${orderPath}/cancel`, {
      reason: "customer",
      refund: true,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.cancelled_at).not.toBeNull();
    expect(cancelled.body.refunds).toHaveLength(1);

    expect((await client.control(`${orderPath}/cancel`, {})).status).toBe(422);
    expect(await client.control(`${orderPath}/cancel`, { reason: "bored" })).toMatchObject({
      status: 400,
      body: {
        problems: [
          {
            field: "reason",
            message: "must be one of customer, declined, fraud, inventory, other, staff",
          },
        ],
      },
    });
  });

  it("checks fulfilment, refund and edit bodies", async () => {
    const order = await createOrder();
    const orderPath = `shops/${SHOP}/orders/${digitsOf(order.admin_graphql_api_id)}`;

    expect(
      (await client.control(`${orderPath}/fulfillments`, { line_items: [] })).body,
    ).toMatchObject({
      problems: [{ field: "line_items", message: "must have at least 1 entry" }],
    });
    expect(
      (
        await client.control(`${orderPath}/refunds`, {
          refund_line_items: [{ line_item_id: "1", quantity: 1, restock_type: "later" }],
        })
      ).body,
    ).toMatchObject({
      problems: [
        {
          field: "refund_line_items[0].restock_type",
          message: "must be one of no_restock, cancel, return, legacy_restock",
        },
      ],
    });
    expect((await client.control(`${orderPath}/edits`, {})).body).toMatchObject({
      problems: [{ field: "set_quantities", message: "is required" }],
    });
  });
});

describe("shops, products, throttle and reset", () => {
  it("lists products with their status, prices and publications", async () => {
    const { state } = client.store;
    const product = state.setProduct(
      SHOP,
      {
        title: "2-year protection",
        status: "UNLISTED",
        variants: [{ title: "Default Title", price: 1299, sku: "SVC-2Y" }],
      },
      { kind: "merchant" },
    );
    const onlineStore = state.shop(SHOP)?.onlineStorePublicationId ?? "";
    state.publish(SHOP, product.id, [onlineStore], { kind: "merchant" });

    const answer = await client.control<{ products: Record<string, unknown>[] }>(
      `shops/${SHOP}/products`,
    );

    expect(answer.status).toBe(200);
    expect(answer.body.products).toEqual([
      expect.objectContaining({
        id: product.id,
        admin_graphql_api_id: `gid://shopify/Product/${product.id}`,
        title: "2-year protection",
        status: "UNLISTED",
        publications: [{ id: onlineStore, name: expect.any(String) }],
        variants: [
          expect.objectContaining({ title: "Default Title", price: "12.99", sku: "SVC-2Y" }),
        ],
      }),
    ]);
  });

  it("adds a product as the merchant would, published to the Online Store unless told", async () => {
    const added = await client.control<Record<string, unknown>>(`shops/${SHOP}/products`, {
      title: "Noise-cancelling headphones",
      variants: [
        { title: "Black", price: "249.00", sku: "NC-B" },
        { title: "White", price: "259.50" },
      ],
    });
    expect(added.status, added.text).toBe(201);
    const onlineStore = client.store.state.shop(SHOP)?.onlineStorePublicationId;
    expect(added.body).toMatchObject({
      title: "Noise-cancelling headphones",
      status: "ACTIVE",
      publications: [{ id: onlineStore }],
      variants: [
        { title: "Black", price: "249.00", sku: "NC-B" },
        { title: "White", price: "259.50" },
      ],
    });

    const draft = await client.control<Record<string, unknown>>(`shops/${SHOP}/products`, {
      title: "Prototype",
      status: "DRAFT",
      published: false,
      variants: [{ title: "Default Title", price: "1.00" }],
    });
    expect(draft.body).toMatchObject({ status: "DRAFT", publications: [] });

    const untitled = await client.control<{ message: string }>(`shops/${SHOP}/products`, {
      title: " ",
      variants: [{ title: "Default Title", price: "1.00" }],
    });
    expect(untitled.status).toBe(400);
    expect(untitled.body.message).toContain("title is required");
    const overPrecise = await client.control<{ message: string }>(`shops/${SHOP}/products`, {
      title: "Cable",
      variants: [{ title: "Default Title", price: "1.999" }],
    });
    expect(overPrecise.status).toBe(400);
    expect(overPrecise.body.message).toBe("variants[0].price must have at most 2 decimals in EUR");
  });

  it("empties the throttle bucket, only to 0, and the next query is throttled", async () => {
    expect(await client.control(`shops/${SHOP}/throttle`, { available: 5 })).toMatchObject({
      status: 400,
      body: {
        problems: [
          { field: "available", message: "must be 0: the store can only empty the bucket" },
        ],
      },
    });
    client.store.state.install(SHOP, ["read_products"]);
    const query = () =>
      client.request<{ errors?: { extensions: { code: string } }[] }>(
        `/shops/${SHOP}/admin/api/2026-10/graphql.json`,
        {
          // About 250 points: 2.5 s of restore, so a slow machine cannot refill it in between.
          body: { query: "query ShopName { shop { name } products(first: 250) { nodes { id } } }" },
          headers: {
            "X-Shopify-Access-Token":
              client.store.state.shop(SHOP)?.installation?.offlineAccessToken ?? "",
          },
        },
      );
    expect((await query()).body.errors).toBeUndefined();

    expect(await client.control(`shops/${SHOP}/throttle`, { available: 0 })).toMatchObject({
      status: 200,
      body: { shop: SHOP, available: 0 },
    });
    expect((await query()).body.errors?.[0]?.extensions.code).toBe("THROTTLED");
    const logged = await client.control<{ requests: { operation_name: string; status: number }[] }>(
      "graphql",
    );
    expect(logged.body.requests.map((entry) => entry.operation_name)).toEqual([
      "ShopName",
      "ShopName",
    ]);
  });

  it("forgets everything on reset", async () => {
    await createOrder();
    expect((await client.control("reset", {})).status).toBe(204);
    expect((await client.control(`shops/${SHOP}`)).status).toBe(404);
    expect((await client.control<{ deliveries: unknown[] }>("webhooks")).body.deliveries).toEqual(
      [],
    );
    expect((await client.control<{ requests: unknown[] }>("graphql")).body.requests).toEqual([]);
  });

  it("refuses to uninstall an app that is not installed", async () => {
    expect(await client.control(`shops/${SHOP}/uninstall`, {})).toMatchObject({
      status: 422,
      body: { error: "user_error" },
    });
  });
});

describe("privacy requests and scope changes", () => {
  interface CustomerOrder {
    admin_graphql_api_id: string;
    customer: { admin_graphql_api_id: string };
  }

  /** An order by Ada; answers her customer GID and the order's ID. */
  async function orderWithCustomer(): Promise<{ customerGid: string; orderId: string }> {
    const answer = await client.control<CustomerOrder>(`shops/${SHOP}/orders`, {
      line_items: [{ title: "Lamp", price: "10.00", quantity: 1 }],
      customer: { email: "ada@example.com", first_name: "Ada", phone: "+44 20 7946 0958" },
    });
    expect(answer.status, answer.text).toBe(201);
    return {
      customerGid: answer.body.customer.admin_graphql_api_id,
      orderId: digitsOf(answer.body.admin_graphql_api_id),
    };
  }

  it("answers a data request and a redaction as their webhooks carry them, IDs exact", async () => {
    const { customerGid, orderId } = await orderWithCustomer();
    const customerPath = `shops/${SHOP}/customers/${encodeURIComponent(customerGid)}`;

    const requested = await client.control(`${customerPath}/data_request`, {});
    expect(requested.status, requested.text).toBe(200);
    const request = parseWebhookJson(requested.text) as {
      shop_domain: string;
      customer: { id: string; email: string };
      orders_requested: string[];
      data_request: { id: string };
    };
    expect(request).toMatchObject({
      shop_domain: SHOP,
      customer: { id: digitsOf(customerGid), email: "ada@example.com" },
      orders_requested: [orderId],
    });
    expect(BigInt(request.data_request.id) > 2n ** 53n).toBe(true);

    // No body at all is as good as {}.
    const redacted = await client.control(
      `shops/${SHOP}/customers/${digitsOf(customerGid)}/redact`,
      undefined,
      "POST",
    );
    expect(redacted.status, redacted.text).toBe(200);
    expect(parseWebhookJson(redacted.text)).toMatchObject({ orders_to_redact: [orderId] });
  });

  it("answers 404 for an unknown customer, 400 for an ID that is not one or a field it does not take", async () => {
    const { customerGid } = await orderWithCustomer();
    expect(
      (await client.control(`shops/${SHOP}/customers/9007199254740000/redact`, {})).status,
    ).toBe(404);
    expect((await client.control(`shops/${SHOP}/customers/ada/data_request`, {})).status).toBe(400);
    expect(
      (
        await client.control(`shops/${SHOP}/customers/${digitsOf(customerGid)}/redact`, {
          reason: "asked",
        })
      ).body,
    ).toMatchObject({ problems: [{ field: "reason", message: "is not a known field" }] });
  });

  it("redacts the shop only after the app is uninstalled", async () => {
    expect(await client.control(`shops/${SHOP}/redact`, {})).toMatchObject({
      status: 422,
      body: { error: "user_error", message: expect.stringContaining("never installed") },
    });
    client.store.state.install(SHOP, ["read_orders"]);
    expect(await client.control(`shops/${SHOP}/redact`, {})).toMatchObject({
      status: 422,
      body: { error: "user_error", message: expect.stringContaining("still installed") },
    });
    expect((await client.control(`shops/${SHOP}/uninstall`, {})).status).toBe(200);

    const redacted = await client.control(`shops/${SHOP}/redact`, {});
    expect(redacted.status, redacted.text).toBe(200);
    expect(parseWebhookJson(redacted.text)).toEqual({
      shop_id: client.store.state.shop(SHOP)?.id,
      shop_domain: SHOP,
    });
  });

  it("changes the installed app's scopes, answering them as app/scopes_update carries them", async () => {
    expect(await client.control(`shops/${SHOP}/scopes`, { scopes: ["read_orders"] })).toMatchObject(
      { status: 422, body: { error: "user_error" } },
    );
    client.store.state.install(SHOP, ["read_orders"]);

    const changed = await client.control<Record<string, unknown>>(`shops/${SHOP}/scopes`, {
      scopes: ["read_orders", "read_products"],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      previous: ["read_orders"],
      current: ["read_orders", "read_products"],
    });
    expect((await client.control(`shops/${SHOP}`)).body).toMatchObject({
      scopes: ["read_orders", "read_products"],
    });
    expect(
      await client.control(`shops/${SHOP}/scopes`, { scopes: ["read_products", "read_orders"] }),
    ).toMatchObject({ status: 422, body: { code: "UNCHANGED" } });
  });

  it("checks the scopes body", async () => {
    expect((await client.control(`shops/${SHOP}/scopes`, {})).body).toMatchObject({
      problems: [{ field: "scopes", message: "is required" }],
    });
    expect(
      (await client.control(`shops/${SHOP}/scopes`, { scopes: ["read_orders,write_orders", 7] }))
        .body,
    ).toMatchObject({
      problems: [
        { field: "scopes[0]", message: "must be an access scope such as read_orders" },
        { field: "scopes[1]", message: "must be an access scope such as read_orders" },
      ],
    });
  });
});
