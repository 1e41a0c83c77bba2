import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Drop, type Context, type Liquid, type Template } from "liquidjs";
import type { StorefrontRequest } from "../contract";
import { appBlockOf, installApp, type AppSwitches } from "./editor";
import {
  extensionDir,
  isJsonObject,
  lookupTranslation,
  readThemeJson,
  schemaOf,
  themeDirOf,
  type JsonObject,
  type ThemeName,
} from "./files";
import { AppBlockDrop, createShopifyLiquid, translationOf, type ThemeHooks } from "./liquid";
import {
  appNamespaceOf,
  CartDrop,
  collectionObject,
  linklistsObject,
  localeObject,
  localizationObject,
  productObject,
  ROUTES,
  shopObject,
  type LiquidObject,
  type ProductSelection,
} from "./objects";
import { ColorDrop, ColorSchemeDrop, FontDrop } from "./values";

/*
 * An Online Store 2.0 theme (Dawn, or our basic theme) rendered as Shopify renders it: a JSON
 * template's sections, each wrapped in its `shopify-section` element, inside layout/theme.liquid
 * with the header and footer groups. The same code answers the Section Rendering API
 * (`?section_id=`, `?sections=`, and the cart API's `sections`), so what the theme's JS swaps in
 * is what the page first showed.
 */

export const THEME_ID = "1";
export const THEME_ASSET_PREFIX = `/cdn/shop/t/${THEME_ID}/assets/`;
export const COMPILED_ASSET_PREFIX = `/cdn/shop/t/${THEME_ID}/compiled_assets/`;
export const EXTENSION_ASSET_PREFIX = "/cdn/shop/extensions/svc-protection/assets/";

export type TemplateName = "index" | "product" | "collection" | "cart" | "404";

/** Shopify's template IDs appear in section IDs (`template--<id>__main`). */
const TEMPLATE_IDS: Record<TemplateName, string> = {
  index: "24000000000001",
  product: "24000000000002",
  collection: "24000000000003",
  cart: "24000000000004",
  "404": "24000000000005",
};
const GROUP_IDS: Record<string, string> = {
  "header-group": "24000000000101",
  "footer-group": "24000000000102",
};

/** What a URL shows: the template and its subject. */
export interface Page {
  template: TemplateName;
  path: string;
  query: URLSearchParams;
  productHandle?: string;
  collectionHandle?: string;
}

export function pageOf(url: string): Page {
  const parsed = new URL(url, "http://storefront.invalid");
  const pathName = decodeURIComponent(parsed.pathname).replace(/\/+$/, "") || "/";
  const base = { path: pathName, query: parsed.searchParams };
  const product = /^\/(?:collections\/[^/]+\/)?products\/([^/]+)$/.exec(pathName);
  if (product?.[1]) return { ...base, template: "product", productHandle: product[1] };
  const collection = /^\/collections\/([^/]+)$/.exec(pathName);
  if (collection?.[1]) return { ...base, template: "collection", collectionHandle: collection[1] };
  if (pathName === "/cart") return { ...base, template: "cart" };
  if (pathName === "/") return { ...base, template: "index" };
  return { ...base, template: "404" };
}

class TemplateDrop extends Drop {
  readonly directory = null;
  readonly suffix = null;
  constructor(readonly name: string) {
    super();
  }
  override valueOf(): string {
    return this.name;
  }
  override toString(): string {
    return this.name;
  }
}

interface SectionData {
  type: string;
  settings?: JsonObject;
  blocks?: Record<string, JsonObject>;
  block_order?: string[];
  disabled?: boolean;
}

interface SectionSource {
  templates: Template[];
  schema: JsonObject;
}

/** What one render collects: the app blocks' assets, the body embeds. */
interface RenderState {
  request: StorefrontRequest;
  page: Page;
  appAssets: Set<string>;
  files: { productTemplate: JsonObject; settingsData: JsonObject };
  products: LiquidObject[];
  productsById: Map<string, LiquidObject>;
}

const RENDER_STATE = Symbol("renderState");

function stateOf(ctx: Context): RenderState {
  const state = (ctx.globals as Record<symbol, unknown>)[RENDER_STATE];
  if (!state) throw new Error("A section rendered outside a storefront render");
  return state as RenderState;
}

