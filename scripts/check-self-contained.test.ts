import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readsBesideClone } from "./check-self-contained.mjs";

const made: string[] = [];

/** A throwaway repository root holding the given files; returns the files' findings. */
function findingsOf(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "self-contained-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return readsBesideClone(dir, Object.keys(files)).map(({ file, line }) => `${file}:${line}`);
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("readsBesideClone", () => {
  it("finds the reads beside the clone this repository used to make", () => {
    expect(
      findingsOf({
        "test/support/test-env.ts": [
          'export const repoRoot = path.resolve(import.meta.dirname, "../..");',
          "export const shopifyFixturesDir =",
          '  process.env.SHOPIFY_FIXTURES_DIR ?? path.resolve(repoRoot, "../shared/fixtures/shopify");',
        ].join("\n"),
        "store/storefront/cart.test.ts": [
          "const fixturesDir = path.resolve(",
          "  path.dirname(fileURLToPath(import.meta.url)),",
          '  "../../../shared/fixtures/shopify/cart_js",',
          ");",
        ].join("\n"),
        "store/storefront/theme/files.ts":
          'const themes = process.env.SHOPIFY_THEMES_DIR ?? path.resolve(repoRoot, "../shared/fixtures/themes");\n',
      }),
    ).toEqual([
      "test/support/test-env.ts:3",
      "store/storefront/cart.test.ts:3",
      "store/storefront/theme/files.ts:1",
    ]);
  });

  it("finds any climb above the root, in code, templates, configuration and shell", () => {
    expect(
      findingsOf({
        "scripts/a.ts": 'const spec = path.join(ROOT, "..", "spec");\n',
        "scripts/b.ts": "const dir = `../../../${name}/api.md`;\n",
        "app/c.ts": 'readFileSync(new URL("../../elsewhere/x.json", import.meta.url));\n',
        "app/d.ts": 'const spec = process.env.SPEC ?? "../shared/spec/api.md";\n',
        "tsconfig.json": '{ "include": ["app", "../shared/types"] }\n',
        "scripts/e.sh": 'set -e\ncp "$ROOT/../spec/api.md" .\n',
        "scripts/f.sh": "ls ../shared/spec\n",
        ".ci/other": "#!/usr/bin/env bash\ncat ../notes.txt\n",
      }),
    ).toEqual([
      "scripts/a.ts:1",
      "scripts/b.ts:1",
      "app/c.ts:1",
      "app/d.ts:1",
      "tsconfig.json:1",
      "scripts/e.sh:2",
      "scripts/f.sh:1",
      ".ci/other:2",
    ]);
  });

  it("leaves in-repo paths, extensions/shared, comments and CI's Dawn hand-over alone", () => {
    expect(
      findingsOf({
        "extensions/shared/link-state.ts": "export const MAX_RETRIES = 3;\n",
        "extensions/a/src/x.ts": 'import { MAX_RETRIES } from "../../shared/link-state";\n',
        "extensions/a/tsconfig.json": '{ "include": ["src", "../shared"] }\n',
        "test/support/test-env.ts": [
          'export const repoRoot = path.resolve(import.meta.dirname, "../..");',
          "// Copied from ../shared/fixtures/shopify, see SOURCES.md.",
          'export const dir = path.join(repoRoot, "test/fixtures/shopify");',
        ].join("\n"),
        "scripts/test.sh": '# Run from ../shared? No.\ncd "$(dirname "$0")/.."\n',
        ".ci/run": [
          "#!/usr/bin/env bash",
          "if [ -f ../shared/fixtures/themes/dawn/layout/theme.liquid ]; then",
          '  SHOPIFY_THEMES_DIR="$(cd ../shared/fixtures/themes && pwd)"',
          "fi",
        ].join("\n"),
      }),
    ).toEqual([]);
  });

  it("allows CI's Dawn hand-over in .ci/run only", () => {
    expect(
      findingsOf({
        "scripts/dev.sh": 'SHOPIFY_THEMES_DIR="$(cd ../shared/fixtures/themes && pwd)"\n',
      }),
    ).toEqual(["scripts/dev.sh:1"]);
  });

  it("finds nothing in this repository's tracked files", () => {
    const findings = readsBesideClone().map(
      ({ file, line, value, reason }) => `${file}:${line}: ${reason}: ${value.trim()}`,
    );
    expect(findings).toEqual([]);
  });
});
