import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/*
 * Where the storefront's Liquid comes from: the published theme and the app's theme extension
 * (extensions/svc-protection). The theme is Shopify's Dawn when SHOPIFY_THEMES_DIR names a
 * folder holding dawn/ (read there, never edited or copied), else our own basic theme
 * (store/themes/basic), so a clone with nothing beside it has a working shop. Nothing here
 * looks beside the clone unless told to.
 */

export type ThemeName = "dawn" | "basic";

type Env = Record<string, string | undefined>;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export const BASIC_THEME_DIR = path.join(repoRoot, "store/themes/basic");

/** How to get Dawn, for a skipped test's name and the store's line about its theme. */
export const DAWN_HOW_TO =
  "set SHOPIFY_THEMES_DIR to a folder holding dawn/ (Shopify's Dawn 15.x, github.com/Shopify/dawn)";

function isTheme(dir: string): boolean {
  return existsSync(path.join(dir, "layout/theme.liquid"));
}

/**
 * Dawn's folder, from SHOPIFY_THEMES_DIR; undefined when the variable is not set. A variable
 * that names a folder without dawn/ is a mistake, not a request for the basic theme: it throws.
 */
export function dawnDir(env: Env = process.env): string | undefined {
  const themes = env.SHOPIFY_THEMES_DIR;
  if (themes === undefined || themes === "") return undefined;
  const dir = path.resolve(themes, "dawn");
  if (!isTheme(dir)) {
    throw new Error(`SHOPIFY_THEMES_DIR=${themes} holds no Dawn (no ${dir}/layout/theme.liquid)`);
  }
  return dir;
}

/** The theme the storefront renders unless a test names one: Dawn when it is given, else basic. */
export function defaultThemeName(env: Env = process.env): ThemeName {
  return dawnDir(env) === undefined ? "basic" : "dawn";
}

export function themeDirOf(name: ThemeName, env: Env = process.env): string {
  if (name === "basic") return BASIC_THEME_DIR;
  const dir = dawnDir(env);
  if (dir === undefined) throw new Error(`Dawn not found: ${DAWN_HOW_TO}`);
  return dir;
}

/** One line for the dev script and `npm run store`: which theme the storefront renders. */
export function describeStorefrontTheme(env: Env = process.env): string {
  const dawn = dawnDir(env);
  if (dawn !== undefined) return `Shopify's Dawn from ${dawn}`;
  return `the basic theme (store/themes/basic); for Shopify's Dawn, ${DAWN_HOW_TO}`;
}

export function extensionDir(): string {
  return path.join(repoRoot, "extensions/svc-protection");
}

export type JsonObject = Record<string, unknown>;

/** Shopify's theme JSON files may open with a comment block; JSON.parse would refuse it. */
export function readThemeJson(file: string): JsonObject {
  const text = readFileSync(file, "utf8").replace(/^\s*\/\*[\s\S]*?\*\//, "");
  try {
    return JSON.parse(text) as JsonObject;
  } catch (error) {
    throw new Error(`Failed to parse theme JSON ${file}: ${(error as Error).message}`);
  }
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SCHEMA = /\{%-?\s*schema\s*-?%\}([\s\S]*?)\{%-?\s*endschema\s*-?%\}/;

/** A section's or block's `{% schema %}`, read from its source. */
export function schemaOf(source: string, file: string): JsonObject {
  const match = SCHEMA.exec(source);
  if (!match?.[1]) return {};
  try {
    return JSON.parse(match[1]) as JsonObject;
  } catch (error) {
    throw new Error(`Failed to parse the schema of ${file}: ${(error as Error).message}`);
  }
}

/** A dotted key in a locale file; plural forms are objects, as in Shopify's locale files. */
export function lookupTranslation(locale: JsonObject, key: string): unknown {
  let node: unknown = locale;
  for (const part of key.split(".")) {
    if (!isJsonObject(node)) return undefined;
    node = node[part];
  }
  return node;
}
