import type { Context } from "liquidjs";
import {
  Drop,
  Hash,
  Liquid,
  RenderTag,
  Tag,
  Value,
  type Emitter,
  type TagToken,
  type Template,
  type TopLevelToken,
  type Parser,
} from "liquidjs";
import { isJsonObject } from "./files";
import { ColorDrop, FontDrop, formatMoney } from "./values";

/*
 * Shopify's Liquid as Dawn and our theme app extension use it, on liquidjs: the Shopify-only
 * tags (form, style, schema, section, sections, javascript, stylesheet, paginate, doc) and
 * filters. Unknown filters throw (strictFilters), and so does a missing translation: a theme
 * that needs something we lack fails loudly instead of printing "Liquid error" into the page.
 */

/** What the engine asks of the theme it renders. */
/** What liquidjs binds `this` to in a filter. */
interface FilterThis {
  context: Context;
}

export interface ThemeHooks {
  /** `t`: the translation of a key, with `{{ name }}` filled and `count` choosing the plural. */
  translate(key: string, params: Record<string, unknown>): string;
  assetUrl(file: string): string;
  assetContent(file: string): string;
  /** `{% section 'name' %}` */
  renderStaticSection(ctx: Context, type: string): Promise<string | null>;
  /** `{% sections 'header-group' %}` */
  renderSectionGroup(ctx: Context, group: string): Promise<string>;
  /** `{% render block %}` for an app block. */
  renderAppBlock(ctx: Context, block: unknown): Promise<string>;
}

export const SHOPIFY_TAGS = [
  "form",
  "style",
  "schema",
  "section",
  "sections",
  "javascript",
  "stylesheet",
  "paginate",
  "doc",
  "render",
  "content_for",
] as const;

/** The app block's drop: `{% render block %}` renders its Liquid, not a snippet. */
export class AppBlockDrop extends Drop {
  constructor(
    readonly id: string,
    readonly type: string,
    readonly settings: Record<string, unknown>,
    /** The extension's block file name, e.g. "protection-offer". */
    readonly blockName: string,
  ) {
    super();
  }
  readonly shopify_attributes = "";
}

function readUntilEnd(tagName: string, token: TagToken, remainTokens: TopLevelToken[]): string {
  let body = "";
  while (remainTokens.length > 0) {
    const next = remainTokens.shift();
    if (next === undefined) break;
    if ("name" in next && (next as TagToken).name === `end${tagName}`) return body;
    body += next.getText();
  }
  throw new Error(`tag ${token.getText()} not closed`);
}

/** Tags whose body is not Liquid Shopify renders in place (`schema`, `javascript`, …). */
function rawBlockTag(tagName: string, render: (body: string) => string = () => "") {
  return class extends Tag {
    private readonly body: string;
    constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
      super(token, remainTokens, liquid);
      this.body = readUntilEnd(tagName, token, remainTokens);
    }
    render(_ctx: Context, emitter: Emitter) {
      emitter.write(render(this.body));
    }
  };
}

/** The Liquid between `{% name %}` and `{% endname %}`, for tags whose body is Liquid. */
function parseBody(
  tagName: string,
  token: TagToken,
  remainTokens: TopLevelToken[],
  parser: Parser,
): Template[] {
  const templates: Template[] = [];
  const stream = parser
    .parseStream(remainTokens)
    .on(`tag:end${tagName}`, () => stream.stop())
    .on("template", (template: Template) => templates.push(template))
    .on("end", () => {
      throw new Error(`tag ${token.getText()} not closed`);
    });
  stream.start();
  return templates;
}

/** A tag holding Liquid: `{% style %}` renders its body into a `<style data-shopify>`. */
class StyleTag extends Tag {
  private readonly templates: Template[];
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    this.templates = parseBody("style", token, remainTokens, parser);
  }
  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    emitter.write("<style data-shopify>");
    yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
    emitter.write("</style>");
  }
}

