import { createHash } from "node:crypto";
import { Drop } from "liquidjs";
import { appIdOf } from "../../graphql/index";
import { metafieldTypedValue, type Metafield } from "../../model";
import type { CartJson, CartLineJson, Product, StoreShop, Variant } from "../contract";
import { moneyFormatsOf } from "./values";

/*
 * Shopify's Liquid objects, built from the store's model: the shop, products, variants,
 * collections and the cart (from /cart.js's JSON, so the page and the Ajax API agree).
 * Products have no images or media: the store has none, and Dawn draws its placeholders.
 */

export type LiquidObject = Record<string, unknown>;

const DEFAULT_TITLE = "Default Title";

/** The ID Shopify gives an option value, stable for the product's option and value. */
export function optionValueId(productId: string, option: string, value: string): string {
  const digest = createHash("sha256").update(`${productId}\n${option}\n${value}`).digest("hex");
  return String(Number.parseInt(digest.slice(0, 10), 16));
}

export class OptionValueDrop extends Drop {
  readonly product_url = null;
  readonly swatch = null;
  constructor(
    readonly id: string,
    readonly name: string,
    readonly position: number,
    readonly selected: boolean,
    readonly available: boolean,
    readonly variant: LiquidObject | null,
  ) {
    super();
  }
  override valueOf(): string {
    return this.name;
  }
  override toString(): string {
    return this.name;
  }
  toJSON(): string {
    return this.name;
  }
}

export function optionsOf(variant: Variant): { name: string; value: string }[] {
  if (variant.selectedOptions && variant.selectedOptions.length > 0) return variant.selectedOptions;
  return [{ name: "Title", value: variant.title }];
}

/** `product.metafields.<namespace>.<key>`, with the app's own namespace also as `$app`. */
export function metafieldsOf(metafields: Metafield[], appNamespace: string): LiquidObject {
  const byNamespace: Record<string, LiquidObject> = {};
  for (const metafield of metafields) {
    const drop = {
      value: metafieldTypedValue(metafield, { decimalAsNumber: true }),
      type: metafield.type,
    };
    (byNamespace[metafield.namespace] ??= {})[metafield.key] = drop;
    if (metafield.namespace === appNamespace) (byNamespace.$app ??= {})[metafield.key] = drop;
  }
  return byNamespace;
}

export function appNamespaceOf(shop: StoreShop): string {
  return `app--${appIdOf(shop)}`;
}

export function variantObject(
  product: Product,
  variant: Variant,
  appNamespace: string,
): LiquidObject {
  const options = optionsOf(variant).map((option) => option.value);
  const isDefault = variant.title === DEFAULT_TITLE;
  return {
    id: variant.id,
    title: variant.title,
    option1: options[0] ?? null,
    option2: options[1] ?? null,
    option3: options[2] ?? null,
    options,
    sku: variant.sku,
    requires_shipping: variant.requiresShipping,
    taxable: variant.taxable,
    featured_image: null,
    featured_media: null,
    image: null,
    available: true,
    name: isDefault ? product.title : `${product.title} - ${variant.title}`,
    public_title: isDefault ? null : variant.title,
    price: variant.price,
    compare_at_price: null,
    weight: variant.grams,
    inventory_management: null,
    inventory_policy: "deny",
    inventory_quantity: 0,
    barcode: null,
    requires_selling_plan: false,
    selling_plan_allocations: [],
    quantity_rule: { min: 1, max: null, increment: 1 },
    quantity_price_breaks: [],
    unit_price_measurement: null,
    unit_price: null,
    store_availabilities: [],
    incoming: false,
    matched: true,
    url: `/products/${product.handle}?variant=${variant.id}`,
    metafields: metafieldsOf(variant.metafields, appNamespace),
  };
}

export interface ProductSelection {
  variantId?: string | undefined;
  optionValueIds?: string[] | undefined;
}

/** The variant a product page shows: `?variant=`, else Dawn's `?option_values=`, else none. */
export function selectedVariantOf(
  product: Product,
  selection: ProductSelection,
): Variant | undefined {
  if (selection.variantId !== undefined) {
    return product.variants.find((variant) => variant.id === selection.variantId);
  }
  if (selection.optionValueIds && selection.optionValueIds.length > 0) {
    const wanted = new Set(selection.optionValueIds);
    return product.variants.find((variant) =>
      optionsOf(variant).every((option) =>
        wanted.has(optionValueId(product.id, option.name, option.value)),
      ),
    );
  }
  return undefined;
}

