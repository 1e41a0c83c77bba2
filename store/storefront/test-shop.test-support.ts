import { StoreState } from "../state";
import type { Product, StoreShop } from "../model";

/* A shop with a laptop, a towel, the app's unlisted protection product and products a buyer cannot add. */

export const SHOP_DOMAIN = "cart-demo.myshopify.com";

export interface TestShop {
  state: StoreState;
  shop: StoreShop;
  laptop: Product;
  towel: Product;
  plans: Product;
  draft: Product;
  unpublished: Product;
}

export function testShop(currency = "EUR"): TestShop {
  const state = new StoreState();
  const shop = state.createShop({
    domain: SHOP_DOMAIN,
    appUrl: "http://127.0.0.1:9",
    apiKey: "cart-test-key",
    apiSecret: "cart-test-secret",
    currency,
  });
  const merchant = { kind: "merchant" } as const;
  const online = [shop.onlineStorePublicationId];
  const create = (input: Parameters<StoreState["setProduct"]>[1], publish = true) => {
    const product = state.setProduct(shop.domain, input, merchant);
    return publish ? state.publish(shop.domain, product.id, online, merchant) : product;
  };
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