const FORM_ACTIONS: Record<string, string> = {
  product: "/cart/add",
  cart: "/cart",
  localization: "/localization",
  customer: "/contact#",
  contact: "/contact#",
  create_customer: "/account",
  customer_login: "/account/login",
  recover_customer_password: "/account/recover",
  reset_customer_password: "/account/reset",
  activate_customer_password: "/account/activate",
  guest_login: "/account/login",
  customer_address: "/account/addresses",
  new_comment: "/blogs/comments",
  storefront_password: "/password",
};

function attributeName(key: string): string {
  return key.replace(/[^\w-]/g, "");
}

function escapeAttribute(value: unknown): string {
  return String(value)
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** `{% form 'product', product, id: …, class: … %}` as Shopify writes it. */
class FormTag extends Tag {
  private readonly type: Value;
  private readonly object: Value | undefined;
  private readonly hash: Hash;
  private readonly templates: Template[];
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    const args = token.args.trim();
    // The form type, then an optional object, then `key: value` attributes.
    const [, typeText = "", objectText, rest = ""] =
      /^('[^']*'|"[^"]*")\s*(?:,\s*([\w.[\]'"]+)(?=\s*(?:,|$)))?\s*,?\s*([\s\S]*)$/.exec(args) ??
      [];
    if (typeText === "") throw new Error(`form tag needs a type: ${token.getText()}`);
    this.type = new Value(typeText, liquid);
    this.object = objectText === undefined ? undefined : new Value(objectText, liquid);
    this.hash = new Hash(rest);
    this.templates = parseBody("form", token, remainTokens, parser);
  }
  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    const type = String(yield this.type.value(ctx));
    const attributes = (yield this.hash.render(ctx)) as Record<string, unknown>;
    const action = FORM_ACTIONS[type];
    if (action === undefined) throw new Error(`form tag: unknown form type ${type}`);
    const id = attributes.id === undefined ? undefined : String(attributes.id);
    const formAction = action.endsWith("#") ? `${action}${id ?? `${type}_form`}` : action;
    const defaults: Record<string, string> = {
      product: "product-form",
      localization: "shopify-localization-form",
    };
    const cls = attributes.class ?? defaults[type];
    const extra = Object.entries(attributes)
      .filter(([key, value]) => key !== "id" && key !== "class" && value !== undefined)
      .map(([key, value]) => ` ${attributeName(key)}="${escapeAttribute(value)}"`)
      .join("");
    emitter.write(
      `<form method="post" action="${formAction}"${id === undefined ? "" : ` id="${escapeAttribute(id)}"`}` +
        ` accept-charset="UTF-8"${cls === undefined ? "" : ` class="${escapeAttribute(cls)}"`}` +
        ` enctype="multipart/form-data"${extra}>` +
        `<input type="hidden" name="form_type" value="${type}" />` +
        `<input type="hidden" name="utf8" value="✓" />`,
    );
    if (type === "localization") {
      const path = ctx.getSync(["request", "path"]);
      emitter.write(
        `<input type="hidden" name="_method" value="put" />` +
          `<input type="hidden" name="return_to" value="${escapeAttribute(path ?? "/")}" />`,
      );
    }
    if (this.object !== undefined) {
      // Shopify's object form (product): nothing more to write; the theme writes the variant input.
      yield this.object.value(ctx);
    }
    ctx.push({ form: formDrop(type) });
    yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
    ctx.pop();
    emitter.write("</form>");
  }
}

function formDrop(type: string) {
  return {
    type,
    errors: null,
    "posted_successfully?": false,
    email: null,
    id: `${type}_form`,
  };
}

/** A tag that writes what `renderNamed` renders for its one argument, a name. */
function namedRenderTag(renderNamed: (ctx: Context, name: string) => Promise<string>) {
  return class extends Tag {
    private readonly nameValue: Value;
    constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
      super(token, remainTokens, liquid);
      this.nameValue = new Value(token.args, liquid);
    }
    *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
      const name = String(yield this.nameValue.value(ctx));
      emitter.write(yield renderNamed(ctx, name));
    }
  };
}