/** A section or block file, read and parsed on first use; later renders share the parse. */
function parsedOnce(
  cache: Map<string, Promise<SectionSource>>,
  key: string,
  liquid: Liquid,
  file: string,
): Promise<SectionSource> {
  let source = cache.get(key);
  if (!source) {
    source = (async () => {
      const text = readFileSync(file, "utf8");
      return { templates: liquid.parse(text, file), schema: schemaOf(text, file) };
    })();
    cache.set(key, source);
  }
  return source;
}

/** The bodies of a file's `{% tag %}…{% endtag %}` blocks, as written. */
function rawBodiesOf(source: string, tag: string): string[] {
  const block = new RegExp(
    `\\{%-?\\s*${tag}\\s*-?%\\}([\\s\\S]*?)\\{%-?\\s*end${tag}\\s*-?%\\}`,
    "g",
  );
  return Array.from(source.matchAll(block), (match) => match[1] ?? "");
}

function versionOf(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 10);
}

function escapeScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

export class StorefrontTheme {
  readonly name: ThemeName;
  readonly dir: string;
  /** settings_schema.json's theme_info, for `Shopify.theme` and messages. */
  private readonly info: { name: string; version: string; storeId: number | null };
  readonly extensionDir: string;
  private readonly liquid: Liquid;
  private readonly extensionLiquid: Liquid;
  private readonly locale: JsonObject;
  private readonly schemaLocale: JsonObject;
  private readonly systemLocale: JsonObject;
  private readonly extensionLocale: JsonObject;
  private readonly extensionSchemaLocale: JsonObject;
  private readonly settingsSchema: JsonObject[];
  private readonly sections = new Map<string, Promise<SectionSource>>();
  private readonly appBlocks = new Map<string, Promise<SectionSource>>();
  private readonly assetVersions = new Map<string, string>();
  /** Every `{% javascript %}` and `{% stylesheet %}` of the theme, as Shopify compiles them. */
  readonly compiledAssets: { scripts: string; styles: string };

  constructor(options: { name: ThemeName; dir?: string; extensionDir?: string }) {
    this.name = options.name;
    this.dir = options.dir ?? themeDirOf(options.name);
    this.extensionDir = options.extensionDir ?? extensionDir();
    this.locale = readThemeJson(path.join(this.dir, "locales/en.default.json"));
    this.schemaLocale = readThemeJson(path.join(this.dir, "locales/en.default.schema.json"));
    this.extensionLocale = readThemeJson(path.join(this.extensionDir, "locales/en.default.json"));
    this.extensionSchemaLocale = readThemeJson(
      path.join(this.extensionDir, "locales/en.default.schema.json"),
    );
    const require = createRequire(import.meta.url);
    this.systemLocale = JSON.parse(
      readFileSync(
        require.resolve("@shopify/theme-check-docs-updater/data/shopify_system_translations.json"),
        "utf8",
      ),
    ) as JsonObject;
    this.settingsSchema = JSON.parse(
      readFileSync(path.join(this.dir, "config/settings_schema.json"), "utf8"),
    ) as JsonObject[];
    const info = this.settingsSchema.find((group) => group.name === "theme_info") ?? {};
    this.info = {
      name: typeof info.theme_name === "string" ? info.theme_name : options.name,
      version: typeof info.theme_version === "string" ? info.theme_version : "0.0.0",
      // Only a theme from Shopify's theme store has an ID there (Dawn's is 887).
      storeId: options.name === "dawn" ? 887 : null,
    };
    this.compiledAssets = this.compileAssets();
    this.liquid = createShopifyLiquid(path.join(this.dir, "snippets"), this.hooks("theme"));
    this.extensionLiquid = createShopifyLiquid(
      path.join(this.extensionDir, "snippets"),
      this.hooks("extension"),
    );
  }

