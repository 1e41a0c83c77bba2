import { createHash, randomBytes } from "node:crypto";
import { JsonInteger, toShopifyJson, type JsonObject } from "../json";
import type { Product, StoreShop, Variant } from "../model";
import type { StoreState } from "../state";
import type { CartJson, CartSource } from "./contract";

/*
 * Shopify's Ajax Cart API, the carts themselves: lines merged by variant and properties, keys
 * "<variant id>:<hash of the properties>", prices from the catalogue in minor units, and the
 * exact shape of Shopify's /cart.js answers (test/fixtures/shopify/cart_js/). Request bodies
 * are read as Rack reads them on Shopify (JSON, urlencoded and multipart; `items[][id]` and
 * `items[0][id]` both work). The HTTP routes are in cart-routes.ts.
 */

/** A variant as a cart line shows it; IDs are decimal strings (the store's pass 2^53). */
export interface CatalogueVariant {
  id: string;
  productId: string;
  productTitle: string;
  /** "Default Title" for a product without options, as Shopify names it. */
  variantTitle: string;
  handle: string;
  vendor: string;
  productType: string;
  description: string;
  sku: string;
  /** Minor units of the cart's currency. */
  price: number;
  grams: number;
  requiresShipping: boolean;
  taxable: boolean;
  options: { name: string; value: string }[];
}

/** What a cart sells: read on every use, so a price or publication change shows at once. */
export interface CartCatalogue {
  currency: string;
  /** The variant when a buyer may add it to a cart, else undefined. */
  variant(id: string): CatalogueVariant | undefined;
}

export const DEFAULT_VARIANT_TITLE = "Default Title";

/** A variant is for sale on the Online Store when its product is listed there (decision 013). */
export function isOnlineStoreVariant(shop: StoreShop, product: Product): boolean {
  return (
    (product.status === "ACTIVE" || product.status === "UNLISTED") &&
    product.publicationIds.includes(shop.onlineStorePublicationId)
  );
}

export function catalogueVariant(product: Product, variant: Variant): CatalogueVariant {
  return {
    id: variant.id,
    productId: product.id,
    productTitle: product.title,
    variantTitle: variant.title,
    handle: product.handle,
    vendor: product.vendor,
    productType: product.productType,
    description: "",
    sku: variant.sku,
    price: variant.price,
    grams: variant.grams,
    requiresShipping: variant.requiresShipping,
    taxable: variant.taxable,
    options: variant.selectedOptions?.length
      ? variant.selectedOptions
      : [{ name: "Title", value: variant.title }],
  };
}

/** The store's catalogue of one shop, as its Online Store sells it. */
export function storeCatalogue(state: StoreState, domain: string): CartCatalogue {
  return {
    get currency() {
      return state.shop(domain)?.currency ?? "";
    },
    variant(id) {
      const shop = state.shop(domain);
      const found = /^\d+$/.test(id) ? state.variant(domain, id) : undefined;
      if (!shop || !found || !isOnlineStoreVariant(shop, found.product)) return undefined;
      return catalogueVariant(found.product, found.variant);
    },
  };
}

export interface CartLine {
  variantId: string;
  quantity: number;
  properties: Record<string, string>;
}

export interface AddItem {
  id: unknown;
  quantity?: unknown;
  properties?: unknown;
}

/**
 * A request Shopify refuses, with the body it answers: `{status, message, description}`.
 * `status` is a number for cart errors and Rails' "bad_request" for a missing parameter.
 */
export class CartError extends Error {
  override name = "CartError";
  constructor(
    readonly httpStatus: number,
    readonly description: string,
    readonly title = "Cart Error",
    readonly statusField: number | string = httpStatus,
  ) {
    super(description);
  }

  get body(): { status: number | string; message: string; description: string } {
    return { status: this.statusField, message: this.title, description: this.description };
  }
}

const variantNotFound = () => new CartError(404, "Cannot find variant");
const badRequest = (description: string) =>
  new CartError(400, description, "Parameter Missing or Invalid", "bad_request");

export function lineKey(line: Pick<CartLine, "variantId" | "properties">): string {
  const hash = createHash("md5").update(JSON.stringify(line.properties)).digest("hex");
  return `${line.variantId}:${hash}`;
}

/** An ID as the request wrote it: digits, whether sent as a JSON number or text. */
function idText(value: unknown): string {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string") return value.trim();
  return "";
}

/** Line properties as text; Shopify drops blank ones. */
function textProperties(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const properties: Record<string, string> = {};
  for (const [name, text] of Object.entries(value)) {
    if (text === undefined || text === null || text === "") continue;
    properties[name] = typeof text === "object" ? JSON.stringify(text) : String(text);
  }
  return properties;
}