/**
 * `render`, plus Shopify's `{% render block %}`: an app block renders the extension's Liquid.
 * Shopify also lets a snippet read `section` without it being passed; the section is a global
 * of its render here, so snippets see it.
 */
class ShopifyRenderTag extends RenderTag {
  private readonly variable: Value | undefined;
  constructor(
    token: TagToken,
    remainTokens: TopLevelToken[],
    liquid: Liquid,
    parser: Parser,
    private readonly hooks: ThemeHooks,
  ) {
    super(token, remainTokens, liquid, parser);
    const args = token.args.trim();
    this.variable = /^[A-Za-z_][\w.]*$/.test(args) ? new Value(args, liquid) : undefined;
  }
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    if (this.variable !== undefined) {
      const target: unknown = yield this.variable.value(ctx);
      if (target instanceof AppBlockDrop) {
        emitter.write(yield this.hooks.renderAppBlock(ctx, target));
        return;
      }
    }
    yield* super.render(ctx, emitter);
  }
}

export interface PaginateDrop {
  current_offset: number;
  current_page: number;
  items: number;
  page_size: number;
  pages: number;
  previous: { title: string; url: string; is_link: boolean } | null;
  next: { title: string; url: string; is_link: boolean } | null;
  parts: { title: string; url: string; is_link: boolean }[];
  page_param: string;
}

/** `{% paginate collection.products by 12 %}`: the block sees one page of the list. */
class PaginateTag extends Tag {
  private readonly path: string[];
  private readonly pageSize: Value;
  private readonly templates: Template[];
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    const match = /^\s*([\w.]+)\s+by\s+([\s\S]+?)\s*$/.exec(token.args);
    if (!match?.[1] || !match[2]) throw new Error(`paginate: cannot read ${token.getText()}`);
    this.path = match[1].split(".");
    this.pageSize = new Value(match[2], liquid);
    this.templates = parseBody("paginate", token, remainTokens, parser);
  }
  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    const pageSize = Math.max(1, Number(yield this.pageSize.value(ctx)) || 1);
    const chain: unknown[] = [ctx.getSync([this.path[0] ?? ""])];
    for (const key of this.path.slice(1)) {
      const parent = chain[chain.length - 1];
      chain.push(
        isJsonObject(parent) || parent instanceof Drop ? Reflect.get(parent, key) : undefined,
      );
    }
    const list = chain[chain.length - 1];
    const items = Array.isArray(list) ? list : [];
    const pageParam = "page";
    const requested = Number(ctx.getSync(["request", "page"])) || 1;
    const pages = Math.max(1, Math.ceil(items.length / pageSize));
    const page = Math.min(Math.max(1, requested), pages);
    // Copy the path's objects so the block sees the page in place of the whole list.
    let replaced: unknown = items.slice((page - 1) * pageSize, page * pageSize);
    for (let at = this.path.length - 1; at >= 1; at -= 1) {
      const parent = chain[at - 1];
      const key = this.path[at] ?? "";
      replaced =
        parent instanceof Drop
          ? Object.assign(
              Object.create(Object.getPrototypeOf(parent) as object) as object,
              parent,
              {
                [key]: replaced,
              },
            )
          : { ...(parent as object), [key]: replaced };
    }
    const path = String(ctx.getSync(["request", "path"]) ?? "/");
    const link = (n: number) => `${path}?${pageParam}=${n}`;
    const paginate: PaginateDrop = {
      current_offset: (page - 1) * pageSize,
      current_page: page,
      items: items.length,
      page_size: pageSize,
      pages,
      previous: page > 1 ? { title: "&laquo; Previous", url: link(page - 1), is_link: true } : null,
      next: page < pages ? { title: "Next &raquo;", url: link(page + 1), is_link: true } : null,
      parts: Array.from({ length: pages }, (_, index) => ({
        title: String(index + 1),
        url: link(index + 1),
        is_link: index + 1 !== page,
      })),
      page_param: pageParam,
    };
    ctx.push({ [this.path[0] ?? ""]: replaced, paginate });
    yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
    ctx.pop();
  }
}

