import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OWN_CARTS, readOwnCart } from "../../test/support/cart-fixtures";
import { repoRoot } from "../../test/support/test-env";
import { parseWebhookJson } from "../lib/json";
import { mapOrderWebhook } from "../orders";
import { MAX_CART_LINES, parseCartUpdateBody, toCartUpdateRequest } from "./cart";
import {
  SESSION,
  cartSample,
  parsedCartUpdate,
  refusedIssues,
  type CartJs,
} from "./storefront.test-support";

function mapped(cart: unknown) {
  return toCartUpdateRequest(parsedCartUpdate(cart));
}

const issuesOf = (body: unknown) => refusedIssues(parseCartUpdateBody(body));

/** A cart update request of the sample with the session ID the tests send. */
const requestOf = (cartId: string, currency: string, lines: object[]) => ({
  cart_id: cartId,
  user_session_id: SESSION,
  cart_currency: currency,
  line_items: lines,
});

type Product = [id: string, title: string, brand: string];

/** A request line: its cart key, quantity, unit price in minor units, and the product. */
const requestLine = (
  id: string,
  quantity: number,
  priceAmount: number,
  [productId, title, brand]: Product,
) => ({
  id,
  quantity,
  price_amount: priceAmount,
  product_id: productId,
  product_title: title,
  product_brand: brand,
});

