import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

// Minifies the storefront scripts of the theme app extension: extensions/svc-protection/src/*.js
// (readable, linted) → assets/*.min.js (what Shopify serves). `--check` fails when an asset is
// not the build of its source, so CI catches a source edited without `npm run build:extension`.
const extension = path.resolve(import.meta.dirname, "../extensions/svc-protection");
const scripts = ["svc-offer", "svc-cart-rules"];
const check = process.argv.includes("--check");

let stale = 0;
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
  const output = result.outputFiles[0].text;
  if (!check) {
    writeFileSync(asset, output);
    console.log(`${path.relative(process.cwd(), asset)}: ${output.length} B`);
    continue;
  }
  let current = "";
  try {
    current = readFileSync(asset, "utf8");
  } catch {
    // Missing counts as stale.
  }
  if (current !== output) {
    console.error(`${path.relative(process.cwd(), asset)} is not the build of src/${name}.js`);
    stale++;
  }
}
if (stale) {
  console.error("Run npm run build:extension and commit the assets.");
  process.exit(1);
}
