import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/test-env";

/*
 * The harness's shop and an emulation of Shopify's Ajax Cart API: carts with the shapes of the
 * real /cart.js answers in ../shared/fixtures/shopify/cart_js/, lines merged by variant and
 * properties, keys "<variant id>:<hash of the properties>", and request bodies parsed as Rack
 * parses them (JSON, urlencoded and multipart; items[][id] and items[0][id] both work).
 */

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

export type CartLine = { variantId: number; quantity: number; properties: Record<string, string> };
export type AddItem = { id: unknown; quantity?: unknown; properties?: unknown };

export class CartError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

export class Cart {
  readonly token = randomBytes(16).toString("hex");
  lines: CartLine[] = [];
  note: string | null = null;
  attributes: Record<string, string> = {};

  constructor(private readonly shop: ShopData) {}

  variant(id: unknown): { product: ShopProduct; variant: ShopVariant } {
    for (const product of this.shop.products) {
      const variant = product.variants.find((candidate) => String(candidate.id) === String(id));
      if (variant) return { product, variant };
    }
    throw new CartError(422, `Cannot find variant ${String(id)}`);
  }

  /** Adds items as Shopify does: a line with the same variant and properties grows. */
  add(items: AddItem[]): CartLine[] {
    if (items.length === 0) throw new CartError(422, "No items to add");
    const checked = items.map((item) => {
      const { variant } = this.variant(item.id);
      const quantity = item.quantity === undefined ? 1 : Number(item.quantity);
      if (!Number.isInteger(quantity) || quantity < 1) {
        throw new CartError(422, `Invalid quantity ${String(item.quantity)}`);
      }
      return { variantId: variant.id, quantity, properties: textProperties(item.properties) };
    });
    return checked.map((item) => {
      const existing = this.lines.find((line) => lineKey(line) === lineKey(item));
      if (existing) {
        existing.quantity += item.quantity;
        return existing;
      }
      this.lines.push(item);
      return item;
    });
  }

  /** /cart/change: a line by key, by variant ID (its first line) or by 1-based position. */
  change(params: Record<string, unknown>) {
    const quantity = Number(params.quantity);
    if (!Number.isInteger(quantity) || quantity < 0) {
      throw new CartError(400, `Invalid quantity ${String(params.quantity)}`);
    }
    const line = this.findLine(params.id, params.line);
    if (!line) throw new CartError(400, "No line matches the change");
    if (params.properties !== undefined) line.properties = textProperties(params.properties);
    this.setQuantity(line, quantity);
  }

  /** /cart/update: updates as {key or variant ID: quantity} or as quantities by position. */
  update(params: Record<string, unknown>) {
    const updates = params.updates;
    if (Array.isArray(updates)) {
      const lines = [...this.lines];
      updates.forEach((quantity, index) => {
        const line = lines[index];
        if (line) this.setQuantity(line, Number(quantity));
      });
    } else if (updates && typeof updates === "object") {
      for (const [id, quantity] of Object.entries(updates)) {
        const line = this.findLine(id, undefined);
        if (line) this.setQuantity(line, Number(quantity));
        else if (Number(quantity) > 0) this.add([{ id, quantity }]);
      }
    }
    if (typeof params.note === "string") this.note = params.note;
    if (params.attributes && typeof params.attributes === "object") {
      Object.assign(this.attributes, textProperties(params.attributes));
    }
  }

  clear() {
    this.lines = [];
  }

  private findLine(id: unknown, position: unknown): CartLine | undefined {
    if (position !== undefined) return this.lines[Number(position) - 1];
    const text = String(id);
    return this.lines.find((line) =>
      text.includes(":") ? lineKey(line) === text : String(line.variantId) === text,
    );
  }

  private setQuantity(line: CartLine, quantity: number) {
    if (quantity <= 0) this.lines = this.lines.filter((candidate) => candidate !== line);
    else line.quantity = quantity;
  }

