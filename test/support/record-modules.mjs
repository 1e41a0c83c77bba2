// Preloaded with --import (in NODE_OPTIONS, so child processes have it too): records the URL of
// every module the process resolves, by import or require, and appends them to the file named
// by this module's own ?out= query when the process exits.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const out = new URL(import.meta.url).searchParams.get("out");
const resolved = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    resolved.add(result.url);
    return result;
  },
});
process.on("exit", () => {
  if (out) appendFileSync(out, [...resolved].map((url) => `${url}\n`).join(""));
});