export function productObject(
  product: Product,
  appNamespace: string,
  selection: ProductSelection = {},
): LiquidObject {
  const variants = product.variants.map((variant) => variantObject(product, variant, appNamespace));
  const selectedVariant = selectedVariantOf(product, selection);
  const current = selectedVariant ?? product.variants[0];
  const currentOptions = current ? optionsOf(current) : [];
  const variantFor = (position: number, value: string) => {
    // Shopify's option value variant: the one matching the current selection with this value.
    const wanted = currentOptions.map((option, index) =>
      index === position ? value : option.value,
    );
    const match = product.variants.find((variant) =>
      optionsOf(variant).every((option, index) => option.value === wanted[index]),
    );
    return match ? (variants[product.variants.indexOf(match)] ?? null) : null;
  };
  const optionNames = product.variants[0]
    ? optionsOf(product.variants[0]).map((option) => option.name)
    : ["Title"];
  const optionsWithValues = optionNames.map((name, index) => {
    const names: string[] = [];
    for (const variant of product.variants) {
      const value = optionsOf(variant)[index]?.value;
      if (value !== undefined && !names.includes(value)) names.push(value);
    }
    const values = names.map(
      (value, valueIndex) =>
        new OptionValueDrop(
          optionValueId(product.id, name, value),
          value,
          valueIndex + 1,
          currentOptions[index]?.value === value,
          true,
          variantFor(index, value),
        ),
    );
    return {
      name,
      position: index + 1,
      values,
      selected_value: values.find((value) => value.selected) ?? null,
    };
  });
  const prices = product.variants.map((variant) => variant.price);
  const priceMin = prices.length > 0 ? Math.min(...prices) : 0;
  const priceMax = prices.length > 0 ? Math.max(...prices) : 0;
  const currentIndex = current ? product.variants.indexOf(current) : -1;
  return {
    id: product.id,
    title: product.title,
    handle: product.handle,
    url: `/products/${product.handle}`,
    description: "",
    content: "",
    vendor: product.vendor,
    type: product.productType,
    tags: product.tags,
    available: product.variants.length > 0,
    price: priceMin,
    price_min: priceMin,
    price_max: priceMax,
    price_varies: priceMin !== priceMax,
    compare_at_price: null,
    compare_at_price_min: 0,
    compare_at_price_max: 0,
    compare_at_price_varies: false,
    variants,
    variants_count: variants.length,
    has_only_default_variant:
      product.variants.length === 1 && product.variants[0]?.title === DEFAULT_TITLE,
    options: optionNames,
    options_with_values: optionsWithValues,
    options_by_name: Object.fromEntries(
      optionsWithValues.map((option) => [option.name.toLowerCase(), option]),
    ),
    selected_variant: selectedVariant
      ? (variants[product.variants.indexOf(selectedVariant)] ?? null)
      : null,
    selected_or_first_available_variant:
      currentIndex >= 0 ? (variants[currentIndex] ?? null) : null,
    first_available_variant: variants[0] ?? null,
    media: [],
    images: [],
    featured_media: null,
    featured_image: null,
    metafields: metafieldsOf(product.metafields, appNamespace),
    requires_selling_plan: false,
    selling_plan_groups: [],
    "quantity_price_breaks_configured?": false,
    "gift_card?": false,
    template_suffix: null,
    collections: [],
    created_at: product.createdAt,
    published_at: product.createdAt,
  };
}

/** Shopify's /products/<handle>.js body. */
export function productJson(product: Product, appNamespace: string): LiquidObject {
  const liquid = productObject(product, appNamespace);
  const variants = (liquid.variants as LiquidObject[]).map((variant) => {
    const { metafields: _metafields, url: _url, ...json } = variant;
    return json;
  });
  return {
    id: Number(product.id),
    title: product.title,
    handle: product.handle,
    description: "",
    published_at: product.createdAt,
    created_at: product.createdAt,
    vendor: product.vendor,
    type: product.productType,
    tags: product.tags,
    price: liquid.price,
    price_min: liquid.price_min,
    price_max: liquid.price_max,
    available: liquid.available,
    price_varies: liquid.price_varies,
    compare_at_price: null,
    compare_at_price_min: 0,
    compare_at_price_max: 0,
    compare_at_price_varies: false,
    variants,
    images: [],
    featured_image: null,
    options: (
      liquid.options_with_values as { name: string; position: number; values: OptionValueDrop[] }[]
    ).map((option) => ({
      name: option.name,
      position: option.position,
      values: option.values.map((value) => value.name),
    })),
    url: `/products/${product.handle}`,
    media: [],
    requires_selling_plan: false,
    selling_plan_groups: [],
  };
}

