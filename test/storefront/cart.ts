import { readFileSync } from "node:fs";
import path from "node:path";
import {
  Cart as StoreCart,
  DEFAULT_VARIANT_TITLE,
  type CartCatalogue,
  type CartLine,
} from "../../store/storefront/cart";
import { toShopifyJson } from "../../store/json";
import { repoRoot } from "../support/test-env";

/*
 * The harness's shop, sold through the local store's own carts (store/storefront/cart.ts):
 * Shopify's Ajax Cart API with the shapes of the real /cart.js answers, lines merged by variant
 * and properties, and request bodies read as Rack reads them.
 */

export {
  applyCartAction,
  CartError,
  lineKey,
  nestFormFields,
  readCartParams,
  type AddItem,
  type AjaxCartAction,
  type CartLine,
} from "../../store/storefront/cart";

export type ShopVariant = { id: number; title: string; price: number; sku: string };
export type ShopProduct = {
  id: number;
  handle: string;
  title: string;
  vendor: string;
  type: string;
  description: string;
  options: string[];
  requires_shipping?: boolean;
  variants: ShopVariant[];
};
export type ShopData = {
  shop: { domain: string; name: string; currency: string; money_format: string };
  products: ShopProduct[];
};

export function readShop(): ShopData {
  const file = path.join(repoRoot, "test/fixtures/storefront/shop.json");
  return JSON.parse(readFileSync(file, "utf8")) as ShopData;
}

/** The harness's shop.json as a cart's catalogue: every variant is for sale. */
function catalogueOf(shop: ShopData): CartCatalogue {
  return {
    currency: shop.shop.currency,
    variant(id) {
      for (const product of shop.products) {
        const variant = product.variants.find((candidate) => String(candidate.id) === id);
        if (!variant) continue;
        const requiresShipping = product.requires_shipping !== false;
        return {
          id: String(variant.id),
          productId: String(product.id),
          productTitle: product.title,
          variantTitle: variant.title,
          handle: product.handle,
          vendor: product.vendor,
          productType: product.type,
          description: product.description,
          sku: variant.sku,
          price: variant.price,
          grams: 0,
          requiresShipping,
          taxable: requiresShipping,
          options: [
            {
              name: product.options[0] ?? "Title",
              value:
                variant.title === DEFAULT_VARIANT_TITLE ? DEFAULT_VARIANT_TITLE : variant.title,
            },
          ],
        };
      }
      return undefined;
    },
  };
}

/** A cart of the harness's shop; the shop's IDs are below 2^53, so its JSON is plain JS. */
export class Cart extends StoreCart {
  constructor(shop: ShopData) {
    super(catalogueOf(shop));
  }

  lineJson(line: CartLine): Record<string, unknown> {
    return JSON.parse(toShopifyJson(this.lineJsonValue(line))) as Record<string, unknown>;
  }
}
