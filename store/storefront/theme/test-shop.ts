import type { Actor } from "../../model";
import type { StoreState } from "../../state";
import type { CartJson, CartLineJson, CartSource, Product, StoreShop } from "../contract";
import { shopIn } from "../test-shop.test-support";
import { appNamespaceOf } from "./objects";

/*
 * A demo catalogue for the theme's tests: a snowboard in two sizes (listed), a draft product and
 * the app's protection plans (unlisted: not shown, but its variants can be in a cart).
 */

export const DOMAIN = "dawn-test.myshopify.com";
const MERCHANT: Actor = { kind: "merchant" };

export interface TestCatalog {
  shop: StoreShop;
  snowboard: Product;
  draft: Product;
  plan: Product;
}

export function seedCatalog(state: StoreState): TestCatalog {
  const { shop, addProduct } = shopIn(state, {
    domain: DOMAIN,
    appUrl: "https://app.example.com",
    apiKey: "dawn-test-key",
    apiSecret: "dawn-test-secret",
    currency: "EUR",
  });
  const snowboard = addProduct({
    title: "Hydrogen Snowboard",
    vendor: "Snow Co",
    productType: "Snowboards",
    variants: [
      { title: "150 cm", price: 49_900, selectedOptions: [{ name: "Size", value: "150 cm" }] },
      { title: "160 cm", price: 54_900, selectedOptions: [{ name: "Size", value: "160 cm" }] },
    ],
  });
  const draft = addProduct({
    title: "Secret Board",
    status: "DRAFT",
    variants: [{ title: "Default Title", price: 100 }],
  });
  const plan = addProduct(
    {
      title: "Purchase protection",
      status: "UNLISTED",
      variants: [{ title: "2 years", price: 2_500, requiresShipping: false }],
    },
    false,
  );
  const [small] = snowboard.variants;
  if (!small) throw new Error("The snowboard lost its variants");
  state.setMetafields(
    DOMAIN,
    [
      {
        ownerId: snowboard.id,
        namespace: appNamespaceOf(shop),
        key: "plan_availability",
        type: "json",
        value: JSON.stringify({ without_plans: [] }),
      },
    ],
    MERCHANT,
  );
  return {
    shop,
    snowboard: state.product(DOMAIN, snowboard.id) ?? snowboard,
    draft,
    plan,
  };
}

function line(
  product: Product,
  index: number,
  quantity: number,
  properties: Record<string, string> | null,
): CartLineJson {
  const variant = product.variants[index];
  if (!variant) throw new Error(`${product.title} has no variant ${index}`);
  return {
    id: Number(variant.id),
    key: `${variant.id}:${index}abc`,
    variant_id: Number(variant.id),
    product_id: Number(product.id),
    quantity,
    properties,
    title: `${product.title} - ${variant.title}`,
    product_title: product.title,
    variant_title: variant.title,
    handle: product.handle,
    url: `/products/${product.handle}?variant=${variant.id}`,
    sku: variant.sku,
    vendor: product.vendor,
    product_type: product.productType,
    price: variant.price,
    original_price: variant.price,
    final_price: variant.price,
    line_price: variant.price * quantity,
    original_line_price: variant.price * quantity,
    final_line_price: variant.price * quantity,
    discounted_price: variant.price,
    requires_shipping: variant.requiresShipping,
    gift_card: false,
    taxable: variant.taxable,
    image: null,
    featured_image: null,
    options_with_values: (variant.selectedOptions ?? []).map((option) => ({ ...option })),
    product_has_only_default_variant: false,
  };
}

/** A cart of two snowboards and their plan, or an empty one. */
export function fixedCarts(catalog: TestCatalog, filled: boolean): CartSource {
  return {
    cartJson: (shop, token) => {
      const items = filled
        ? [
            line(catalog.snowboard, 1, 2, null),
            line(catalog.plan, 0, 2, { _svc_protected_product_ref: "ref-1" }),
          ]
        : [];
      const total = items.reduce((sum, item) => sum + item.final_line_price, 0);
      const cart: CartJson = {
        token: token ?? "fresh-token",
        note: null,
        attributes: {},
        original_total_price: total,
        total_price: total,
        total_discount: 0,
        total_weight: 0,
        item_count: items.reduce((sum, item) => sum + item.quantity, 0),
        items,
        requires_shipping: items.length > 0,
        currency: shop.currency,
        items_subtotal_price: total,
        cart_level_discount_applications: [],
      };
      return cart;
    },
  };
}
