import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  Cart,
  CartError,
  StoreCarts,
  itemsToAdd,
  lineKey,
  nestFormFields,
  parseJsonKeepingIds,
  readCartParams,
  storeCatalogue,
} from "./cart";
import { shopifyFixturesDir } from "../../test/support/test-env";
import { testShop, variantIdOf } from "./test-shop.test-support";

const fixturesDir = path.join(shopifyFixturesDir, "cart_js");
const readFixture = (file: string) =>
  JSON.parse(readFileSync(path.join(fixturesDir, file), "utf8")) as Record<string, unknown>;

/** A value's JSON type, with null apart. */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

function cartOf(fixture = testShop()) {
  return { ...fixture, cart: new Cart(storeCatalogue(fixture.state, fixture.shop.domain)) };
}

describe("Cart JSON in the shape of Shopify's /cart.js", () => {
  // A real answer from a live store, with line properties and every field of today's /cart.js.
  const real = readFixture("real-nzd-properties_cousinsd-theme-first.json");
  const realItem = (real.items as Record<string, unknown>[])[0] as Record<string, unknown>;

  it("has the real cart's keys, each with the real cart's JSON type", () => {
    const { cart, laptop } = cartOf();
    cart.add([{ id: variantIdOf(laptop), quantity: 1, properties: { Engraving: "Ada" } }]);
    const json = cart.toJSON() as unknown as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(Object.keys(real).sort());
    for (const [key, value] of Object.entries(real)) {
      expect({ key, type: typeOf(json[key]) }).toEqual({ key, type: typeOf(value) });
    }
  });

  it("writes each line with the real line's keys and types (the store has no images)", () => {
    // The real line is a product without options, with properties: so is the towel here.
    const { cart, towel } = cartOf();
    cart.add([{ id: variantIdOf(towel), properties: { Engraving: "Ada" } }]);
    const item = cart.toJSON().items[0] as unknown as Record<string, unknown>;
    expect(Object.keys(item).sort()).toEqual(Object.keys(realItem).sort());
    const imageFields = new Set(["featured_image", "image"]);
    for (const [key, value] of Object.entries(realItem)) {
      if (imageFields.has(key)) continue;
      expect({ key, type: typeOf(item[key]) }).toEqual({ key, type: typeOf(value) });
    }
    // An image-less product: the image fields are there, empty.
    expect(Object.keys(item.featured_image as object).sort()).toEqual(
      Object.keys(realItem.featured_image as object).sort(),
    );
    expect(item.image).toBeNull();
  });

  it("fills a line from the store's variant: prices in minor units, titles, options, URL", () => {
    const { cart, laptop, shop } = cartOf();
    const id = variantIdOf(laptop, 1);
    cart.add([{ id, quantity: 3 }]);
    const json = cart.toJSON();
    const item = json.items[0];
    expect(item).toMatchObject({
      quantity: 3,
      title: "Aurora 14 Laptop - 8 GB",
      product_title: "Aurora 14 Laptop",
      variant_title: "8 GB",
      price: 89900,
      final_price: 89900,
      line_price: 269700,
      final_line_price: 269700,
      sku: "AUR-8",
      vendor: "Nimbus",
      product_type: "Laptops",
      handle: "aurora-14-laptop",
      url: `/products/aurora-14-laptop?variant=${id}`,
      requires_shipping: true,
      properties: {},
      options_with_values: [{ name: "Memory", value: "8 GB" }],
      variant_options: ["8 GB"],
      product_has_only_default_variant: false,
    });
    expect(json).toMatchObject({
      item_count: 3,
      total_price: 269700,
      original_total_price: 269700,
      items_subtotal_price: 269700,
      currency: shop.currency,
      requires_shipping: true,
      note: null,
      attributes: {},
    });
    // As current Shopify: the cart's token, then its key; an order's cart_token is the first part.
    expect(json.token).toMatch(/^[0-9a-f]{32}\?key=[0-9a-f]{32}$/);
  });

  it("writes IDs past 2^53 with every digit in its text, and keeps them in keys", () => {
    const { cart, towel } = cartOf();
    const id = variantIdOf(towel);
    expect(BigInt(id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    cart.add([{ id }]);
    expect(cart.jsonText()).toContain(`"variant_id":${id},`);
    expect(cart.jsonText()).toContain(`"product_id":${towel.id},`);
    expect(cart.toJSON().items[0]?.key.split(":")[0]).toBe(id);
    expect(cart.toJSON().items[0]?.title).toBe("Linen Tea Towel");
    expect(cart.toJSON().items[0]?.variant_title).toBeNull();
    expect(cart.toJSON().items[0]?.product_has_only_default_variant).toBe(true);
  });

  it("has the shop's currency", () => {
    const { cart, towel } = cartOf(testShop({ currency: "JPY" }));
    cart.add([{ id: variantIdOf(towel) }]);
    expect(cart.toJSON().currency).toBe("JPY");
  });
});

describe("Adding", () => {
  it("merges lines by variant and properties, and keys them <variant>:<hash of properties>", () => {
    const { cart, laptop, plans } = cartOf();
    const laptopId = variantIdOf(laptop);
    const planId = variantIdOf(plans);
    const ref = { _svc_protected_product_ref: laptopId };
    cart.add([{ id: laptopId }, { id: planId, properties: ref }]);
    cart.add([
      { id: laptopId, quantity: "2" },
      { id: planId, properties: ref },
    ]);
    cart.add([{ id: planId }]);
    const items = cart.toJSON().items;
    expect(items.map((item) => [item.key.split(":")[0], item.quantity, item.properties])).toEqual([
      [laptopId, 3, {}],
      [planId, 2, ref],
      [planId, 1, {}],
    ]);
    expect(items[1]?.key).not.toBe(items[2]?.key);
    expect(items[1]?.key).toBe(lineKey({ variantId: planId, properties: ref }));
    expect(items[1]?.requires_shipping).toBe(false);
  });

  it("sells the app's unlisted protection product, as it is published to the Online Store", () => {
    const { cart, plans } = cartOf();
    expect(cart.add([{ id: variantIdOf(plans) }])).toHaveLength(1);
  });

  it.each([
    ["an unknown variant", () => "123"],
    ["a draft product's variant", (shop: ReturnType<typeof testShop>) => variantIdOf(shop.draft)],
    [
      "a product not on the Online Store",
      (shop: ReturnType<typeof testShop>) => variantIdOf(shop.unpublished),
    ],
    ["no ID", () => ""],
  ])("refuses %s with Shopify's 404 and adds nothing", (_name, idOf) => {
    const fixture = cartOf();
    const error = catchCartError(() =>
      fixture.cart.add([{ id: variantIdOf(fixture.towel) }, { id: idOf(fixture) }]),
    );
    expect(error.httpStatus).toBe(404);
    expect(error.body).toEqual({
      status: 404,
      message: "Cart Error",
      description: "Cannot find variant",
    });
    expect(fixture.cart.lines).toEqual([]);
  });

  it("refuses a quantity that is not a whole number with a 422", () => {
    const { cart, towel } = cartOf();
    const error = catchCartError(() => cart.add([{ id: variantIdOf(towel), quantity: "two" }]));
    expect(error.httpStatus).toBe(422);
    expect(error.body.message).toBe("Cart Error");
  });

  it("drops lines whose product left the Online Store", () => {
    const { cart, towel, state, shop } = cartOf();
    cart.add([{ id: variantIdOf(towel) }]);
    state.unpublish(shop.domain, towel.id, [shop.onlineStorePublicationId], { kind: "merchant" });
    expect(cart.toJSON().items).toEqual([]);
  });

  it("shows a new price at once, as the cart reads the catalogue", () => {
    const { cart, towel, state, shop } = cartOf();
    cart.add([{ id: variantIdOf(towel) }]);
    state.setProduct(
      shop.domain,
      {
        id: towel.id,
        title: towel.title,
        variants: [{ id: variantIdOf(towel), title: "Default Title", price: 1500 }],
      },
      { kind: "merchant" },
    );
    expect(cart.toJSON().total_price).toBe(1500);
  });
});

describe("Changing, updating, clearing", () => {
  function filled() {
    const fixture = cartOf();
    const laptopId = variantIdOf(fixture.laptop);
    const planId = variantIdOf(fixture.plans);
    fixture.cart.add([
      { id: laptopId, quantity: 2 },
      { id: planId, quantity: 2, properties: { _svc_protected_product_ref: laptopId } },
    ]);
    return { ...fixture, laptopId, planId };
  }

  it("changes a line by key, by variant ID and by 1-based line; 0 removes it", () => {
    const { cart, laptopId, planId } = filled();
    const planKey = cart.toJSON().items[1]?.key;
    cart.change({ id: planKey, quantity: 5 });
    expect(cart.lines.map((line) => line.quantity)).toEqual([2, 5]);
    cart.change({ id: laptopId, quantity: "4" });
    expect(cart.lines.map((line) => line.quantity)).toEqual([4, 5]);
    cart.change({ line: "2", quantity: 1 });
    expect(cart.lines.map((line) => line.quantity)).toEqual([4, 1]);
    cart.change({ line: 1, quantity: 0 });
    expect(cart.lines.map((line) => line.variantId)).toEqual([planId]);
  });

  it("changes a line's properties, which changes its key", () => {
    const { cart, planId } = filled();
    const before = cart.toJSON().items[1]?.key;
    cart.change({ id: before, quantity: 2, properties: { _svc_protected_product_ref: "1" } });
    const after = cart.toJSON().items[1];
    expect(after?.key).not.toBe(before);
    expect(after?.key).toBe(
      lineKey({ variantId: planId, properties: { _svc_protected_product_ref: "1" } }),
    );
  });

  it("answers a change without a line or ID, or for a line not in the cart, with a 400", () => {
    const { cart } = filled();
    const missing = catchCartError(() => cart.change({ quantity: 1 }));
    expect(missing.httpStatus).toBe(400);
    expect(missing.body).toEqual({
      status: "bad_request",
      message: "Parameter Missing or Invalid",
      description: "Required parameter missing or invalid: 'line' or 'id' param is required",
    });
    expect(catchCartError(() => cart.change({ line: 9, quantity: 1 })).httpStatus).toBe(400);
    expect(catchCartError(() => cart.change({ id: "1:abc", quantity: 1 })).httpStatus).toBe(400);
    expect(catchCartError(() => cart.change({ line: 1, quantity: -1 })).httpStatus).toBe(400);
  });

  it("updates by key and variant ID (an object), by position (an array), and adds new variants", () => {
    const { cart, laptopId, planId, towel } = filled();
    const planKey = cart.toJSON().items[1]?.key as string;
    cart.update({ updates: { [planKey]: "3", [laptopId]: 1, [variantIdOf(towel)]: 2 } });
    expect(cart.lines.map((line) => [line.variantId, line.quantity])).toEqual([
      [laptopId, 1],
      [planId, 3],
      [variantIdOf(towel), 2],
    ]);
    cart.update({ updates: ["0", 2] });
    expect(cart.lines.map((line) => [line.variantId, line.quantity])).toEqual([
      [planId, 2],
      [variantIdOf(towel), 2],
    ]);
  });

  it("sets the note and merges attributes; a blank attribute is removed", () => {
    const { cart } = filled();
    cart.update({ note: "Gift", attributes: { wrap: "yes", channel: "web" } });
    cart.update({ attributes: { wrap: "", _svc_session: "abc" } });
    expect(cart.toJSON()).toMatchObject({
      note: "Gift",
      attributes: { channel: "web", _svc_session: "abc" },
    });
  });

  it("clears the lines and keeps the note and attributes", () => {
    const { cart } = filled();
    cart.update({ note: "n", attributes: { a: "1" } });
    cart.clear();
    expect(cart.toJSON()).toMatchObject({
      item_count: 0,
      items: [],
      note: "n",
      attributes: { a: "1" },
    });
  });
});

describe("StoreCarts", () => {
  it("keeps carts per shop and token, and answers a new empty cart for an unknown token", () => {
    const { state, shop, towel } = testShop();
    const carts = new StoreCarts(state);
    const { cart, created } = carts.open(shop, undefined);
    expect(created).toBe(true);
    cart.add([{ id: variantIdOf(towel) }]);
    expect(carts.open(shop, cart.token)).toEqual({ cart, created: false });
    expect(carts.cartJson(shop, cart.token).item_count).toBe(1);
    const fresh = carts.cartJson(shop, "unknown");
    expect(fresh.item_count).toBe(0);
    expect(fresh.token).not.toBe(cart.token);
    expect(carts.find(shop, fresh.token)).toBeUndefined();
    carts.remove(shop, cart.token);
    expect(carts.find(shop, cart.token)).toBeUndefined();
  });
});

describe("Reading request bodies as Rack does", () => {
  it("nests form fields: a[b], a[], a[][b] and a[0][b]", () => {
    expect(
      nestFormFields([
        ["id", "1"],
        ["properties[Engraving]", "Ada"],
        ["items[][id]", "2"],
        ["items[][quantity]", "1"],
        ["items[][id]", "3"],
        ["sections[]", "cart-drawer"],
        ["sections[]", "cart-icon-bubble"],
      ]),
    ).toEqual({
      id: "1",
      properties: { Engraving: "Ada" },
      items: [{ id: "2", quantity: "1" }, { id: "3" }],
      sections: ["cart-drawer", "cart-icon-bubble"],
    });
    expect(
      itemsToAdd(
        nestFormFields([
          ["items[1][id]", "b"],
          ["items[0][id]", "a"],
        ]),
      ).map((item) => item.id),
    ).toEqual(["a", "b"]);
  });

  it("reads JSON, urlencoded and multipart bodies", async () => {
    const url = "http://store.test/cart/add.js";
    const json = await readCartParams(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"items":[{"id":9007199254740993,"quantity":2}]}',
      }),
    );
    expect(json).toEqual({ items: [{ id: "9007199254740993", quantity: 2 }] });
    const urlencoded = await readCartParams(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "id=5&properties%5B_ref%5D=7",
      }),
    );
    expect(urlencoded).toEqual({ id: "5", properties: { _ref: "7" } });
    const form = new FormData();
    form.append("id", "6");
    form.append("sections", "cart-drawer,cart-icon-bubble");
    const multipart = await readCartParams(new Request(url, { method: "POST", body: form }));
    expect(multipart).toEqual({ id: "6", sections: "cart-drawer,cart-icon-bubble" });
  });

  it("keeps safe integers as numbers", () => {
    expect(parseJsonKeepingIds('{"a":12,"b":1.5,"c":9007199254740993}')).toEqual({
      a: 12,
      b: 1.5,
      c: "9007199254740993",
    });
  });
});

function catchCartError(action: () => unknown): CartError {
  try {
    action();
  } catch (error) {
    if (error instanceof CartError) return error;
    throw error;
  }
  throw new Error("Expected a CartError");
}
