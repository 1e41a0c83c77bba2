import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { parseToml, type TomlTable } from "../../server/app-config";

/*
 * The app's UI extensions as the local store hosts them: found by target in the repository's
 * extensions/*\/shopify.extension.toml, each target's module bundled with esbuild as the Shopify
 * CLI bundles it under `shopify app dev` (Preact JSX, `process.env.APP_URL` replaced by the
 * installed app's URL), and the extension's locale files. Bundles are built once per module and
 * app URL, then served from memory.
 */

export const DEFAULT_EXTENSIONS_DIR = fileURLToPath(
  new URL("../../../extensions", import.meta.url),
);
const HOST_DIR = fileURLToPath(new URL("./host", import.meta.url));

export interface UiExtensionTarget {
  /** The extension's handle (its directory's toml). */
  handle: string;
  target: string;
  /** The extension's directory. */
  dir: string;
  /** The target's module, absolute. */
  module: string;
}

const isTable = (value: unknown): value is TomlTable =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The UI extension target `target` of the extensions in `dir`, if one declares it. */
export function findUiExtensionTarget(
  target: string,
  dir = DEFAULT_EXTENSIONS_DIR,
): UiExtensionTarget | undefined {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const toml = path.join(dir, entry.name, "shopify.extension.toml");
    if (!entry.isDirectory() || !existsSync(toml)) continue;
    let parsed: TomlTable;
    try {
      parsed = parseToml(readFileSync(toml, "utf8"));
    } catch (error) {
      throw new Error(`Failed to read ${toml}: ${(error as Error).message}`);
    }
    const extensions = Array.isArray(parsed.extensions) ? parsed.extensions : [];
    for (const extension of extensions) {
      if (!isTable(extension) || extension.type !== "ui_extension") continue;
      const targeting = Array.isArray(extension.targeting) ? extension.targeting : [];
      for (const declared of targeting) {
        if (!isTable(declared) || declared.target !== target) continue;
        if (typeof declared.module !== "string")
          throw new Error(`${toml}: target ${target} has no module`);
        const module = path.resolve(path.dirname(toml), declared.module);
        if (!existsSync(module)) throw new Error(`${toml}: ${declared.module} does not exist`);
        const handle = typeof extension.handle === "string" ? extension.handle : entry.name;
        return { handle, target, dir: path.dirname(toml), module };
      }
    }
  }
  return undefined;
}

/**
 * The extension's translations for `locale` ("de", "de-DE"): its language's file, else its
 * default (`*.default.json`), as Shopify falls back.
 */
export function extensionTranslations(
  extension: UiExtensionTarget,
  locale: string,
): { locale: string; translations: Record<string, unknown> } {
  const dir = path.join(extension.dir, "locales");
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const language = locale.split("-")[0]!;
  const chosen =
    files.find((file) => file === `${locale}.json` || file === `${locale}.default.json`) ??
    files.find((file) => file === `${language}.json` || file === `${language}.default.json`) ??
    files.find((file) => file.endsWith(".default.json"));
  if (!chosen) throw new Error(`${extension.handle} has no locale file in ${dir}`);
  const translations = JSON.parse(readFileSync(path.join(dir, chosen), "utf8")) as Record<
    string,
    unknown
  >;
  return { locale: chosen.replace(/(\.default)?\.json$/, ""), translations };
}

async function bundle(contents: string, define: Record<string, string> = {}): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: HOST_DIR, loader: "ts" },
    bundle: true,
    write: false,
    format: "iife",
    target: "es2020",
    jsx: "automatic",
    jsxImportSource: "preact",
    define,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Bundles built once, kept by what they were built from. */
export class UiExtensionBundles {
  readonly #built = new Map<string, Promise<string>>();

  #once(key: string, make: () => Promise<string>): Promise<string> {
    let found = this.#built.get(key);
    if (!found) {
      found = make();
      // A failed build is tried again on the next request (the developer fixes the module).
      found.catch(() => this.#built.delete(key));
      this.#built.set(key, found);
    }
    return found;
  }

  /** The target's module, run as Shopify's host runs it: its default export is called. */
  target(extension: UiExtensionTarget, appUrl: string): Promise<string> {
    return this.#once(`target\n${extension.module}\n${appUrl}`, () =>
      bundle(
        `import run from ${JSON.stringify(extension.module)};\nvoid run();`,
        // As the CLI does in dev: the extension's src/app-origin.ts reads it.
        { "process.env.APP_URL": JSON.stringify(appUrl) },
      ),
    );
  }

  /** The host script of a checkout block (host/checkout-host.ts). */
  checkoutHost(): Promise<string> {
    return this.#once("host\ncheckout", () =>
      bundle(`import ${JSON.stringify(path.join(HOST_DIR, "checkout-host.ts"))};`),
    );
  }
}