export function collectionObject(
  handle: string,
  title: string,
  products: LiquidObject[],
): LiquidObject {
  return {
    id: handle === "all" ? null : handle,
    handle,
    title,
    url: `/collections/${handle}`,
    description: "",
    products,
    products_count: products.length,
    all_products_count: products.length,
    featured_image: null,
    image: null,
    filters: [],
    sort_options: [
      { name: "Featured", value: "manual" },
      { name: "Alphabetically, A-Z", value: "title-ascending" },
      { name: "Alphabetically, Z-A", value: "title-descending" },
      { name: "Price, low to high", value: "price-ascending" },
      { name: "Price, high to low", value: "price-descending" },
    ],
    sort_by: "",
    default_sort_by: "manual",
    current_type: null,
    current_vendor: null,
    all_tags: [],
    all_types: [],
    all_vendors: [],
    tags: [],
    template_suffix: null,
    metafields: {},
  };
}

/**
 * The Liquid `cart`. It compares `== empty` as Shopify's does (true with no items), which
 * liquidjs decides from its value, so the value is "" when empty.
 */
export class CartDrop extends Drop {
  readonly items: LiquidObject[];
  readonly item_count: number;
  readonly total_price: number;
  readonly original_total_price: number;
  readonly items_subtotal_price: number;
  readonly total_discount: number;
  readonly total_weight: number;
  readonly note: string | null;
  readonly attributes: Record<string, string>;
  readonly currency: { iso_code: string };
  readonly requires_shipping: boolean;
  readonly cart_level_discount_applications: unknown[];
  readonly discount_applications: unknown[] = [];
  readonly taxes_included = false;
  readonly duties_included = false;
  readonly checkout_charge_amount: number;
  readonly token: string;
  readonly empty: boolean;

  constructor(cart: CartJson, productsById: Map<string, LiquidObject>) {
    super();
    this.token = cart.token;
    this.items = cart.items.map((line, index) => lineItemObject(line, index, productsById));
    this.item_count = cart.item_count;
    this.total_price = cart.total_price;
    this.original_total_price = cart.original_total_price;
    this.items_subtotal_price = cart.items_subtotal_price;
    this.total_discount = cart.total_discount;
    this.total_weight = cart.total_weight;
    this.note = cart.note;
    this.attributes = cart.attributes;
    this.currency = { iso_code: cart.currency };
    this.requires_shipping = cart.requires_shipping;
    this.cart_level_discount_applications = cart.cart_level_discount_applications;
    this.checkout_charge_amount = cart.total_price;
    this.empty = cart.items.length === 0;
  }

  override valueOf(): string {
    return this.items.length === 0 ? "" : this.token;
  }

  toJSON(): LiquidObject {
    return {
      token: this.token,
      item_count: this.item_count,
      total_price: this.total_price,
      items: this.items,
    };
  }
}

function lineItemObject(
  line: CartLineJson,
  index: number,
  productsById: Map<string, LiquidObject>,
): LiquidObject {
  const product = productsById.get(String(line.product_id)) ?? {
    id: String(line.product_id),
    title: line.product_title,
    handle: line.handle,
    url: `/products/${line.handle}`,
    vendor: line.vendor,
    type: line.product_type,
    has_only_default_variant: line.product_has_only_default_variant,
    featured_media: null,
    media: [],
    variants: [],
    available: true,
  };
  const variants = Array.isArray(product.variants) ? (product.variants as LiquidObject[]) : [];
  const variant = variants.find(
    (candidate) => String(candidate.id) === String(line.variant_id),
  ) ?? {
    id: String(line.variant_id),
    title: line.variant_title ?? DEFAULT_TITLE,
    price: line.price,
    sku: line.sku,
    available: true,
    image: null,
    featured_media: null,
    requires_shipping: line.requires_shipping,
    quantity_rule: { min: 1, max: null, increment: 1 },
    url: line.url,
  };
  return {
    id: String(line.variant_id),
    key: line.key,
    index,
    quantity: line.quantity,
    properties: line.properties ?? {},
    title: line.title,
    product,
    variant,
    product_id: String(line.product_id),
    variant_id: String(line.variant_id),
    url: line.url,
    url_to_remove: `/cart/change?line=${index + 1}&quantity=0`,
    sku: line.sku,
    vendor: line.vendor,
    price: line.price,
    original_price: line.original_price,
    final_price: line.final_price,
    line_price: line.line_price,
    original_line_price: line.original_line_price,
    final_line_price: line.final_line_price,
    discounted_price: line.discounted_price,
    line_level_discount_allocations: [],
    line_level_total_discount: 0,
    discounts: [],
    selling_plan_allocation: null,
    unit_price_measurement: null,
    unit_price: null,
    image: null,
    options_with_values: line.options_with_values,
    requires_shipping: line.requires_shipping,
    taxable: line.taxable,
    gift_card: line.gift_card,
    parent_relationship: null,
    instructions: { can_remove: true, can_update_quantity: true },
  };
}

