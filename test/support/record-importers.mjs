// Preloaded with --import (in NODE_OPTIONS, so child processes have it too): records, for every
// module the process resolves by import or require, "<importer URL> <module URL>", and appends
// them to the file named by this module's own ?out= query when the process exits.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const out = new URL(import.meta.url).searchParams.get("out");
const edges = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    edges.add(`${context.parentURL ?? "(entry)"} ${result.url}`);
    return result;
  },
});
process.on("exit", () => {
  if (out) appendFileSync(out, [...edges].map((edge) => `${edge}\n`).join(""));
});