describe("toCartUpdateRequest on Shopify's /cart.js samples", () => {
  it("maps Shopify's own sample (properties null, no final_price)", () => {
    expect(mapped(cartSample("populated"))).toEqual(
      requestOf("6475a6c35b7fd07fe832782fb341a83b", "cad", [
        requestLine("123456:123456", 1, 58000, ["38558517710", "Ratio Eight", "Ratio"]),
      ]),
    );
  });

  it("maps a real store's cart: the variant (not the line id) is the product, other properties are ignored", () => {
    const vegeBox: Product = [
      "31712538263610",
      "Small Vege - Seasonal Organic Box",
      "Spring Collective",
    ];
    const beetroot: Product = ["31792459677754", "Beetroot", "Spring Collective"];
    expect(mapped(cartSample("nzdWithProperties"))).toEqual(
      requestOf("86527ba54871eaa53a25decff4960a5f", "nzd", [
        requestLine("31712538263610:d37e019f4b8bb3936a85540e7153a36c", 1, 2500, vegeBox),
        requestLine("31792459776058:137d7a7d8f52f6542271f01123dcb58e", 2, 450, beetroot),
      ]),
    );
  });

  it("marks plan lines with their product_reference", () => {
    const request = mapped(cartSample("nzdPlansOutOfSync"));
    expect(request.line_items.slice(2)).toEqual([
      {
        id: "44590322893113:0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e",
        quantity: 1,
        price_amount: 599,
        product_id: "44590322893113",
        product_title: "2-year protection",
        product_brand: "svc",
        custom_properties: { product_reference: "31792459677754" },
      },
      {
        id: "44590322893114:9f8e7d6c5b4a39281706f5e4d3c2b1a0",
        quantity: 1,
        price_amount: 1299,
        product_id: "44590322893114",
        product_title: "3-year protection",
        product_brand: "svc",
        custom_properties: { product_reference: "39000000000001" },
      },
    ]);
    expect(request.line_items.slice(0, 2).map((line) => line.custom_properties)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it("converts yen from Shopify cents to whole yen (¥58,000 is 5800000 in /cart.js)", () => {
    const request = mapped(cartSample("jpyWithPlan"));
    expect(request.cart_currency).toBe("jpy");
    expect(request.line_items.map((line) => line.price_amount)).toEqual([58000, 4800]);
  });

  it("converts dinars from Shopify cents to fils (125.50 KWD is 12550 in /cart.js)", () => {
    const request = mapped(cartSample("kwdWithPlan"));
    expect(request.cart_currency).toBe("kwd");
    expect(request.line_items.map((line) => line.price_amount)).toEqual([125500, 12500]);
  });

  it("keeps euro cents as they are", () => {
    const cart = { ...cartSample("cadWithPlan"), currency: "EUR" };
    expect(mapped(cart).line_items.map((line) => line.price_amount)).toEqual([58000, 12999]);
  });
});

describe("details of the mapping", () => {
  function cartWith(items: CartJs["items"]) {
    return { ...cartSample("populated"), items };
  }
  const base = cartSample("populated").items[0]!;

  it("uses final_price when a line has no price, and title when it has no product_title", () => {
    const { price: _price, product_title: _title, ...rest } = base;
    const [line] = mapped(cartWith([{ ...rest, final_price: 51000 }])).line_items;
    expect(line).toMatchObject({
      price_amount: 51000,
      product_title: "Ratio Eight - Nickel / 110 Volts",
    });
  });

  it("keeps a variant ID above 2^53 exactly, as the lossless parser gives it", () => {
    const [line] = mapped(cartWith([{ ...base, variant_id: "9007199254740993" }])).line_items;
    expect(line?.product_id).toBe("9007199254740993");
  });

  it("writes a numeric reference in decimal and trims a text one", () => {
    const request = mapped(
      cartWith([
        { ...base, key: "a", properties: { _svc_protected_product_ref: 38558517710 } },
        { ...base, key: "b", properties: { _svc_protected_product_ref: " 38558517710 " } },
      ]),
    );
    expect(request.line_items.map((line) => line.custom_properties)).toEqual([
      { product_reference: "38558517710" },
      { product_reference: "38558517710" },
    ]);
  });

  it("leaves out a plan line whose reference is empty: the service could not link it", () => {
    const request = mapped(
      cartWith([base, { ...base, key: "plan", properties: { _svc_protected_product_ref: "" } }]),
    );
    expect(request.line_items.map((line) => line.id)).toEqual(["123456:123456"]);
  });

  it("maps a missing vendor to an empty brand", () => {
    const [line] = mapped(cartWith([{ ...base, vendor: null }])).line_items;
    expect(line?.product_brand).toBe("");
  });

  it("maps an empty cart", () => {
    expect(mapped(cartWith([])).line_items).toEqual([]);
  });
});

describe("parseCartUpdateBody refuses what it cannot map", () => {
  const cart = cartSample("cadWithPlan");
  const item = cart.items[0]!;
  const withCart = (patch: Record<string, unknown>) => ({
    user_session_id: SESSION,
    cart: { ...cart, ...patch },
  });
  const withItems = (items: unknown[]) => withCart({ items });

  it.each([
    ["a JSON array", [], "(body)", "must be a JSON object"],
    ["no cart", { user_session_id: SESSION }, "cart", "is required"],
    ["no session", { cart }, "user_session_id", "is required"],
    [
      "a session that is not a UUID",
      { user_session_id: "abc", cart },
      "user_session_id",
      "must be a UUID",
    ],
    ["items that are not a list", withCart({ items: {} }), "cart.items", "must be an array"],
    ["no token", withCart({ token: undefined }), "cart.token", "is required"],
    ["a bad currency", withCart({ currency: "E" }), "cart.currency", "must be a three-letter"],
    [
      "a line that is not an object",
      withItems(["x"]),
      "cart.items[0]",
      "must be a /cart.js line item object",
    ],
    ["a repeated line key", withItems([item, item]), "cart.items[1].key", "repeats the key"],
  ])("%s", (_name, body, path, message) => {
    expect(issuesOf(body)).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it.each([
    ["a quantity as text", { quantity: "2" }, "quantity", "must be a number"],
    ["a negative quantity", { quantity: -1 }, "quantity", "must not be negative"],
    ["a fractional quantity", { quantity: 1.5 }, "quantity", "must be a whole number"],
    [
      "a variant that is not an ID",
      { variant_id: "abc" },
      "variant_id",
      "must be a Shopify numeric ID",
    ],
    ["no key", { key: undefined }, "key", "is required"],
    [
      "no price at all",
      { price: undefined, final_price: undefined },
      "price",
      "is required (or final_price)",
    ],
    ["a fractional price", { price: 12.5 }, "price", "must be a whole number of cents"],
    ["properties that are text", { properties: "x" }, "properties", "must be an object or null"],
  ])("a line with %s", (_name, patch, field, message) => {
    expect(issuesOf(withItems([{ ...item, ...patch }]))).toContainEqual({
      path: `cart.items[0].${field}`,
      message: expect.stringContaining(message),
    });
  });

  it("refuses a yen price that is not whole yen", () => {
    const jpy = cartSample("jpyWithPlan");
    const items = [{ ...jpy.items[0], price: 5800050 }];
    expect(issuesOf({ user_session_id: SESSION, cart: { ...jpy, items } })).toEqual([
      {
        path: "cart.items[0].price",
        message: "must be a whole number of JPY minor units in Shopify cents (amount × 100)",
      },
    ]);
  });

  it(`refuses more than ${MAX_CART_LINES} lines`, () => {
    const items = Array.from({ length: MAX_CART_LINES + 1 }, (_, index) => ({
      ...item,
      key: `line-${index}`,
    }));
    expect(issuesOf(withItems(items))).toEqual([
      { path: "cart.items", message: `must have at most ${MAX_CART_LINES} lines` },
    ]);
    expect(parseCartUpdateBody(withItems(items.slice(1))).ok).toBe(true);
  });
});

describe("the cart ID of a current /cart.js token (decision 033)", () => {
  it("is the order's cart_token, the same in /cart_updates and the checkout confirmation, never the key", () => {
    // The same cart as /cart.js gives it (`<token>?key=<secret>`) and as its order has it.
    const cart = readOwnCart(OWN_CARTS.nzdModernToken);
    expect(cart.token).toContain("?key=");
    const session = String((cart.attributes as Record<string, unknown>)._svc_user_session_id);
    const reported = toCartUpdateRequest(parsedCartUpdate(cart, session));
    expect(reported.cart_id).toBe("Z2NwLWV1cm9wZS13ZXN0MzowMUpXVjNEMks2Vzc0TTg0NERZTVdTMEZXVg");

    const orderText = readFileSync(
      path.join(repoRoot, "test/fixtures/orders/orders-create-eur-with-session.json"),
      "utf8",
    );
    const order = parseWebhookJson(orderText) as Record<string, unknown>;
    const mapped = mapOrderWebhook("orders/create", order, { reportOrdersWithoutPlan: true });
    if (mapped.kind !== "events") throw new Error(JSON.stringify(mapped));
    const [placed, confirmation] = mapped.events.map((derived) => derived.event);
    expect(confirmation).toEqual({
      type: "cart_checkout",
      payload: {
        cart_id: reported.cart_id,
        user_session_id: reported.user_session_id,
        order_id: "6709529444685",
      },
    });
    expect(placed?.type === "order_placed" && placed.payload.cart_id).toBe(reported.cart_id);
  });
});
