// Fails when a tracked source file reads beside the clone: a path into ../shared (the reference
// material our own set-up keeps next to the repository), or any path that climbs above the
// repository's root. A clone with nothing beside it must run and test (decision 037).
// Usage: node scripts/check-self-contained.mjs
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");

const scriptFile = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const dataFile = /\.(json|toml|ya?ml)$/;
const shellFile = /\.(sh|bash)$/;

/**
 * The one read beside the clone we keep: CI hands its copy of Shopify's Dawn to the local store
 * through SHOPIFY_THEMES_DIR, and the store renders its own theme when that is unset. This check's
 * own test names such paths as the examples it must find, and reads none of them.
 */
export const allowed = [
  { file: ".ci/run", text: /\.\.\/shared\/fixtures\/themes/ },
  { file: "scripts/check-self-contained.test.ts", text: /^/ },
];

/** Tracked files this check reads: code, scripts and configuration. */
export function trackedSources(dir = root) {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: dir, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  return files.filter((file) => isChecked(dir, file));
}

function isChecked(dir, file) {
  if (scriptFile.test(file) || dataFile.test(file) || shellFile.test(file)) return true;
  if (path.extname(file) !== "") return false;
  // Extensionless scripts (.ci/run): a shell shebang.
  const full = path.join(dir, file);
  if (!existsSync(full)) return false;
  return /^#!.*\b(ba)?sh\b/.test(readFileSync(full, "utf8").slice(0, 100));
}

/** Every place in `files` (paths relative to `dir`) that reads beside the clone. */
export function readsBesideClone(dir = root, files = trackedSources(dir)) {
  const findings = [];
  for (const file of files) {
    const full = path.join(dir, file);
    if (!existsSync(full)) continue; // deleted in the working tree, not yet committed
    const text = readFileSync(full, "utf8");
    const shell = shellFile.test(file) || path.extname(file) === "";
    const strings = scriptFile.test(file)
      ? stringsOfScript(file, text)
      : shell
        ? stringsOfShell(text)
        : stringsOfData(text);
    const base = shell ? dir : path.dirname(full);
    for (const { value, line, afterRoot } of strings) {
      const reason = besideClone(dir, base, value, afterRoot, shell);
      if (reason === null) continue;
      if (allowed.some((entry) => entry.file === file && entry.text.test(value))) continue;
      findings.push({ file, line, value, reason });
    }
  }
  return findings;
}

/** Why `value`, a string read from `base`, names a path outside the repository `dir`, or null. */
function besideClone(dir, base, value, afterRoot, wholeLine) {
  if (/(^|[^\w-])shared\/fixtures\b/.test(value) || /\/work\/shared\b/.test(value)) {
    return "names the reference material beside the clone (../shared)";
  }
  const inside = (target) => target === dir || target.startsWith(dir + path.sep);
  // `path.resolve(repoRoot, "..")` and the like: resolved from the root, whatever the file.
  if (afterRoot && /^\.\.(\/|$)/.test(value)) return "climbs above the repository's root";
  // A string that is a relative path (a shell line: any word of it), read from `base`.
  const paths = wholeLine
    ? [...value.matchAll(/(?:^|[\s"'=])((?:\.\.\/)+[^\s"'`$;)]*)/g)].map((match) => match[1])
    : /^\.\.\//.test(value)
      ? [value]
      : [];
  for (const relative of paths) {
    const target = path.resolve(base, relative);
    if (!inside(target)) return "climbs above the repository's root";
    // "../shared" that is no folder of ours (extensions/shared is) was meant for the one beside.
    if (/(^|\/)shared(\/|$)/.test(relative) && !existsSync(target) && !existsSync(`${target}.ts`)) {
      return "names a ../shared that is not in the repository";
    }
  }
  return null;
}

/** String literals and template parts of a JS/TS file (comments are not reads). */
function stringsOfScript(file, text) {
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const strings = [];
  const visit = (node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      strings.push({ value: node.text, line: line + 1, afterRoot: followsRoot(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return strings;
}

/** True for the argument after a root directory: `path.resolve(repoRoot, "..")`, `new URL("..", root)` aside. */
function followsRoot(node) {
  const call = node.parent;
  if (!call || !(ts.isCallExpression(call) || ts.isNewExpression(call))) return false;
  const args = call.arguments ?? [];
  const at = args.indexOf(node);
  if (at < 1) return false;
  const before = args[at - 1];
  const name = ts.isIdentifier(before)
    ? before.text
    : ts.isPropertyAccessExpression(before)
      ? before.name.text
      : "";
  return /root/i.test(name);
}

/**
 * A shell script's lines without comments, each as one string. Our scripts `cd` to the root
 * first, so their relative paths are read from there; `$ROOT/..` climbs whatever the directory.
 */
function stringsOfShell(text) {
  return text.split("\n").flatMap((raw, index) => {
    const code = raw.replace(/(^|\s)#.*$/, "");
    if (code.trim() === "") return [];
    const line = index + 1;
    const fromRoot = [...code.matchAll(/\$\{?\w*root\w*\}?\/(\.\.[^\s"']*)/gi)].map((match) => ({
      value: match[1],
      line,
      afterRoot: true,
    }));
    return [{ value: code, line, afterRoot: false }, ...fromRoot];
  });
}

/** The quoted strings of a JSON, TOML or YAML file, and YAML's bare values. */
function stringsOfData(text) {
  return text.split("\n").flatMap((raw, index) =>
    [...raw.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|:\s*([^\s"'#[{][^#]*)$/g)].map((match) => ({
      value: match[1] ?? match[2] ?? match[3] ?? "",
      line: index + 1,
      afterRoot: false,
    })),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const findings = readsBesideClone();
  for (const { file, line, value, reason } of findings) {
    console.error(`${file}:${line}: ${reason}: ${JSON.stringify(value.trim())}`);
  }
  if (findings.length > 0) {
    console.error(
      `${findings.length} read(s) beside the clone. Copy the data into the repository (test/fixtures/, with its source) or take the path from a setting.`,
    );
    process.exit(1);
  }
  console.log("Self-contained: no tracked file reads beside the clone.");
}