  private hooks(kind: "theme" | "extension"): ThemeHooks {
    return {
      translate: (key, params) => this.translate(kind, key, params),
      assetUrl: (file) => this.assetUrl(kind, file),
      assetContent: (file) => readFileSync(this.assetPath(kind, file), "utf8"),
      renderStaticSection: async (ctx, type) => {
        const state = stateOf(ctx);
        return this.renderSectionById(state, ctx.globals as LiquidObject, type);
      },
      renderSectionGroup: async (ctx, group) =>
        this.renderGroup(stateOf(ctx), ctx.globals as LiquidObject, group),
      renderAppBlock: async (ctx, block) => {
        if (!(block instanceof AppBlockDrop)) throw new Error("render block needs an app block");
        return this.renderAppBlock(stateOf(ctx), ctx, block);
      },
    };
  }

  private translate(
    kind: "theme" | "extension",
    key: string,
    params: Record<string, unknown>,
  ): string {
    const locale = kind === "theme" ? this.locale : this.extensionLocale;
    const value = lookupTranslation(locale, key) ?? lookupTranslation(this.systemLocale, key);
    const text = translationOf(value, key, params);
    if (text === undefined) {
      throw new Error(
        `Translation missing: en.${key} (${kind === "theme" ? this.info.name : "svc-protection"})`,
      );
    }
    return text;
  }

  /** A schema's `t:` label or default, from the schema locale. */
  private schemaText(kind: "theme" | "extension", value: unknown): unknown {
    if (typeof value !== "string" || !value.startsWith("t:")) return value;
    const locale = kind === "theme" ? this.schemaLocale : this.extensionSchemaLocale;
    const text = lookupTranslation(locale, value.slice(2));
    if (typeof text !== "string") throw new Error(`Schema translation missing: ${value}`);
    return text;
  }

  assetPath(kind: "theme" | "extension", file: string): string {
    const dir = path.join(kind === "theme" ? this.dir : this.extensionDir, "assets");
    const resolved = path.resolve(dir, file);
    if (!resolved.startsWith(dir + path.sep) || !existsSync(resolved)) {
      throw new Error(
        `Asset ${file} is not in ${kind === "theme" ? this.info.name : "svc-protection"}`,
      );
    }
    return resolved;
  }

  private assetUrl(kind: "theme" | "extension", file: string): string {
    const key = `${kind}:${file}`;
    let version = this.assetVersions.get(key);
    if (version === undefined) {
      const full = path.join(kind === "theme" ? this.dir : this.extensionDir, "assets", file);
      version = existsSync(full) ? versionOf(readFileSync(full)) : "0";
      this.assetVersions.set(key, version);
    }
    const prefix = kind === "theme" ? THEME_ASSET_PREFIX : EXTENSION_ASSET_PREFIX;
    return `${prefix}${file}?v=${version}`;
  }