/** A whole number from a JSON number or form text, else undefined. */
function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isSafeInteger(number) ? number : undefined;
}

export class Cart {
  lines: CartLine[] = [];
  note: string | null = null;
  attributes: Record<string, string> = {};
  /** The secret current Shopify adds to /cart.js's token (`<token>?key=<key>`); orders never carry it. */
  readonly key = randomBytes(16).toString("hex");

  constructor(
    readonly catalogue: CartCatalogue,
    readonly token: string = randomBytes(16).toString("hex"),
  ) {}

  /** Adds items as Shopify does: all or none, and a line with the same variant and properties grows. */
  add(items: AddItem[]): CartLine[] {
    this.prune();
    if (items.length === 0) throw new CartError(422, "No items to add");
    const checked = items.map((item) => {
      const variant = this.catalogue.variant(idText(item.id));
      if (!variant) throw variantNotFound();
      const quantity = item.quantity === undefined || item.quantity === "" ? 1 : item.quantity;
      const count = wholeNumber(quantity);
      if (count === undefined || count < 0) {
        throw new CartError(422, `Invalid quantity ${JSON.stringify(quantity)}`);
      }
      return {
        variantId: variant.id,
        quantity: count,
        properties: textProperties(item.properties),
      };
    });
    const touched: CartLine[] = [];
    for (const item of checked) {
      if (item.quantity === 0) continue;
      const existing = this.lines.find((line) => lineKey(line) === lineKey(item));
      if (existing) existing.quantity += item.quantity;
      else this.lines.push(item);
      const line = existing ?? item;
      if (!touched.includes(line)) touched.push(line);
    }
    return touched;
  }

  /** /cart/change: one line by key, by variant ID (its first line) or by 1-based `line`. */
  change(params: Record<string, unknown>): void {
    this.prune();
    const hasLine = params.line !== undefined && params.line !== "";
    const id = idText(params.id);
    if (!hasLine && id === "") {
      throw badRequest("Required parameter missing or invalid: 'line' or 'id' param is required");
    }
    const quantity = params.quantity === undefined ? undefined : wholeNumber(params.quantity);
    if (params.quantity !== undefined && (quantity === undefined || quantity < 0)) {
      throw badRequest("Required parameter missing or invalid: quantity");
    }
    const line = hasLine ? this.lineAt(params.line) : this.lineFor(id);
    if (!line) {
      // Shopify's answer when the key or variant is not in the cart.
      throw new CartError(400, "no valid id or line parameter", "no valid id or line parameter");
    }
    if (params.properties !== undefined) line.properties = textProperties(params.properties);
    if (quantity !== undefined) this.setQuantity(line, quantity);
    this.mergeDuplicates();
  }

  /** /cart/update: quantities by key or variant ID (an object) or by position (an array). */
  update(params: Record<string, unknown>): void {
    this.prune();
    const { updates } = params;
    if (Array.isArray(updates)) {
      const lines = [...this.lines];
      updates.forEach((value, index) => {
        const line = lines[index];
        const quantity = wholeNumber(value);
        if (line && quantity !== undefined) this.setQuantity(line, Math.max(quantity, 0));
      });
    } else if (updates && typeof updates === "object") {
      const toAdd: AddItem[] = [];
      for (const [id, value] of Object.entries(updates)) {
        const quantity = wholeNumber(value);
        if (quantity === undefined) continue;
        const line = this.lineFor(id);
        if (line) this.setQuantity(line, Math.max(quantity, 0));
        else if (quantity > 0) toAdd.push({ id, quantity });
      }
      if (toAdd.length > 0) this.add(toAdd);
    }
    if (typeof params.note === "string") this.note = params.note;
    if (params.attributes && typeof params.attributes === "object") {
      for (const [name, value] of Object.entries(params.attributes)) {
        // A blank value removes the attribute, as on Shopify.
        if (value === undefined || value === null || value === "") delete this.attributes[name];
        else this.attributes[name] = String(value);
      }
    }
  }

  /** /cart/clear: the lines go; the note and attributes stay. */
  clear(): void {
    this.lines = [];
  }

