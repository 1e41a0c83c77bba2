import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

// Checks the theme app extension: Shopify's theme check with its theme-app-extension rules
// (any error fails), and the storefront JavaScript budget (all assets/*.js, 8 KB gzip in total).
// `npm run bench:storefront` imports the measuring functions, so both count bytes the same way.
const extension = path.resolve(import.meta.dirname, "../extensions/svc-protection");
export const JS_BUDGET_BYTES = 8 * 1024;

/** The size of `bytes` compressed as the budget counts it: gzip, level 9. */
export function gzipBytes(bytes) {
  return gzipSync(bytes, { level: 9 }).length;
}

/**
 * Every storefront script of the extension (assets/*.js) with its size and gzip size, and the
 * gzip total the budget applies to.
 * @returns {{ files: { name: string, bytes: number, gzipBytes: number }[], totalGzipBytes: number }}
 */
export function measureStorefrontJavaScript(assets = path.join(extension, "assets")) {
  const files = readdirSync(assets)
    .filter((file) => file.endsWith(".js"))
    .sort()
    .map((name) => {
      const content = readFileSync(path.join(assets, name));
      return { name, bytes: content.length, gzipBytes: gzipBytes(content) };
    });
  return { files, totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

async function main() {
  const { Severity, themeCheckRun } = await import("@shopify/theme-check-node");
  let failed = false;

  const { offenses } = await themeCheckRun(extension, "theme-check:theme-app-extension");
  const names = {
    [Severity.ERROR]: "error",
    [Severity.WARNING]: "warning",
    [Severity.INFO]: "info",
  };
  for (const offense of offenses) {
    const file = path.relative(process.cwd(), new URL(offense.uri).pathname);
    const line = offense.start.line + 1;
    console.log(`${file}:${line} ${names[offense.severity]} ${offense.check}: ${offense.message}`);
    if (offense.severity === Severity.ERROR) failed = true;
  }
  const errors = offenses.filter((offense) => offense.severity === Severity.ERROR).length;
  console.log(`theme check: ${errors} errors, ${offenses.length - errors} warnings or notes`);

  const { files, totalGzipBytes: total } = measureStorefrontJavaScript();
  for (const file of files) console.log(`assets/${file.name}: ${file.gzipBytes} B gzip`);
  console.log(`storefront JavaScript: ${total} B gzip of a ${JS_BUDGET_BYTES} B budget`);
  if (total > JS_BUDGET_BYTES) {
    console.error(`The storefront JavaScript is over its budget by ${total - JS_BUDGET_BYTES} B`);
    failed = true;
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