function interpolate(text: string, params: Record<string, unknown>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    params[name] === undefined || params[name] === null ? "" : String(params[name]),
  );
}

/** Shopify's plural keys for English-like locales: zero/one/other. */
export function translationOf(
  value: unknown,
  key: string,
  params: Record<string, unknown>,
): string | undefined {
  if (typeof value === "string") return interpolate(value, params);
  if (isJsonObject(value) && params.count !== undefined) {
    const count = Number(params.count);
    const form = count === 0 && "zero" in value ? "zero" : count === 1 ? "one" : "other";
    const text = value[form] ?? value.other;
    if (typeof text === "string") return interpolate(text, params);
  }
  void key;
  return undefined;
}

function shopOf(ctx: Context): {
  money_format: string;
  money_with_currency_format: string;
  currency_decimals: number;
  currency: string;
} {
  const shop = ctx.getSync(["shop"]);
  if (!isJsonObject(shop)) throw new Error("money filters need the shop object");
  return shop as unknown as {
    money_format: string;
    money_with_currency_format: string;
    currency_decimals: number;
    currency: string;
  };
}

function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function toColor(value: unknown): ColorDrop {
  if (value instanceof ColorDrop) return value;
  const color = ColorDrop.parse(String(value ?? ""));
  if (!color) throw new Error(`Not a colour: ${String(value)}`);
  return color;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === "" || value === false;
}

function hashOf(args: unknown[]): Record<string, unknown> {
  const hash: Record<string, unknown> = {};
  for (const arg of args) {
    if (Array.isArray(arg) && arg.length === 2 && typeof arg[0] === "string") hash[arg[0]] = arg[1];
  }
  return hash;
}

function positional(args: unknown[]): unknown[] {
  return args.filter(
    (arg) => !(Array.isArray(arg) && arg.length === 2 && typeof arg[0] === "string"),
  );
}

const PLACEHOLDER_SVG = (name: string, cls: string) =>
  `<svg class="${escapeHtml(cls)}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 525.5 525.5" data-placeholder="${escapeHtml(name)}">` +
  `<rect width="525.5" height="525.5" fill="#f2f2f2"/><path d="M172 345l66-88 48 64 38-46 69 70z" fill="#d6d6d6"/>` +
  `<circle cx="325" cy="200" r="28" fill="#d6d6d6"/></svg>`;

type Filter = (this: FilterThis, input: unknown, ...args: unknown[]) => unknown;

function money(this: FilterThis, input: unknown): string {
  const shop = shopOf(this.context);
  return formatMoney(Number(input ?? 0), shop.money_format, shop.currency_decimals);
}