  private compileAssets(): { scripts: string; styles: string } {
    const scripts: string[] = [];
    const styles: string[] = [];
    for (const folder of ["sections", "snippets", "blocks"]) {
      const dir = path.join(this.dir, folder);
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir)
        .filter((name) => name.endsWith(".liquid"))
        .sort()) {
        const source = readFileSync(path.join(dir, file), "utf8");
        const name = `${folder}/${file}`;
        for (const body of rawBodiesOf(source, "javascript"))
          scripts.push(`/* ${name} */\n(function() {\n${body}\n})();\n`);
        for (const body of rawBodiesOf(source, "stylesheet"))
          styles.push(`/* ${name} */\n${body}\n`);
      }
    }
    return { scripts: scripts.join("\n"), styles: styles.join("\n") };
  }

  private sectionSource(type: string): Promise<SectionSource> {
    const file = path.join(this.dir, "sections", `${type}.liquid`);
    return parsedOnce(this.sections, type, this.liquid, file);
  }

  private appBlockSource(block: string): Promise<SectionSource> {
    const file = path.join(this.extensionDir, "blocks", `${block}.liquid`);
    return parsedOnce(this.appBlocks, block, this.extensionLiquid, file);
  }

  private layoutCache: Template[] | undefined;

  private layoutTemplates(): Template[] {
    if (!this.layoutCache) {
      const file = path.join(this.dir, "layout/theme.liquid");
      this.layoutCache = this.liquid.parse(readFileSync(file, "utf8"), file);
    }
    return this.layoutCache;
  }

  private hasSection(type: string): boolean {
    return /^[\w-]+$/.test(type) && existsSync(path.join(this.dir, "sections", `${type}.liquid`));
  }

  // --- settings -------------------------------------------------------------------------------

  private currentSettings(settingsData: JsonObject): JsonObject {
    const current = settingsData.current;
    if (isJsonObject(current)) return current;
    const presets = settingsData.presets;
    const preset = isJsonObject(presets) ? presets[String(current)] : undefined;
    return isJsonObject(preset) ? preset : {};
  }

  private colorSchemes(settingsData: JsonObject): ColorSchemeDrop[] {
    const current = this.currentSettings(settingsData);
    const definition = this.settingsSchema
      .flatMap((group) => (Array.isArray(group.settings) ? (group.settings as JsonObject[]) : []))
      .find((setting) => setting.type === "color_scheme_group");
    const fields = Array.isArray(definition?.definition)
      ? (definition.definition as JsonObject[])
      : [];
    const schemes = isJsonObject(current.color_schemes) ? current.color_schemes : {};
    return Object.entries(schemes).map(([id, scheme]) => {
      const saved = isJsonObject(scheme) && isJsonObject(scheme.settings) ? scheme.settings : {};
      const settings: Record<string, unknown> = {};
      for (const field of fields) {
        const fieldId = String(field.id);
        const value = saved[fieldId] ?? field.default ?? "";
        settings[fieldId] =
          field.type === "color" ? (ColorDrop.parse(String(value)) ?? null) : value;
      }
      return new ColorSchemeDrop(id, settings);
    });
  }

  /** A setting's value as Liquid sees it, by its schema type. */
  private typedSetting(setting: JsonObject, value: unknown, globals: LiquidObject): unknown {
    switch (setting.type) {
      case "color":
        return typeof value === "string" && value !== "" ? (ColorDrop.parse(value) ?? null) : null;
      case "color_scheme": {
        const schemes =
          (globals.settings as { color_schemes?: ColorSchemeDrop[] } | undefined)?.color_schemes ??
          [];
        return schemes.find((scheme) => scheme.id === value) ?? schemes[0] ?? null;
      }
      case "font_picker":
        return typeof value === "string" ? FontDrop.fromHandle(value) : null;
      case "image_picker":
      case "video":
      case "media":
      case "page":
      case "blog":
      case "article":
      case "metaobject":
        return null;
      case "product_list":
      case "collection_list":
      case "metaobject_list":
        return [];
      case "link_list": {
        const lists = globals.linklists as Record<string, unknown> | undefined;
        return typeof value === "string" ? (lists?.[value] ?? null) : null;
      }
      case "collection": {
        const collections = globals.collections as Record<string, unknown> | undefined;
        return typeof value === "string" && value !== "" ? (collections?.[value] ?? null) : null;
      }
      case "product": {
        const products = globals.all_products as Record<string, unknown> | undefined;
        return typeof value === "string" && value !== "" ? (products?.[value] ?? null) : null;
      }
      case "video_url": {
        if (typeof value !== "string" || value === "") return null;
        const youtube = /(?:youtube\.com\/watch\?v=|youtu\.be\/)([\w-]+)/.exec(value);
        const vimeo = /vimeo\.com\/(\d+)/.exec(value);
        if (youtube?.[1]) return { id: youtube[1], type: "youtube", url: value };
        if (vimeo?.[1]) return { id: vimeo[1], type: "vimeo", url: value };
        return null;
      }
      case "url":
        return value === "" ? null : (value ?? null);
      default:
        return value ?? null;
    }
  }

  private async settingsOf(
    kind: "theme" | "extension",
    definitions: JsonObject[],
    saved: JsonObject,
    globals: LiquidObject,
  ): Promise<Record<string, unknown>> {
    const settings: Record<string, unknown> = {};
    for (const definition of definitions) {
      if (typeof definition.id !== "string") continue;
      const raw =
        definition.id in saved ? saved[definition.id] : this.schemaText(kind, definition.default);
      let value = this.typedSetting(definition, raw, globals);
      // Dynamic sources ("{{ product.vendor }}") are resolved against the page, as Shopify does.
      if (typeof value === "string" && value.includes("{{")) {
        const engine = kind === "theme" ? this.liquid : this.extensionLiquid;
        value = await engine.parseAndRender(value, {}, { globals });
      }
      settings[definition.id] = value;
    }
    return settings;
  }

  private async globalSettings(
    settingsData: JsonObject,
    globals: LiquidObject,
  ): Promise<Record<string, unknown>> {
    const current = this.currentSettings(settingsData);
    const settings: Record<string, unknown> = { color_schemes: this.colorSchemes(settingsData) };
    const withSchemes = { ...globals, settings };
    for (const group of this.settingsSchema) {
      const definitions = Array.isArray(group.settings) ? (group.settings as JsonObject[]) : [];
      Object.assign(
        settings,
        await this.settingsOf(
          "theme",
          definitions.filter((definition) => definition.type !== "color_scheme_group"),
          current,
          withSchemes,
        ),
      );
    }
    return settings;
  }

  // --- sections -------------------------------------------------------------------------------

  private async sectionObject(
    id: string,
    data: SectionData,
    schema: JsonObject,
    globals: LiquidObject,
    index: number,
  ): Promise<LiquidObject> {
    const definitions = Array.isArray(schema.settings) ? (schema.settings as JsonObject[]) : [];
    const settings = await this.settingsOf("theme", definitions, data.settings ?? {}, globals);
    const blockSchemas = Array.isArray(schema.blocks) ? (schema.blocks as JsonObject[]) : [];
    const blocks: unknown[] = [];
    for (const blockId of data.block_order ?? Object.keys(data.blocks ?? {})) {
      const block = data.blocks?.[blockId];
      if (!block || block.disabled === true) continue;
      const type = String(block.type);
      const saved = isJsonObject(block.settings) ? block.settings : {};
      const app = appBlockOf(type);
      if (app) {
        const source = await this.appBlockSource(app.block);
        const appDefinitions = Array.isArray(source.schema.settings)
          ? (source.schema.settings as JsonObject[])
          : [];
        blocks.push(
          new AppBlockDrop(
            blockId,
            "@app",
            await this.settingsOf("extension", appDefinitions, saved, globals),
            app.block,
          ),
        );
        continue;
      }
      const blockSchema = blockSchemas.find((candidate) => candidate.type === type);
      const blockDefinitions = Array.isArray(blockSchema?.settings)
        ? (blockSchema.settings as JsonObject[])
        : [];
      blocks.push({
        id: blockId,
        type,
        settings: await this.settingsOf("theme", blockDefinitions, saved, globals),
        shopify_attributes: "",
      });
    }
    return { id, settings, blocks, index, index0: index - 1, location: "template" };
  }

  private async renderSection(
    state: RenderState,
    globals: LiquidObject,
    id: string,
    data: SectionData,
    options: { groupClass?: string; index?: number } = {},
  ): Promise<string> {
    const source = await this.sectionSource(data.type);
    const section = await this.sectionObject(id, data, source.schema, globals, options.index ?? 1);
    const html = await this.liquid.render(
      source.templates,
      {},
      {
        globals: { ...globals, section, [RENDER_STATE]: state },
      },
    );
    const tag = typeof source.schema.tag === "string" ? source.schema.tag : "div";
    const classes = ["shopify-section", options.groupClass, source.schema.class]
      .filter((cls) => typeof cls === "string" && cls !== "")
      .join(" ");
    return `<${tag} id="shopify-section-${id}" class="${classes}">${html}</${tag}>`;
  }

  private groupFile(group: string): JsonObject {
    if (!/^[\w-]+$/.test(group)) throw new Error(`No section group ${group}`);
    return readThemeJson(path.join(this.dir, "sections", `${group}.json`));
  }

  private async renderGroup(
    state: RenderState,
    globals: LiquidObject,
    group: string,
  ): Promise<string> {
    return this.renderSectionsOf(
      state,
      globals,
      this.groupFile(group),
      `sections--${GROUP_IDS[group] ?? "0"}`,
      `shopify-section-group-${group}`,
    );
  }

  /** A JSON template's or section group's sections in its order, the disabled ones left out. */
  private async renderSectionsOf(
    state: RenderState,
    globals: LiquidObject,
    file: JsonObject,
    idPrefix: string,
    groupClass?: string,
  ): Promise<string> {
    const sections = (file.sections ?? {}) as Record<string, SectionData>;
    const order = (file.order ?? Object.keys(sections)) as string[];
    const parts: string[] = [];
    for (const [index, key] of order.entries()) {
      const data = sections[key];
      if (!data || data.disabled) continue;
      parts.push(
        await this.renderSection(state, globals, `${idPrefix}__${key}`, data, {
          groupClass,
          index: index + 1,
        }),
      );
    }
    return parts.join("\n");
  }

  private templateFile(state: RenderState, template: TemplateName): JsonObject {
    if (template === "product") return state.files.productTemplate;
    return readThemeJson(path.join(this.dir, "templates", `${template}.json`));
  }

  /** A section by its rendered ID: a template's, a group's, or a static section by its type. */
  private async renderSectionById(
    state: RenderState,
    globals: LiquidObject,
    id: string,
  ): Promise<string | null> {
    const inTemplate = /^template--(\d+)__([\w-]+)$/.exec(id);
    if (inTemplate?.[1] && inTemplate[2]) {
      const template = (Object.keys(TEMPLATE_IDS) as TemplateName[]).find(
        (name) => TEMPLATE_IDS[name] === inTemplate[1],
      );
      if (!template) return null;
      const file = this.templateFile(state, template);
      const sections = (file.sections ?? {}) as Record<string, SectionData>;
      const data = sections[inTemplate[2]];
      if (!data) return null;
      const order = (file.order ?? []) as string[];
      return this.renderSection(state, globals, id, data, {
        index: order.indexOf(inTemplate[2]) + 1,
      });
    }
    const inGroup = /^sections--(\d+)__([\w-]+)$/.exec(id);
    if (inGroup?.[1] && inGroup[2]) {
      const group = Object.keys(GROUP_IDS).find((name) => GROUP_IDS[name] === inGroup[1]);
      if (!group) return null;
      const file = this.groupFile(group);
      const data = ((file.sections ?? {}) as Record<string, SectionData>)[inGroup[2]];
      if (!data) return null;
      return this.renderSection(state, globals, id, data, {
        groupClass: `shopify-section-group-${group}`,
      });
    }
    if (!this.hasSection(id)) return null;
    const current = this.currentSettings(state.files.settingsData);
    const saved =
      isJsonObject(current.sections) && isJsonObject(current.sections[id])
        ? current.sections[id]
        : {};
    return this.renderSection(state, globals, id, { type: id, ...(saved as Partial<SectionData>) });
  }

  // --- app blocks -----------------------------------------------------------------------------

  private async renderAppBlock(
    state: RenderState,
    ctx: Context,
    block: AppBlockDrop,
  ): Promise<string> {
    const source = await this.appBlockSource(block.blockName);
    this.collectAppAssets(state, source.schema);
    const globals = { ...(ctx.globals as LiquidObject), block, [RENDER_STATE]: state };
    return this.extensionLiquid.render(source.templates, {}, { globals });
  }

  private collectAppAssets(state: RenderState, schema: JsonObject): void {
    if (typeof schema.stylesheet === "string")
      state.appAssets.add(this.stylesheetTag(this.assetUrl("extension", schema.stylesheet)));
    if (typeof schema.javascript === "string")
      state.appAssets.add(
        `<script src="${this.assetUrl("extension", schema.javascript)}" defer="defer"></script>`,
      );
  }

  private stylesheetTag(url: string): string {
    return `<link href="${url}" rel="stylesheet" type="text/css" media="all">`;
  }

  /** The body's app embeds switched on in settings data, rendered for before `</body>`. */
  private async renderEmbeds(state: RenderState, globals: LiquidObject): Promise<string> {
    const current = this.currentSettings(state.files.settingsData);
    const blocks = isJsonObject(current.blocks) ? current.blocks : {};
    const parts: string[] = [];
    for (const [id, block] of Object.entries(blocks)) {
      if (!isJsonObject(block) || block.disabled === true) continue;
      const app = appBlockOf(String(block.type));
      if (!app) continue;
      const source = await this.appBlockSource(app.block);
      if (source.schema.target !== "body") continue;
      this.collectAppAssets(state, source.schema);
      const definitions = Array.isArray(source.schema.settings)
        ? (source.schema.settings as JsonObject[])
        : [];
      const saved = isJsonObject(block.settings) ? block.settings : {};
      const drop = new AppBlockDrop(
        id,
        String(block.type),
        await this.settingsOf("extension", definitions, saved, globals),
        app.block,
      );
      parts.push(
        await this.extensionLiquid.render(
          source.templates,
          {},
          {
            globals: { ...globals, block: drop, [RENDER_STATE]: state },
          },
        ),
      );
    }
    return parts.join("\n");
  }

  // --- pages ----------------------------------------------------------------------------------

  private renderState(
    request: StorefrontRequest,
    switches: AppSwitches = request.app,
  ): RenderState {
    const productTemplate = readThemeJson(path.join(this.dir, "templates/product.json"));
    const settingsData = readThemeJson(path.join(this.dir, "config/settings_data.json"));
    const page = pageOf(request.url);
    const appNamespace = appNamespaceOf(request.shop);
    const selection: ProductSelection = {
      variantId: page.query.get("variant") ?? undefined,
      optionValueIds: page.query
        .get("option_values")
        ?.split(",")
        .filter((id) => id !== ""),
    };
    const products = request.products.map((product) =>
      productObject(product, appNamespace, product.handle === page.productHandle ? selection : {}),
    );
    return {
      request,
      page,
      appAssets: new Set(),
      files: installApp({ productTemplate, settingsData }, switches),
      products,
      productsById: new Map(products.map((product) => [String(product.id), product])),
    };
  }

  private async pageGlobals(state: RenderState, origin: string): Promise<LiquidObject> {
    const { request, page } = state;
    const product =
      page.productHandle === undefined
        ? undefined
        : state.products.find((candidate) => candidate.handle === page.productHandle);
    const all = collectionObject("all", "Products", state.products);
    const collections: Record<string, unknown> = {
      all,
      frontpage: collectionObject("frontpage", "Home page", state.products),
    };
    const collection =
      page.collectionHandle === undefined
        ? undefined
        : (collections[page.collectionHandle] as LiquidObject | undefined);
    const template =
      product || collection || page.template === "index" || page.template === "cart"
        ? page.template
        : "404";
    const host = new URL(origin).host;
    const pageTitle =
      template === "product"
        ? String(product?.title ?? "")
        : template === "collection"
          ? String(collection?.title ?? "")
          : template === "cart"
            ? "Your Shopping Cart"
            : template === "404"
              ? "404 Not Found"
              : request.shop.name;
    const recommendationsFor = page.query.get("product_id");
    const globals: LiquidObject = {
      shop: shopObject(request.shop, origin),
      cart: new CartDrop(request.cart, state.productsById),
      collections,
      all_products: Object.fromEntries(
        state.products.map((candidate) => [candidate.handle, candidate]),
      ),
      linklists: linklistsObject(),
      localization: localizationObject(request.shop),
      routes: ROUTES,
      request: {
        locale: localeObject(),
        page_type: template,
        path: page.path,
        host,
        origin,
        design_mode: false,
        visual_preview_mode: false,
        page: page.query.get("page") ?? "1",
      },
      template: new TemplateDrop(template),
      page_title: pageTitle,
      page_description: null,
      page_image: null,
      // Accelerated checkout buttons are Shopify's payment providers; none exist offline.
      additional_checkout_buttons: false,
      content_for_additional_checkout_buttons: "",
      canonical_url: `${origin}${page.path}`,
      current_page: Number(page.query.get("page") ?? 1),
      current_tags: null,
      customer: null,
      powered_by_link:
        '<a target="_blank" rel="nofollow" href="https://www.shopify.com?utm_campaign=poweredby">Powered by Shopify</a>',
      product: product ?? null,
      collection: collection ?? null,
      recommendations: {
        "performed?": recommendationsFor !== null,
        products: state.products
          .filter((candidate) => String(candidate.id) !== recommendationsFor)
          .slice(0, Number(page.query.get("limit") ?? 4)),
        products_count: Math.max(0, state.products.length - 1),
        intent: page.query.get("intent") ?? "related",
      },
      handle: product?.handle ?? collection?.handle ?? null,
      scripts: [],
      images: {},
      pages: {},
      blogs: {},
      articles: {},
      metaobjects: {},
      [RENDER_STATE]: state,
    };
    globals.settings = await this.globalSettings(state.files.settingsData, globals);
    return globals;
  }

  private contentForHeader(state: RenderState, origin: string): string {
    const shop = state.request.shop;
    const country = (localizationObject(shop).country as { iso_code: string }).iso_code;
    const shopify = [
      "window.Shopify = window.Shopify || {};",
      `Shopify.shop = ${escapeScript(shop.domain)};`,
      `Shopify.locale = "en";`,
      `Shopify.currency = ${escapeScript({ active: shop.currency, rate: "1.0" })};`,
      `Shopify.country = ${escapeScript(country)};`,
      `Shopify.theme = ${escapeScript({ name: this.info.name, id: Number(THEME_ID), schema_name: this.info.name, schema_version: this.info.version, theme_store_id: this.info.storeId, role: "main" })};`,
      `Shopify.cdnHost = ${escapeScript(`${new URL(origin).host}/cdn`)};`,
      "Shopify.routes = Shopify.routes || {};",
      `Shopify.routes.root = "/";`,
      `Shopify.designMode = false;`,
    ].join("\n");
    const version = versionOf(this.compiledAssets.scripts + this.compiledAssets.styles);
    return [
      `<script>${shopify}</script>`,
      `<script src="${COMPILED_ASSET_PREFIX}scripts.js?v=${version}" defer="defer"></script>`,
      this.compiledAssets.styles === ""
        ? ""
        : this.stylesheetTag(`${COMPILED_ASSET_PREFIX}styles.css?v=${version}`),
      ...state.appAssets,
    ]
      .filter((line) => line !== "")
      .join("\n");
  }

  /** The whole page for a request; `status` 404 when the product or collection is unknown. */
  async renderPage(
    request: StorefrontRequest,
    origin: string,
  ): Promise<{ status: number; html: string }> {
    const state = this.renderState(request);
    const globals = await this.pageGlobals(state, origin);
    const template = String(globals.template) as TemplateName;
    const content = await this.renderSectionsOf(
      state,
      globals,
      this.templateFile(state, template),
      `template--${TEMPLATE_IDS[template]}`,
    );
    const embeds = await this.renderEmbeds(state, globals);
    const layout = await this.liquid.render(
      this.layoutTemplates(),
      {},
      {
        globals: {
          ...globals,
          content_for_layout: content,
          content_for_header: this.contentForHeader(state, origin),
        },
      },
    );
    const at = layout.lastIndexOf("</body>");
    const html =
      at === -1 ? layout + embeds : `${layout.slice(0, at)}${embeds}\n${layout.slice(at)}`;
    return {
      status:
        template === "404" && state.page.template !== "404" ? 404 : template === "404" ? 404 : 200,
      html,
    };
  }

  /** The tags, filters and global objects this renderer gives Liquid (for coverage checks). */
  async implemented(
    request: StorefrontRequest,
  ): Promise<{ tags: string[]; filters: string[]; globals: string[] }> {
    const registry = this.liquid as unknown as {
      tags: Record<string, unknown>;
      filters: Record<string, unknown>;
    };
    const globals = await this.pageGlobals(this.renderState(request), "http://localhost");
    return {
      tags: Object.keys(registry.tags),
      filters: Object.keys(registry.filters),
      globals: [...Object.keys(globals), "content_for_layout", "content_for_header"],
    };
  }

  /** Renders a Liquid string as one of the theme's snippets would (for tests of the engine's strictness). */
  async renderLiquid(request: StorefrontRequest, source: string): Promise<string> {
    const state = this.renderState(request);
    const globals = await this.pageGlobals(state, "http://localhost");
    return this.liquid.parseAndRender(source, {}, { globals });
  }

  /** Sections by ID, as the Section Rendering API answers them (null for an unknown ID). */
  async renderSections(
    request: StorefrontRequest,
    sectionIds: string[],
    origin = "http://localhost",
  ): Promise<Record<string, string | null>> {
    const state = this.renderState(request);
    const globals = await this.pageGlobals(state, origin);
    const answers: Record<string, string | null> = {};
    for (const id of sectionIds) answers[id] = await this.renderSectionById(state, globals, id);
    return answers;
  }
}
