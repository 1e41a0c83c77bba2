import { readFileSync } from "node:fs";
import path from "node:path";
import { Liquid, TokenKind, type TagToken, type TopLevelToken } from "liquidjs";
import { repoRoot } from "../support/test-env";

/*
 * The Liquid of the extension and of the harness theme, rendered with liquidjs and the part of
 * Shopify's Liquid they use: the `t` filter on locale files, `money`, `asset_url`, and the
 * `schema` tag (read by the harness, rendered as nothing).
 */

export const extensionDir = path.join(repoRoot, "extensions/svc-protection");
export const themeDir = path.join(repoRoot, "test/storefront/theme");

export type BlockSchema = {
  name: string;
  target: string;
  javascript?: string;
  stylesheet?: string;
  settings?: { id: string; default?: unknown }[];
};

type Translations = Record<string, unknown>;

function readJson(file: string): Translations {
  return JSON.parse(readFileSync(file, "utf8")) as Translations;
}

function lookup(translations: Translations, key: string): string | undefined {
  let node: unknown = translations;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Translations)[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** Shopify's money formats, for the theme's prices (the extension has its own, in its JS). */
export function formatMoney(cents: number, format: string): string {
  const amount = (decimals: number, thousands = ",", point = ".") => {
    const [whole = "", fraction] = (cents / 100).toFixed(decimals).split(".");
    return whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands) + (fraction ? point + fraction : "");
  };
  const styles: Record<string, () => string> = {
    amount: () => amount(2),
    amount_no_decimals: () => amount(0),
    amount_with_comma_separator: () => amount(2, ".", ","),
    amount_no_decimals_with_comma_separator: () => amount(0, ".", ","),
    amount_with_apostrophe_separator: () => amount(2, "'", "."),
    amount_with_space_separator: () => amount(2, " ", ","),
    amount_no_decimals_with_space_separator: () => amount(0, " ", ","),
    amount_with_period_and_space_separator: () => amount(2, " ", "."),
  };
  return format.replace(/\{\{\s*(\w+)\s*\}\}/, (_, name: string) =>
    (styles[name] ?? styles.amount!)(),
  );
}

function createEngine(options: {
  root: string;
  locales: (locale: string) => Translations;
  assetUrl: (name: string) => string;
}): Liquid {
  const engine = new Liquid({ root: options.root, extname: ".liquid", cache: true });
  engine.registerTag("schema", {
    parse(_token: TagToken, remaining: TopLevelToken[]) {
      for (let token = remaining.shift(); token; token = remaining.shift()) {
        if (token.kind === TokenKind.Tag && (token as TagToken).name === "endschema") return;
      }
      throw new Error("{% schema %} is not closed");
    },
    render() {
      return "";
    },
  });
  engine.registerFilter("t", function (this: { context: { getSync(p: string[]): unknown } }, key) {
    const locale = String(this.context.getSync(["request", "locale", "iso_code"]) ?? "en");
    const text =
      lookup(options.locales(locale), String(key)) ?? lookup(options.locales("en"), String(key));
    if (text === undefined) return `translation missing: ${locale}.${String(key)}`;
    return text;
  });
  engine.registerFilter(
    "money",
    function (this: { context: { getSync(p: string[]): unknown } }, cents) {
      return formatMoney(Number(cents), String(this.context.getSync(["shop", "money_format"])));
    },
  );
  engine.registerFilter("asset_url", (name) => options.assetUrl(String(name)));
  return engine;
}

const extensionLocales = new Map<string, Translations>();
function extensionTranslations(locale: string): Translations {
  const file = locale === "en" ? "en.default.json" : `${locale.split("-")[0]}.json`;
  if (!extensionLocales.has(file)) {
    try {
      extensionLocales.set(file, readJson(path.join(extensionDir, "locales", file)));
    } catch {
      extensionLocales.set(file, {});
    }
  }
  return extensionLocales.get(file) ?? {};
}

export const extensionLiquid = createEngine({
  root: path.join(extensionDir, "blocks"),
  locales: extensionTranslations,
  assetUrl: (name) => `/extensions/svc-protection/assets/${name}`,
});

const themeLocales = readJson(path.join(themeDir, "locales.json"));
export const themeLiquid = createEngine({
  root: themeDir,
  locales: (locale) => (themeLocales[locale.split("-")[0] ?? "en"] as Translations) ?? {},
  assetUrl: (name) => `/theme/assets/${name}`,
});

/** The JSON of a block's {% schema %}. */
export function readBlockSchema(block: string): BlockSchema {
  const source = readFileSync(path.join(extensionDir, "blocks", `${block}.liquid`), "utf8");
  const match = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/.exec(source);
  if (!match?.[1]) throw new Error(`blocks/${block}.liquid has no schema`);
  return JSON.parse(match[1]) as BlockSchema;
}

/** A block's settings: the schema's defaults, then the given values. */
export function blockSettings(block: string, values: Record<string, unknown> = {}) {
  const settings: Record<string, unknown> = {};
  for (const setting of readBlockSchema(block).settings ?? []) {
    settings[setting.id] = setting.default ?? "";
  }
  return { ...settings, ...values };
}
