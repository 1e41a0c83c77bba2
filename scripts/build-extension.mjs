import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

// Writes the extensions' built files: the theme app extension's storefront scripts,
// extensions/svc-protection/src/*.js (readable, linted) → assets/*.min.js (what Shopify serves),
// and the app's URL for the post-purchase UI extension, shopify.app.toml's application_url →
// extensions/svc-post-purchase/src/application-url.ts (decision 035). `--check` fails when a
// file is not what its source gives, so CI catches a source edited without `npm run build:extension`.
// `--config <name>` takes the URL from shopify.app.<name>.toml instead (or a path to a .toml file):
// `npm run deploy -- --config production` builds with it, deploys, and writes the default back.
const root = path.resolve(import.meta.dirname, "..");
const extension = path.join(root, "extensions/svc-protection");
const scripts = ["svc-offer", "svc-cart-rules"];
const check = process.argv.includes("--check");
const configFile = appConfigFile(optionValue("--config"));

function optionValue(flag) {
  const index = process.argv.indexOf(flag);
  if (index === -1) return undefined;
  const value = process.argv[index + 1];
  if (!value || value.startsWith("--")) throw new Error(`${flag} needs a value`);
  return value;
}

/** shopify.app.toml, shopify.app.<name>.toml, or a .toml file's path, as the Shopify CLI names them. */
function appConfigFile(config) {
  if (config === undefined) return path.join(root, "shopify.app.toml");
  if (config.endsWith(".toml")) return path.resolve(config);
  return path.join(root, `shopify.app.${config}.toml`);
}

let stale = 0;

/** Writes `content` to `file`, or with --check counts it as stale when the file differs. */
function writeOrCheck(file, content, source) {
  const name = path.relative(process.cwd(), file);
  if (!check) {
    writeFileSync(file, content);
    console.log(`${name}: ${content.length} B`);
    return;
  }
  let current = "";
  try {
    current = readFileSync(file, "utf8");
  } catch {
    // Missing counts as stale.
  }
  if (current !== content) {
    console.error(`${name} is not the build of ${source}`);
    stale++;
  }
}

/** application_url from an app configuration: a top-level key, so before the first [table]. */
function applicationUrlOf(toml, name) {
  const topLevel = toml.split(/^\s*\[/m)[0];
  const match = /^application_url\s*=\s*"([^"]+)"\s*(?:#.*)?$/m.exec(topLevel);
  if (!match) throw new Error(`${name} has no top-level application_url = "…"`);
  let url;
  try {
    url = new URL(match[1]);
  } catch {
    throw new Error(`${name}'s application_url is not a URL: ${match[1]}`);
  }
  if (url.protocol !== "https:") {
    throw new Error(`${name}'s application_url must be https (extensions call it): ${match[1]}`);
  }
  return match[1];
}

const configName = path.basename(configFile);
const applicationUrl = applicationUrlOf(readFileSync(configFile, "utf8"), configName);
if (!check) console.log(`post-purchase extension app URL: ${applicationUrl} (${configName})`);
writeOrCheck(
  path.join(root, "extensions/svc-post-purchase/src/application-url.ts"),
  "// Written by npm run build:extension from shopify.app.toml's application_url; CI checks it.\n" +
    `export const APPLICATION_URL = ${JSON.stringify(applicationUrl)};\n`,
  `${configName}'s application_url`,
);
for (const name of scripts) {
  const source = path.join(extension, "src", `${name}.js`);
  const asset = path.join(extension, "assets", `${name}.min.js`);
  const result = await build({
    entryPoints: [source],
    bundle: false,
    minify: true,
    target: "es2021",
    legalComments: "none",
    write: false,
    banner: { js: `// Built from src/${name}.js by npm run build:extension.` },
  });
  writeOrCheck(asset, result.outputFiles[0].text, `src/${name}.js`);
}
if (stale) {
  console.error("Run npm run build:extension and commit what it writes.");
  process.exit(1);
}
