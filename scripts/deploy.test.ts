import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// npm run deploy -- --config production: the post-purchase extension is deployed with the named
// configuration's app URL, and the committed (development) URL is written back afterwards. Runs
// in a copy of the files it touches, with a stand-in `shopify` that records what it deployed.

const repo = path.resolve(import.meta.dirname, "..");
const URL_FILE = "extensions/svc-post-purchase/src/application-url.ts";
let dir: string;

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function copyOfRepo(): string {
  dir = mkdtempSync(path.join(os.tmpdir(), "svc-deploy-"));
  for (const file of [
    "scripts/deploy.mjs",
    "scripts/build-extension.mjs",
    "shopify.app.toml",
    URL_FILE,
  ]) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(repo, file), path.join(dir, file));
  }
  cpSync(
    path.join(repo, "extensions/svc-protection/src"),
    path.join(dir, "extensions/svc-protection/src"),
    { recursive: true },
  );
  mkdirSync(path.join(dir, "extensions/svc-protection/assets"));
  symlinkSync(path.join(repo, "node_modules"), path.join(dir, "node_modules"));
  writeFileSync(
    path.join(dir, "shopify.app.production.toml"),
    'client_id = "1"\napplication_url = "https://svc.example.com"\n\n[build]\n',
  );
  const bin = path.join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(
    path.join(bin, "shopify"),
    `#!/bin/sh\necho "$*" > "${dir}/deployed-args"\ncp "${dir}/${URL_FILE}" "${dir}/deployed-url"\n`,
  );
  chmodSync(path.join(bin, "shopify"), 0o755);
  return bin;
}

describe("npm run deploy", () => {
  it("deploys the named configuration's app URL and writes the committed one back", () => {
    const bin = copyOfRepo();
    const committed = readFileSync(path.join(dir, URL_FILE), "utf8");
    execFileSync(
      process.execPath,
      [path.join(dir, "scripts/deploy.mjs"), "--config", "production"],
      {
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
        stdio: "pipe",
      },
    );
    expect(readFileSync(path.join(dir, "deployed-args"), "utf8").trim()).toBe(
      "app deploy --config production",
    );
    expect(readFileSync(path.join(dir, "deployed-url"), "utf8")).toContain(
      'APPLICATION_URL = "https://svc.example.com"',
    );
    expect(readFileSync(path.join(dir, URL_FILE), "utf8")).toBe(committed);
  });
});
