import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cycles, folderEdges } from "./check-layers.mjs";

const made: string[] = [];

/** A throwaway app/ folder holding the given files. */
function appTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "check-layers-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("folderEdges", () => {
  it("reads static, multi-line, type, re-export, side-effect, dynamic and ~/ imports", () => {
    const edges = folderEdges(
      appTree({
        "models/A.server.ts": 'import { b } from "../lib/b";\n',
        "models/B.server.ts": 'import {\n  c,\n  d,\n} from "../db/client.server";\n',
        "models/C.ts": 'import type { E } from "../offers/e";\nexport * from "../crypto/box";\n',
        "routes/x.tsx": 'import "../admin/styles";\nconst m = await import("../webhooks/w");\n',
        "admin/deep/y.ts": 'import { z } from "~/services/z";\nimport { q } from "./q";\n',
        "shopify.server.ts": 'import { s } from "./models/S.server";\n',
        "lib/b.ts": 'import { readFileSync } from "node:fs";\nimport { t } from "../../test/t";\n',
      }),
    );
    expect([...edges.keys()].sort()).toEqual([
      "admin -> services",
      "models -> crypto",
      "models -> db",
      "models -> lib",
      "models -> offers",
      "routes -> admin",
      "routes -> webhooks",
      "shopify.server -> models",
    ]);
    expect(edges.get("models -> db")).toEqual([
      expect.stringMatching(/models\/B\.server\.ts imports \.\.\/db\/client\.server$/),
    ]);
  });
});

describe("cycles", () => {
  it("names the folders that import each other, directly or round a loop", () => {
    const edges = new Map([
      ["models -> storefront", []],
      ["storefront -> models", []],
      ["admin -> services", []],
      ["services -> outbox", []],
      ["outbox -> admin", []],
      ["routes -> admin", []],
    ]);
    expect(cycles(edges).sort()).toEqual([
      ["admin", "outbox", "services"],
      ["models", "storefront"],
    ]);
  });

  it("finds none when every import points down", () => {
    const edges = new Map([
      ["routes -> models", []],
      ["models -> lib", []],
      ["routes -> lib", []],
    ]);
    expect(cycles(edges)).toEqual([]);
  });

  it("finds none between the folders of app/", () => {
    expect(cycles(folderEdges())).toEqual([]);
  });
});
