// Lists the folder-level import edges inside app/ and fails when the folders
// import each other in a cycle. ESLint's zones (eslint.config.js) forbid the
// known back arrows one import at a time; this catches a cycle between two
// folders that no zone names. Usage: node scripts/check-layers.mjs [--edges]
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const skipped = new Set(["generated"]);
const sourceFile = /\.(ts|tsx|js|mjs)$/;
const specifiers = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

function sourceFiles(appDir, dir = appDir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      return skipped.has(name) && dir === appDir ? [] : sourceFiles(appDir, full);
    }
    return sourceFile.test(name) ? [full] : [];
  });
}

// A file directly in app/ (db.server.ts, shopify.server.ts...) is its own node.
function nodeOf(appDir, file) {
  const [first, ...rest] = path.relative(appDir, file).split(path.sep);
  return rest.length === 0 ? first.replace(sourceFile, "") : first;
}

function targetOf(appDir, file, specifier) {
  if (specifier.startsWith("~/")) return path.join(appDir, specifier.slice(2));
  if (specifier.startsWith(".")) {
    return path.resolve(path.dirname(file), specifier);
  }
  return null;
}

/** "from -> to" for each pair of app/ folders with an import between them, with its imports. */
export function folderEdges(appDir = path.join(root, "app")) {
  const edges = new Map();
  for (const file of sourceFiles(appDir)) {
    const from = nodeOf(appDir, file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(specifiers)) {
      const target = targetOf(appDir, file, specifier);
      if (target === null || !target.startsWith(appDir + path.sep)) continue;
      const to = nodeOf(appDir, target);
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      const sources = edges.get(key) ?? [];
      sources.push(`${path.relative(root, file)} imports ${specifier}`);
      edges.set(key, sources);
    }
  }
  return edges;
}

// Tarjan's strongly connected components: every component with more than one
// node is a set of folders that import each other.
export function cycles(edges) {
  const graph = new Map();
  for (const key of edges.keys()) {
    const [from, to] = key.split(" -> ");
    graph.set(from, [...(graph.get(from) ?? []), to]);
    if (!graph.has(to)) graph.set(to, []);
  }
  let index = 0;
  const indices = new Map();
  const lowLinks = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indices.set(node, index);
    lowLinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)) {
      if (!indices.has(next)) {
        visit(next);
        lowLinks.set(node, Math.min(lowLinks.get(node), lowLinks.get(next)));
      } else if (onStack.has(next)) {
        lowLinks.set(node, Math.min(lowLinks.get(node), indices.get(next)));
      }
    }
    if (lowLinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return components;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const edges = folderEdges();
  if (process.argv.includes("--edges")) {
    for (const key of [...edges.keys()].sort()) {
      console.log(`${key} (${edges.get(key).length})`);
    }
  }
  const found = cycles(edges);
  for (const component of found) {
    const members = new Set(component);
    console.error(`Folder cycle in app/: ${component.join(", ")}`);
    for (const [key, sources] of edges) {
      const [from, to] = key.split(" -> ");
      if (members.has(from) && members.has(to)) {
        console.error(`  ${key}: ${sources.join("; ")}`);
      }
    }
  }
  if (found.length > 0) process.exit(1);
  console.log(`check-layers: ${edges.size} folder edges in app/, no cycles`);
}