function handleize(input: unknown): string {
  return String(input ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function cartItemsOf(cart: unknown): Record<string, unknown>[] {
  return isJsonObject(cart) && Array.isArray(cart.items)
    ? (cart.items as Record<string, unknown>[])
    : [];
}

function registerFilters(liquid: Liquid, hooks: ThemeHooks): void {
  const translate: Filter = (input, ...args) => hooks.translate(String(input), hashOf(args));
  const filters: Record<string, Filter> = {
    t: translate,
    // Shopify's docs name `t` "translate"; both spell the same filter.
    translate,
    money,
    money_with_currency(input) {
      const shop = shopOf(this.context);
      return formatMoney(
        Number(input ?? 0),
        shop.money_with_currency_format,
        shop.currency_decimals,
      );
    },
    money_without_currency(input) {
      const shop = shopOf(this.context);
      return formatMoney(Number(input ?? 0), "{{amount}}", shop.currency_decimals);
    },
    money_without_trailing_zeros(input) {
      const shop = shopOf(this.context);
      const text = formatMoney(Number(input ?? 0), shop.money_format, shop.currency_decimals);
      return text.replace(/([.,])0+(?!\d)/, "");
    },
    asset_url(input) {
      return hooks.assetUrl(String(input));
    },
    inline_asset_content(input) {
      return hooks.assetContent(String(input));
    },
    // The store has no product images: every image is nil and Dawn shows its placeholders.
    image_url(input) {
      if (isBlank(input)) return "";
      if (typeof input === "string") return input;
      const src = isJsonObject(input) ? input.src : undefined;
      return typeof src === "string" ? src : "";
    },
    img_url(input) {
      return typeof input === "string" ? input : "";
    },
    image_tag(input, ...args) {
      if (isBlank(input)) return "";
      const attributes = hashOf(args);
      const extra = Object.entries(attributes)
        .filter(
          ([key]) =>
            !["widths", "sizes", "preload"].includes(key) &&
            attributes[key] !== undefined &&
            attributes[key] !== null,
        )
        .map(([key, value]) => ` ${attributeName(key)}="${escapeHtml(value)}"`)
        .join("");
      return `<img src="${escapeHtml(input)}"${extra}>`;
    },
    stylesheet_tag(input) {
      return `<link href="${escapeHtml(input)}" rel="stylesheet" type="text/css" media="all" />`;
    },
    script_tag(input) {
      return `<script src="${escapeHtml(input)}" type="text/javascript"></script>`;
    },
    placeholder_svg_tag(input, cls) {
      return PLACEHOLDER_SVG(String(input), cls === undefined ? "" : String(cls));
    },
    font_face(input) {
      if (input instanceof FontDrop && input["system?"]) return "";
      throw new Error(`font_face: only system fonts are available offline, not ${String(input)}`);
    },
    font_url(input) {
      if (input instanceof FontDrop) return "";
      throw new Error(`font_url needs a font, not ${String(input)}`);
    },
    font_modify(input, property, value) {
      if (!(input instanceof FontDrop)) return null;
      return input.modified(String(property), String(value));
    },
    color_brightness(input) {
      return Math.round(toColor(input).brightness * 100) / 100;
    },
    color_lighten(input, amount) {
      return toColor(input).withLightness(Number(amount));
    },
    color_darken(input, amount) {
      return toColor(input).withLightness(-Number(amount));
    },
    color_to_rgb(input) {
      const color = toColor(input);
      return color.alpha < 1
        ? `rgba(${color.red}, ${color.green}, ${color.blue}, ${color.alpha})`
        : `rgb(${color.red}, ${color.green}, ${color.blue})`;
    },
    color_modify(input, property, value) {
      const color = toColor(input);
      const amount = Number(value);
      switch (String(property)) {
        case "alpha":
          return new ColorDrop(color.red, color.green, color.blue, amount);
        case "red":
          return new ColorDrop(amount, color.green, color.blue, color.alpha);
        case "green":
          return new ColorDrop(color.red, amount, color.blue, color.alpha);
        case "blue":
          return new ColorDrop(color.red, color.green, amount, color.alpha);
        case "lightness":
          return ColorDrop.fromHsl(color.hsl.hue, color.hsl.saturation, amount, color.alpha);
        default:
          throw new Error(`color_modify does not know ${String(property)}`);
      }
    },
    json(input) {
      return JSON.stringify(input ?? null, (_key, value: unknown) =>
        value instanceof Drop ? (value.valueOf() as unknown) : value,
      )
        .replace(/</g, "\\u003c")
        .replace(/>/g, "\\u003e");
    },
    link_to(input, url, title) {
      const titleAttribute = title === undefined ? "" : ` title="${escapeHtml(title)}"`;
      return `<a href="${escapeHtml(url)}"${titleAttribute}>${String(input ?? "")}</a>`;
    },
    within(input, collection) {
      const handle = isJsonObject(collection) ? collection.handle : undefined;
      return typeof handle === "string" ? `/collections/${handle}${String(input)}` : input;
    },
    default_pagination(input) {
      if (!isJsonObject(input)) return "";
      const paginate = input as unknown as PaginateDrop;
      const link = (part: { title: string; url: string; is_link: boolean }, cls: string) =>
        part.is_link
          ? `<span class="${cls}"><a href="${escapeHtml(part.url)}">${part.title}</a></span>`
          : `<span class="${cls} current">${part.title}</span>`;
      return [
        paginate.previous ? link(paginate.previous, "prev") : "",
        ...paginate.parts.map((part) => link(part, "page")),
        paginate.next ? link(paginate.next, "next") : "",
      ].join(" ");
    },
    structured_data(input) {
      if (!isJsonObject(input)) return "";
      const shop = this.context.getSync(["shop"]) as
        { name?: string; currency?: string } | undefined;
      const variants = Array.isArray(input.variants)
        ? (input.variants as Record<string, unknown>[])
        : [];
      const data = {
        "@context": "http://schema.org/",
        "@type": "Product",
        name: input.title,
        url: input.url,
        brand: { "@type": "Brand", name: input.vendor },
        offers: variants.map((variant) => ({
          "@type": "Offer",
          sku: variant.sku,
          availability: variant.available
            ? "http://schema.org/InStock"
            : "http://schema.org/OutOfStock",
          price: Number(variant.price) / 100,
          priceCurrency: shop?.currency,
          url: `${String(input.url)}?variant=${String(variant.id)}`,
        })),
      };
      return `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
    },
    payment_type_svg_tag(input, ...args) {
      const cls = hashOf(args).class;
      return `<svg class="${escapeHtml(cls ?? "")}" xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 38 24" width="38" height="24" aria-labelledby="pi-${escapeHtml(input)}"><title id="pi-${escapeHtml(input)}">${escapeHtml(input)}</title><rect width="38" height="24" rx="3" fill="#f2f2f2"/></svg>`;
    },
    payment_type_img_url() {
      return "";
    },
    highlight(input, terms) {
      const text = String(input ?? "");
      const words = String(terms ?? "")
        .split(/\s+/)
        .filter((word) => word !== "")
        .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
      if (words.length === 0) return text;
      return text.replace(
        new RegExp(`(${words.join("|")})`, "gi"),
        '<strong class="highlight">$1</strong>',
      );
    },
    url_param_escape(input) {
      return encodeURIComponent(String(input ?? "")).replace(/%20/g, "+");
    },
    url_escape(input) {
      return encodeURI(String(input ?? ""));
    },
    handleize,
    // Shopify's alias of handleize.
    handle: handleize,
    pluralize(input, singular, plural) {
      return Number(input) === 1 ? singular : plural;
    },
    item_count_for_variant(input, variantId) {
      return cartItemsOf(input)
        .filter((item) => String(item.variant_id) === String(variantId))
        .reduce((sum, item) => sum + Number(item.quantity), 0);
    },
    line_items_for(input, object) {
      const items = cartItemsOf(input);
      const id =
        isJsonObject(object) || object instanceof Drop
          ? String(Reflect.get(object, "id"))
          : String(object);
      return items.filter(
        (item) => String(item.variant_id) === id || String(item.product_id) === id,
      );
    },
    format_address(input) {
      if (!isJsonObject(input)) return "";
      const lines = [
        `${String(input.first_name ?? "")} ${String(input.last_name ?? "")}`.trim(),
        input.company,
        input.address1,
        input.address2,
        [input.city, input.province_code, input.zip].filter((part) => !isBlank(part)).join(" "),
        input.country,
      ].filter((line) => !isBlank(line));
      return `<p>${lines.map((line) => escapeHtml(line)).join("<br>")}</p>`;
    },
    time_tag(input, format) {
      const date = new Date(String(input));
      if (Number.isNaN(date.getTime())) return "";
      const text = format === undefined ? date.toUTCString() : date.toISOString().slice(0, 10);
      return `<time datetime="${date.toISOString()}">${escapeHtml(text)}</time>`;
    },
    media_tag() {
      return "";
    },
    video_tag() {
      return "";
    },
    external_video_url(input) {
      const video = isJsonObject(input) ? input : {};
      if (video.host === "youtube")
        return `https://www.youtube.com/embed/${String(video.external_id ?? video.id ?? "")}`;
      if (video.host === "vimeo")
        return `https://player.vimeo.com/video/${String(video.external_id ?? video.id ?? "")}`;
      return "";
    },
    external_video_tag(input, ...args) {
      const cls = hashOf(args).class;
      return `<iframe src="${escapeHtml(input)}" class="${escapeHtml(cls ?? "")}" allow="autoplay; encrypted-media" allowfullscreen title=""></iframe>`;
    },
    avatar() {
      return "";
    },
    login_button() {
      return "";
    },
    payment_button() {
      // Dynamic checkout buttons are Shopify's payment providers; none exist offline.
      return "";
    },
    payment_terms() {
      return "";
    },
    default_errors(input) {
      if (!isJsonObject(input) || !Array.isArray(input.messages)) return "";
      return `<div class="errors"><ul>${(input.messages as unknown[]).map((message) => `<li>${escapeHtml(message)}</li>`).join("")}</ul></div>`;
    },
    // No product here has a unit measurement, so the unit price is plain money.
    unit_price_with_measurement: money,
  };
  for (const [name, implementation] of Object.entries(filters)) {
    liquid.registerFilter(name, function (
      this: FilterThis,
      input: unknown,
      ...args: unknown[]
    ): unknown {
      return implementation.call(this, input, ...positionalFirst(args));
    } as Parameters<Liquid["registerFilter"]>[1]);
  }
}

// liquidjs passes `key: value` arguments as [key, value] pairs; positional ones come first.
function positionalFirst(args: unknown[]): unknown[] {
  return [...positional(args), ...args.filter((arg) => !positional(args).includes(arg))];
}

export const SHOPIFY_FILTERS_IMPLEMENTED = (liquid: Liquid): string[] =>
  Object.keys((liquid as unknown as { filters: Record<string, unknown> }).filters);

/** A liquidjs engine with Shopify's tags and filters; snippets come from `partialsDir`. */
export function createShopifyLiquid(partialsDir: string, hooks: ThemeHooks): Liquid {
  const liquid = new Liquid({
    root: [partialsDir],
    partials: [partialsDir],
    extname: ".liquid",
    cache: true,
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: false,
    jsTruthy: false,
    dynamicPartials: true,
    relativeReference: false,
    keyValueSeparator: ":",
  });
  liquid.registerTag("schema", rawBlockTag("schema"));
  liquid.registerTag("javascript", rawBlockTag("javascript"));
  liquid.registerTag("stylesheet", rawBlockTag("stylesheet"));
  liquid.registerTag("doc", rawBlockTag("doc"));
  liquid.registerTag("style", StyleTag);
  liquid.registerTag("form", FormTag);
  liquid.registerTag("paginate", PaginateTag);
  liquid.registerTag(
    "section",
    namedRenderTag(async (ctx, name) => {
      const html = await hooks.renderStaticSection(ctx, name);
      if (html === null) throw new Error(`section tag: the theme has no section ${name}`);
      return html;
    }),
  );
  liquid.registerTag(
    "sections",
    namedRenderTag((ctx, name) => hooks.renderSectionGroup(ctx, name)),
  );
  liquid.registerTag(
    "render",
    class extends ShopifyRenderTag {
      constructor(token: TagToken, remainTokens: TopLevelToken[], engine: Liquid, parser: Parser) {
        super(token, remainTokens, engine, parser, hooks);
      }
    },
  );
  registerFilters(liquid, hooks);
  return liquid;
}
