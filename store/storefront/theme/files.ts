import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/*
 * Where the storefront's Liquid comes from: Shopify's Dawn (read from ../shared, never edited)
 * and the app's theme extension (extensions/svc-protection).
 */

export const THEME_NAME = "dawn";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export function themesDir(): string {
  return process.env.SHOPIFY_THEMES_DIR ?? path.resolve(repoRoot, "../shared/fixtures/themes");
}

export function dawnDir(): string {
  const dir = path.join(themesDir(), THEME_NAME);
  if (!existsSync(path.join(dir, "layout/theme.liquid"))) {
    throw new Error(
      `Dawn is not at ${dir}: set SHOPIFY_THEMES_DIR to the directory holding themes/dawn`,
    );
  }
  return dir;
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
