import { spawnSync } from "node:child_process";
import path from "node:path";

// npm run deploy -- [--config <name>] [shopify app deploy's other flags]
// The post-purchase extension calls the app at the URL written into its source at build time
// (decision 035). A production deploy must carry the production app's URL, not the development
// one committed from shopify.app.toml: this writes the named configuration's URL, runs
// `shopify app deploy` with the same arguments, then writes the committed URL back, whatever
// the deploy's outcome, so the working tree stays as CI checks it.
const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const configAt = args.findIndex((arg) => arg === "--config" || arg === "-c");
const inline = args.find((arg) => arg.startsWith("--config="));
const config = inline
  ? inline.slice("--config=".length)
  : configAt === -1
    ? undefined
    : args[configAt + 1];

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: "inherit" });
  if (result.error) throw new Error(`Failed to run ${command}: ${result.error.message}`);
  return result.status ?? 1;
}

const buildExtension = path.join(root, "scripts/build-extension.mjs");
const built = run(process.execPath, [buildExtension, ...(config ? ["--config", config] : [])]);
if (built !== 0) process.exit(built);
let status = 1;
try {
  status = run("shopify", ["app", "deploy", ...args]);
} finally {
  if (config && run(process.execPath, [buildExtension]) === 0) {
    console.log("deploy: wrote shopify.app.toml's application_url back (the committed one)");
  }
}
process.exit(status);
