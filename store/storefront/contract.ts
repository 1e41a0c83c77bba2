import type { Product, StoreShop, Variant } from "../model";
import type { StoreState } from "../state";

/*
 * The local store's front of house (issue 18): the contract between its parts. The storefront of
 * one shop is served at the root of the store's origin (`/`, `/products/<handle>`, `/cart.js`,
 * `/apps/svc/*`, `/checkout`, `/admin/apps/<handle>`), as Shopify serves a shop at its own domain;
 * the back office keeps `/shops/<shop>/…` and the control API `/__store`.
 *
 * - theme/ renders the published theme with liquidjs: Shopify's Dawn when SHOPIFY_THEMES_DIR
 *   holds dawn/ (read there, never edited), else our basic theme (store/themes/basic); plus the
 *   theme editor's saves that install the app's block and embed. It owns the GET page routes.
 * - cart.ts is Shopify's Ajax Cart API; its JSON (`CartJson`, the shape of /cart.js) is what the
 *   theme's Liquid `cart` object is built from.
 * - checkout.ts, app-proxy.ts and admin.ts are the checkout stand-in, the app proxy and the
 *   embedded admin.
 */

/** A line of /cart.js, as Shopify answers it (snake_case, money in minor units). */
export interface CartLineJson {
  id: number;
  key: string;
  variant_id: number;
  product_id: number;
  quantity: number;
  properties: Record<string, string> | null;
  title: string;
  product_title: string;
  variant_title: string | null;
  handle: string;
  url: string;
  sku: string | null;
  vendor: string;
  product_type: string;
  price: number;
  original_price: number;
  final_price: number;
  line_price: number;
  original_line_price: number;
  final_line_price: number;
  discounted_price: number;
  requires_shipping: boolean;
  gift_card: boolean;
  taxable: boolean;
  image: string | null;
  featured_image: { url: string | null; alt: string | null; aspect_ratio: number } | null;
  options_with_values: { name: string; value: string }[];
  product_has_only_default_variant: boolean;
  [field: string]: unknown;
}

/** The body of /cart.js. */
export interface CartJson {
  token: string;
  note: string | null;
  attributes: Record<string, string>;
  original_total_price: number;
  total_price: number;
  total_discount: number;
  total_weight: number;
  item_count: number;
  items: CartLineJson[];
  requires_shipping: boolean;
  currency: string;
  items_subtotal_price: number;
  cart_level_discount_applications: unknown[];
  [field: string]: unknown;
}

/** What the theme needs to render one request of the storefront. */
export interface StorefrontRequest {
  shop: StoreShop;
  /** The shop's products published to the Online Store (not the app's unlisted plans). */
  products: Product[];
  /** The buyer's cart (an empty one with a fresh token when the buyer has none yet). */
  cart: CartJson;
  /** The request's path and query, e.g. "/products/snowboard?variant=1". */
  url: string;
  locale: string;
  /** The theme editor's switches for the app (both on, as the merchant saved them). */
  app: {
    block: boolean;
    embed: boolean;
    /** The theme's "Cart type" (settings_data `cart_type`) as saved; the theme's own when absent. */
    cartType?: "drawer" | "page" | "notification";
    /**
     * The published theme: Dawn, or our basic theme. When absent, Dawn if SHOPIFY_THEMES_DIR
     * holds it, else basic (theme/files.ts).
     */
    theme?: "dawn" | "basic";
  };
}

/** Renders the theme's sections for a cart answer's `sections` parameter (Section Rendering API). */
export type RenderSections = (
  request: StorefrontRequest,
  sectionIds: string[],
) => Promise<Record<string, string | null>>;

export type { Product, StoreShop, Variant };

/** The buyer's carts, by the `cart` cookie's token (cart.ts). */
export interface CartSource {
  /** The cart with this token, or a new empty cart (not stored until something is added). */
  cartJson(shop: StoreShop, token: string | undefined): CartJson;
}

/** The shop the storefront at the origin's root serves: the one named, else the first created. */
export function storefrontShopOf(
  shops: readonly StoreShop[],
  preferred: string | undefined,
): StoreShop | undefined {
  if (preferred !== undefined) return shops.find((shop) => shop.domain === preferred);
  return shops[0];
}

/** The products a storefront lists: active and published to the Online Store. */
export function storefrontProducts(state: StoreState, shop: StoreShop): Product[] {
  return state
    .products(shop.domain)
    .filter(
      (product) =>
        product.status === "ACTIVE" &&
        product.publicationIds.includes(shop.onlineStorePublicationId),
    );
}

/** What a page or a section of the storefront is rendered from: the shop's, in its one locale. */
export function storefrontRequestOf(
  deps: { state: StoreState; app: () => StorefrontRequest["app"] },
  shop: StoreShop,
  cart: CartJson,
  url: string,
): StorefrontRequest {
  return {
    shop,
    products: storefrontProducts(deps.state, shop),
    cart,
    url,
    locale: "en",
    app: deps.app(),
  };
}
