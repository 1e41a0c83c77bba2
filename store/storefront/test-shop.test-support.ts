import { StoreState } from "../state";
import type { Actor, Product, StoreShop } from "../model";

/*
 * The store's storefront tests' shops: `shopIn` makes a shop and stocks it as its merchant does;
 * `testShop` is a shop with a laptop, a towel, the app's unlisted protection product and products
 * a buyer cannot add.
 */

export const SHOP_DOMAIN = "cart-demo.myshopify.com";
const MERCHANT: Actor = { kind: "merchant" };

/**
 * A shop in `state`, and `addProduct`, which creates the merchant's product and publishes it to
 * the online store (the storefront shows nothing else) unless `publish` is false.
 */
export function shopIn(state: StoreState, input: Parameters<StoreState["createShop"]>[0]) {
  const shop = state.createShop(input);
  const online = [shop.onlineStorePublicationId];
  const addProduct = (product: Parameters<StoreState["setProduct"]>[1], publish = true) => {
    const created = state.setProduct(shop.domain, product, MERCHANT);
    return publish ? state.publish(shop.domain, created.id, online, MERCHANT) : created;
  };
  return { shop, addProduct };
}

export interface TestShop {
  state: StoreState;
  shop: StoreShop;
  laptop: Product;
  towel: Product;
  plans: Product;
  draft: Product;
  unpublished: Product;
}

/** By default in a state of its own, its app unreachable (no webhook is meant to arrive). */
export function testShop({
  state = new StoreState(),
  ...shopInput
}: Partial<Parameters<StoreState["createShop"]>[0]> & { state?: StoreState } = {}): TestShop {
  const { shop, addProduct: create } = shopIn(state, {
    domain: SHOP_DOMAIN,
    appUrl: "http://127.0.0.1:9",
    apiKey: "cart-test-key",
    apiSecret: "cart-test-secret",
    currency: "EUR",
    ...shopInput,
  });
  const laptop = create({
    title: "Aurora 14 Laptop",
    vendor: "Nimbus",
    productType: "Laptops",
    variants: [
      {
        title: "16 GB",
        sku: "AUR-16",
        price: 129900,
        selectedOptions: [{ name: "Memory", value: "16 GB" }],
      },
      {
        title: "8 GB",
        sku: "AUR-8",
        price: 89900,
        selectedOptions: [{ name: "Memory", value: "8 GB" }],
      },
    ],
  });
  const towel = create({
    title: "Linen Tea Towel",
    vendor: "Hemma",
    variants: [{ title: "Default Title", sku: "TOWEL", price: 1200 }],
  });
  const plans = create({
    title: "Product protection",
    vendor: "svc",
    status: "UNLISTED",
    variants: [{ title: "2 years", sku: "PLAN-2Y", price: 9900, requiresShipping: false }],
  });
  const draft = create({
    title: "Draft Lamp",
    status: "DRAFT",
    variants: [{ title: "Default Title", price: 500 }],
  });
  const unpublished = create(
    { title: "Hidden Chair", variants: [{ title: "Default Title", price: 700 }] },
    false,
  );
  return { state, shop, laptop, towel, plans, draft, unpublished };
}

export function variantIdOf(product: Product, index = 0): string {
  const variant = product.variants[index];
  if (!variant) throw new Error(`${product.title} has no variant ${index}`);
  return variant.id;
}