  /** The line a line item's JSON shows, with IDs as exact JSON integers. */
  lineJsonValue(line: CartLine): JsonObject {
    const variant = this.catalogue.variant(line.variantId);
    if (!variant) throw new Error(`Variant ${line.variantId} left the catalogue`);
    const linePrice = variant.price * line.quantity;
    const onlyDefault = variant.variantTitle === DEFAULT_VARIANT_TITLE;
    const id = new JsonInteger(variant.id);
    return {
      id,
      properties: { ...line.properties },
      quantity: line.quantity,
      variant_id: id,
      key: lineKey(line),
      title: onlyDefault
        ? variant.productTitle
        : `${variant.productTitle} - ${variant.variantTitle}`,
      price: variant.price,
      original_price: variant.price,
      discounted_price: variant.price,
      line_price: linePrice,
      original_line_price: linePrice,
      total_discount: 0,
      discounts: [],
      sku: variant.sku,
      grams: variant.grams,
      vendor: variant.vendor,
      taxable: variant.taxable,
      product_id: new JsonInteger(variant.productId),
      product_has_only_default_variant: onlyDefault,
      gift_card: false,
      final_price: variant.price,
      final_line_price: linePrice,
      url: `/products/${variant.handle}?variant=${variant.id}`,
      // The store has no product images; Shopify's answer for an image-less product.
      featured_image: { aspect_ratio: null, alt: null, height: null, url: null, width: null },
      image: null,
      handle: variant.handle,
      requires_shipping: variant.requiresShipping,
      product_type: variant.productType,
      product_title: variant.productTitle,
      product_description: variant.description,
      variant_title: onlyDefault ? null : variant.variantTitle,
      variant_options: variant.options.map((option) => option.value),
      options_with_values: variant.options.map(({ name, value }) => ({ name, value })),
      line_level_discount_allocations: [],
      line_level_total_discount: 0,
    };
  }

  /** The body of /cart.js, IDs exact. */
  jsonValue(): JsonObject {
    this.prune();
    const items = this.lines.map((line) => this.lineJsonValue(line));
    const total = items.reduce((sum, item) => sum + (item.line_price as number), 0);
    const weight = this.lines.reduce(
      (sum, line) => sum + (this.catalogue.variant(line.variantId)?.grams ?? 0) * line.quantity,
      0,
    );
    return {
      token: `${this.token}?key=${this.key}`,
      note: this.note,
      attributes: { ...this.attributes },
      original_total_price: total,
      total_price: total,
      total_discount: 0,
      total_weight: weight,
      item_count: this.lines.reduce((sum, line) => sum + line.quantity, 0),
      items,
      requires_shipping: items.some((item) => item.requires_shipping === true),
      currency: this.catalogue.currency,
      items_subtotal_price: total,
      cart_level_discount_applications: [],
    };
  }

  /** /cart.js as text, IDs written with all their digits. */
  jsonText(): string {
    return toShopifyJson(this.jsonValue());
  }

  /**
   * /cart.js as a JS object (the theme's `cart`). A JS number cannot hold an ID above 2^53: read
   * exact variant IDs from `lines` or from each item's `key`.
   */
  toJSON(): CartJson {
    return JSON.parse(this.jsonText()) as CartJson;
  }

  /** Lines whose variant is no longer for sale leave the cart, as on Shopify. */
  private prune(): void {
    this.lines = this.lines.filter((line) => this.catalogue.variant(line.variantId) !== undefined);
  }

  private lineAt(position: unknown): CartLine | undefined {
    const index = wholeNumber(position);
    return index === undefined ? undefined : this.lines[index - 1];
  }

  private lineFor(id: string): CartLine | undefined {
    return this.lines.find((line) =>
      id.includes(":") ? lineKey(line) === id : line.variantId === id,
    );
  }

  private setQuantity(line: CartLine, quantity: number): void {
    if (quantity <= 0) this.lines = this.lines.filter((candidate) => candidate !== line);
    else line.quantity = quantity;
  }

  /** A change of properties can make two lines one, as Shopify merges them. */
  private mergeDuplicates(): void {
    const byKey = new Map<string, CartLine>();
    const merged: CartLine[] = [];
    for (const line of this.lines) {
      const existing = byKey.get(lineKey(line));
      if (existing) existing.quantity += line.quantity;
      else {
        byKey.set(lineKey(line), line);
        merged.push(line);
      }
    }
    this.lines = merged;
  }
}

/** The store's carts, per shop, by the token of the buyer's `cart` cookie. */
export class StoreCarts implements CartSource {
  private readonly shops = new Map<string, Map<string, Cart>>();

  constructor(private readonly state: StoreState) {}

  /** The stored cart with this token, if any. */
  find(shop: StoreShop, token: string | undefined): Cart | undefined {
    return token === undefined ? undefined : this.shops.get(shop.domain)?.get(token);
  }

