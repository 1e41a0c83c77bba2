import { describe, expect, it } from "vitest";
import {
  OWN_CARTS,
  readOwnCart,
  readSharedCart,
  SHARED_CARTS,
  type CartJs,
} from "../../test/support/cart-fixtures";
import {
  MAX_CART_LINES,
  parseCartUpdateBody,
  toCartUpdateRequest,
  type CartUpdateBody,
} from "./cart";

const SESSION = "3f9a6c1e-8b2d-4e7a-9c5f-1d2e3b4a5c6d";

function parsed(cart: unknown): CartUpdateBody {
  const result = parseCartUpdateBody({ user_session_id: SESSION, cart });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function mapped(cart: unknown) {
  return toCartUpdateRequest(parsed(cart));
}

function issuesOf(body: unknown) {
  const result = parseCartUpdateBody(body);
  if (result.ok) throw new Error("expected the body to be refused");
  return result.issues;
}

describe("toCartUpdateRequest on Shopify's /cart.js samples", () => {
  it("maps Shopify's own sample (properties null, no final_price)", () => {
    expect(mapped(readSharedCart(SHARED_CARTS.populated))).toEqual({
      cart_id: "6475a6c35b7fd07fe832782fb341a83b",
      user_session_id: SESSION,
      cart_currency: "cad",
      line_items: [
        {
          id: "123456:123456",
          quantity: 1,
          price_amount: 58000,
          product_id: "38558517710",
          product_title: "Ratio Eight",
          product_brand: "Ratio",
        },
      ],
    });
  });

  it("maps a real store's cart: the variant (not the line id) is the product, other properties are ignored", () => {
    expect(mapped(readSharedCart(SHARED_CARTS.nzdWithProperties))).toEqual({
      cart_id: "86527ba54871eaa53a25decff4960a5f",
      user_session_id: SESSION,
      cart_currency: "nzd",
      line_items: [
        {
          id: "31712538263610:d37e019f4b8bb3936a85540e7153a36c",
          quantity: 1,
          price_amount: 2500,
          product_id: "31712538263610",
          product_title: "Small Vege - Seasonal Organic Box",
          product_brand: "Spring Collective",
        },
        {
          id: "31792459776058:137d7a7d8f52f6542271f01123dcb58e",
          quantity: 2,
          price_amount: 450,
          product_id: "31792459677754",
          product_title: "Beetroot",
          product_brand: "Spring Collective",
        },
      ],
    });
  });

  it("marks plan lines with their product_reference", () => {
    const request = mapped(readOwnCart(OWN_CARTS.nzdPlansOutOfSync));
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
    const request = mapped(readOwnCart(OWN_CARTS.jpyWithPlan));
    expect(request.cart_currency).toBe("jpy");
    expect(request.line_items.map((line) => line.price_amount)).toEqual([58000, 4800]);
  });

  it("converts dinars from Shopify cents to fils (125.50 KWD is 12550 in /cart.js)", () => {
    const request = mapped(readOwnCart(OWN_CARTS.kwdWithPlan));
    expect(request.cart_currency).toBe("kwd");
    expect(request.line_items.map((line) => line.price_amount)).toEqual([125500, 12500]);
  });

  it("keeps euro cents as they are", () => {
    const cart = { ...readOwnCart(OWN_CARTS.cadWithPlan), currency: "EUR" };
    expect(mapped(cart).line_items.map((line) => line.price_amount)).toEqual([58000, 12999]);
  });
});

describe("details of the mapping", () => {
  function cartWith(items: CartJs["items"]) {
    return { ...readSharedCart(SHARED_CARTS.populated), items };
  }
  const base = readSharedCart(SHARED_CARTS.populated).items[0]!;

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
  const cart = readOwnCart(OWN_CARTS.cadWithPlan);
  const item = cart.items[0]!;
  const withItems = (items: unknown[]) => ({
    user_session_id: SESSION,
    cart: { ...cart, items },
  });

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
    [
      "items that are not a list",
      { user_session_id: SESSION, cart: { ...cart, items: {} } },
      "cart.items",
      "must be an array",
    ],
    [
      "no token",
      { user_session_id: SESSION, cart: { ...cart, token: undefined } },
      "cart.token",
      "is required",
    ],
    [
      "a bad currency",
      { user_session_id: SESSION, cart: { ...cart, currency: "E" } },
      "cart.currency",
      "must be a three-letter",
    ],
    [
      "a quantity as text",
      withItems([{ ...item, quantity: "2" }]),
      "cart.items[0].quantity",
      "must be a number",
    ],
    [
      "a negative quantity",
      withItems([{ ...item, quantity: -1 }]),
      "cart.items[0].quantity",
      "must not be negative",
    ],
    [
      "a fractional quantity",
      withItems([{ ...item, quantity: 1.5 }]),
      "cart.items[0].quantity",
      "must be a whole number",
    ],
    [
      "a variant that is not an ID",
      withItems([{ ...item, variant_id: "abc" }]),
      "cart.items[0].variant_id",
      "must be a Shopify numeric ID",
    ],
    ["no key", withItems([{ ...item, key: undefined }]), "cart.items[0].key", "is required"],
    [
      "no price at all",
      withItems([{ ...item, price: undefined, final_price: undefined }]),
      "cart.items[0].price",
      "is required (or final_price)",
    ],
    [
      "a fractional price",
      withItems([{ ...item, price: 12.5 }]),
      "cart.items[0].price",
      "must be a whole number of cents",
    ],
    [
      "properties that are text",
      withItems([{ ...item, properties: "x" }]),
      "cart.items[0].properties",
      "must be an object or null",
    ],
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

  it("refuses a yen price that is not whole yen", () => {
    const jpy = readOwnCart(OWN_CARTS.jpyWithPlan);
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