const COUNTRIES: Record<string, { iso_code: string; name: string }> = {
  EUR: { iso_code: "DE", name: "Germany" },
  USD: { iso_code: "US", name: "United States" },
  GBP: { iso_code: "GB", name: "United Kingdom" },
  CAD: { iso_code: "CA", name: "Canada" },
  JPY: { iso_code: "JP", name: "Japan" },
};

export function shopObject(shop: StoreShop, origin: string): LiquidObject {
  const formats = moneyFormatsOf(shop.currency, shop.currencyDecimals);
  return {
    id: shop.id,
    name: shop.name,
    email: shop.email,
    domain: shop.domain,
    permanent_domain: shop.domain,
    url: origin,
    secure_url: origin,
    currency: shop.currency,
    currency_decimals: shop.currencyDecimals,
    ...formats,
    description: "",
    brand: null,
    locale: "en",
    customer_accounts_enabled: false,
    customer_accounts_optional: true,
    enabled_payment_types: ["visa", "master", "american_express", "paypal"],
    shipping_policy: null,
    refund_policy: null,
    privacy_policy: null,
    terms_of_service: null,
    policies: [],
    metafields: {},
    published_locales: [localeObject()],
  };
}

export function localeObject(): LiquidObject {
  return { iso_code: "en", name: "English", endonym_name: "English", primary: true, root_url: "/" };
}

export function localizationObject(shop: StoreShop): LiquidObject {
  const country = {
    ...(COUNTRIES[shop.currency] ?? { iso_code: "US", name: "United States" }),
    currency: { iso_code: shop.currency, name: shop.currency, symbol: "" },
    unit_system: "metric",
    available_languages: [localeObject()],
    market: { handle: "primary", id: "1" },
  };
  return {
    available_countries: [country],
    available_languages: [localeObject()],
    country,
    language: localeObject(),
    market: { handle: "primary", id: "1" },
  };
}

export const ROUTES = {
  root_url: "/",
  account_url: "/account",
  account_login_url: "/account/login",
  account_logout_url: "/account/logout",
  account_register_url: "/account/register",
  account_addresses_url: "/account/addresses",
  account_recover_url: "/account/recover",
  collections_url: "/collections",
  all_products_collection_url: "/collections/all",
  search_url: "/search",
  predictive_search_url: "/search/suggest",
  cart_url: "/cart",
  cart_add_url: "/cart/add",
  cart_change_url: "/cart/change",
  cart_clear_url: "/cart/clear",
  cart_update_url: "/cart/update",
  product_recommendations_url: "/recommendations/products",
  storefront_login_url: "/storefront/login",
} as const;

export function linklistsObject(): LiquidObject {
  const link = (title: string, url: string) => ({
    title,
    url,
    active: false,
    current: false,
    child_active: false,
    child_current: false,
    levels: 0,
    links: [],
    type: "http_link",
    handle: title.toLowerCase().replace(/\W+/g, "-"),
  });
  return {
    "main-menu": {
      handle: "main-menu",
      title: "Main menu",
      levels: 1,
      links: [link("Home", "/"), link("Catalog", "/collections/all"), link("Cart", "/cart")],
    },
    footer: {
      handle: "footer",
      title: "Footer menu",
      levels: 1,
      links: [link("Search", "/search"), link("Catalog", "/collections/all")],
    },
  };
}