  lineJson(line: CartLine) {
    const { product, variant } = this.variant(line.variantId);
    const linePrice = variant.price * line.quantity;
    const defaultVariant = variant.title === "Default Title";
    return {
      id: line.variantId,
      properties: line.properties,
      quantity: line.quantity,
      variant_id: line.variantId,
      key: lineKey(line),
      title: defaultVariant ? product.title : `${product.title} - ${variant.title}`,
      price: variant.price,
      original_price: variant.price,
      discounted_price: variant.price,
      line_price: linePrice,
      original_line_price: linePrice,
      total_discount: 0,
      discounts: [],
      sku: variant.sku,
      grams: 0,
      vendor: product.vendor,
      taxable: product.requires_shipping !== false,
      product_id: product.id,
      product_has_only_default_variant: defaultVariant,
      gift_card: false,
      final_price: variant.price,
      final_line_price: linePrice,
      url: `/products/${product.handle}?variant=${variant.id}`,
      featured_image: { aspect_ratio: null, alt: null, height: null, url: null, width: null },
      image: null,
      handle: product.handle,
      requires_shipping: product.requires_shipping !== false,
      product_type: product.type,
      product_title: product.title,
      product_description: product.description,
      variant_title: defaultVariant ? null : variant.title,
      variant_options: [variant.title],
      options_with_values: [{ name: product.options[0] ?? "Title", value: variant.title }],
      line_level_discount_allocations: [],
      line_level_total_discount: 0,
    };
  }

  toJSON() {
    const items = this.lines.map((line) => this.lineJson(line));
    const total = items.reduce((sum, item) => sum + item.line_price, 0);
    return {
      token: this.token,
      note: this.note,
      attributes: this.attributes,
      original_total_price: total,
      total_price: total,
      total_discount: 0,
      total_weight: 0,
      item_count: items.reduce((sum, item) => sum + item.quantity, 0),
      items,
      requires_shipping: items.some((item) => item.requires_shipping),
      currency: this.shop.shop.currency,
      items_subtotal_price: total,
      cart_level_discount_applications: [],
    };
  }
}

export function lineKey(line: Pick<CartLine, "variantId" | "properties">): string {
  const hash = createHash("md5").update(JSON.stringify(line.properties)).digest("hex");
  return `${line.variantId}:${hash}`;
}

function textProperties(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object") return {};
  const properties: Record<string, string> = {};
  for (const [name, text] of Object.entries(value)) {
    if (text !== undefined && text !== null && text !== "") properties[name] = String(text);
  }
  return properties;
}

/** The items of a /cart/add body: `items` (array or Rack's index hash), or one `id`. */
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

type Params = Record<string, unknown>;

/** Form fields as Rack nests them: a[b]=1, a[]=1, a[][b]=1 (a new element when b repeats). */
export function nestFormFields(entries: Iterable<[string, string]>): Params {
  const params: Params = {};
  for (const [name, value] of entries) {
    const match = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(name);
    if (!match) continue;
    const brackets = [...(match[2] ?? "").matchAll(/\[([^\]]*)\]/g)].map((part) => part[1] ?? "");
    const keys = [match[1] ?? name, ...brackets];
    assign(params, keys, value);
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
  const child = isParams(target[key]) ? (target[key] as Params) : (target[key] = {});
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

/** The body of a cart request, whatever its encoding. */
export async function readCartParams(request: Request): Promise<Params> {
  const type = request.headers.get("content-type") ?? "";
  if (request.method === "GET") return nestFormFields(new URL(request.url).searchParams);
  if (type.includes("application/json")) {
    const text = await request.text();
    return text.trim() === "" ? {} : (JSON.parse(text) as Params);
  }
  if (type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded")) {
    const form = await request.formData();
    const entries: [string, string][] = [];
    form.forEach((value, name) => {
      if (typeof value === "string") entries.push([name, value]);
    });
    return nestFormFields(entries);
  }
  return nestFormFields(new URLSearchParams(await request.text()));
}