  /** The buyer's cart, or a new one (stored; `created` says the cookie must be set). */
  open(shop: StoreShop, token: string | undefined): { cart: Cart; created: boolean } {
    const found = this.find(shop, token);
    if (found) return { cart: found, created: false };
    const cart = new Cart(storeCatalogue(this.state, shop.domain));
    const carts = this.shops.get(shop.domain) ?? new Map<string, Cart>();
    carts.set(cart.token, cart);
    this.shops.set(shop.domain, carts);
    return { cart, created: true };
  }

  cartJson(shop: StoreShop, token: string | undefined): CartJson {
    const found = this.find(shop, token);
    return (found ?? new Cart(storeCatalogue(this.state, shop.domain))).toJSON();
  }

  /** A checkout completed it: the buyer's next request starts a new cart, as on Shopify. */
  remove(shop: StoreShop, token: string): void {
    this.shops.get(shop.domain)?.delete(token);
  }

  reset(): void {
    this.shops.clear();
  }
}

/** The items of a /cart/add body: `items` (an array or Rack's index hash), or one `id`. */
export function itemsToAdd(params: Record<string, unknown>): AddItem[] {
  const { items } = params;
  if (Array.isArray(items)) return items as AddItem[];
  if (items && typeof items === "object") {
    return Object.entries(items)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, item]) => item as AddItem);
  }
  return [{ id: params.id, quantity: params.quantity, properties: params.properties }];
}

export type AjaxCartAction = "add" | "change" | "update" | "clear";

/**
 * One Ajax Cart API call (/cart/add, /cart/change, /cart/update, /cart/clear) on the cart,
 * answering the lines an add made (none for the others). A refused call throws a CartError.
 */
export function applyCartAction(
  cart: Cart,
  action: AjaxCartAction,
  params: Record<string, unknown>,
): CartLine[] {
  if (action === "add") return cart.add(itemsToAdd(params));
  if (action === "change") cart.change(params);
  else if (action === "update") cart.update(params);
  else cart.clear();
  return [];
}

export type Params = Record<string, unknown>;

/** Form fields as Rack nests them: a[b]=1, a[]=1, a[][b]=1 (a new element when b repeats). */
export function nestFormFields(entries: Iterable<[string, string]>): Params {
  const params: Params = {};
  for (const [name, value] of entries) {
    const match = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(name);
    if (!match) continue;
    const brackets = [...(match[2] ?? "").matchAll(/\[([^\]]*)\]/g)].map((part) => part[1] ?? "");
    assign(params, [match[1] ?? name, ...brackets], value);
  }
  return params;
}

function assign(target: Params, keys: string[], value: string) {
  const [key, ...rest] = keys;
  if (key === undefined) return;
  if (rest.length === 0) {
    target[key] = value;
    return;
  }
  if (rest[0] === "") {
    const list = (Array.isArray(target[key]) ? target[key] : (target[key] = [])) as unknown[];
    const after = rest.slice(1);
    if (after.length === 0) {
      list.push(value);
      return;
    }
    const last = list[list.length - 1];
    if (isParams(last) && !hasPath(last, after)) assign(last, after, value);
    else {
      const element: Params = {};
      list.push(element);
      assign(element, after, value);
    }
    return;
  }
  const child = isParams(target[key]) ? target[key] : (target[key] = {});
  assign(child as Params, rest, value);
}

function isParams(value: unknown): value is Params {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasPath(params: Params, keys: string[]): boolean {
  let node: unknown = params;
  for (const key of keys) {
    if (!isParams(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

/**
 * JSON with integers past 2^53 kept as their digits (a string): a variant ID sent as a JSON
 * number must reach the cart whole. Node 22's reviver sees each number's source text.
 */
export function parseJsonKeepingIds(text: string): unknown {
  return JSON.parse(text, (_key: string, value: unknown, context?: { source?: string }): unknown =>
    typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)
      ? (context?.source ?? value)
      : value,
  );
}

/** The body of a cart request, whatever its encoding (Rack's rules). */
export async function readCartParams(request: Request): Promise<Params> {
  const type = request.headers.get("content-type") ?? "";
  const query = nestFormFields(new URL(request.url).searchParams);
  if (request.method === "GET" || request.method === "HEAD") return query;
  if (type.includes("application/json")) {
    const text = await request.text();
    if (text.trim() === "") return query;
    const parsed = parseJsonKeepingIds(text);
    return isParams(parsed) ? { ...query, ...parsed } : query;
  }
  if (type.includes("multipart/form-data")) {
    const form = await request.formData();
    const entries: [string, string][] = [];
    form.forEach((value, name) => {
      if (typeof value === "string") entries.push([name, value]);
    });
    return { ...query, ...nestFormFields(entries) };
  }
  return { ...query, ...nestFormFields(new URLSearchParams(await request.text())) };
}
