import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { freePort, nodeArgsOfNpmScript } from "../../scripts/bench/processes";
import { testDatabaseProvider } from "../support/databases";
import { repoRoot } from "../support/test-env";

// The release installs production dependencies only (`npm ci --omit=dev`, scripts/release.sh):
// npm start, npm run worker and npm run db:migrate must load nothing that only a development
// dependency brings, pino-pretty above all (decision 038). Every module the three processes
// resolve is recorded and looked up in package-lock.json, which marks dev-only packages.

interface LockedPackage {
  dev?: boolean;
}
const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockedPackage>;
};

/** The lockfile key of the package a file lies in: node_modules/a/node_modules/@b/c. */
function packageOf(file: string): string | undefined {
  const relative = path.relative(repoRoot, file).split(path.sep).join("/");
  const match = /^((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)+)/.exec(relative);
  return match?.[1]?.replace(/\/$/, "");
}

function runRecorded(
  script: "start" | "worker" | "db:migrate",
  out: string,
  env: Record<string, string>,
) {
  const { NODE_ENV: _test, SHOPIFY_ADMIN_ORIGIN: _store, ...rest } = process.env;
  const hook = pathToFileURL(path.join(repoRoot, "test/support/record-modules.mjs"));
  hook.searchParams.set("out", out);
  // NODE_ENV unset: production, as an operator runs them.
  const processEnv: Record<string, string | undefined> = {
    ...rest,
    NODE_OPTIONS: `--import=${hook.href}`,
    ...env,
  };
  const child = spawn(process.execPath, nodeArgsOfNpmScript(repoRoot, script), {
    cwd: repoRoot,
    env: processEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, exited, output: () => output };
}

async function until(condition: () => Promise<boolean> | boolean, explain: () => string) {
  for (const started = Date.now(); Date.now() - started < 30_000;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out:\n${explain()}`);
}

describe(`a production install on ${testDatabaseProvider()}`, () => {
  it("knows which packages are for development only", () => {
    expect(lock.packages["node_modules/pino-pretty"]?.dev).toBe(true);
    expect(lock.packages["node_modules/pino"]?.dev).toBeUndefined();
    expect(packageOf(path.join(repoRoot, "node_modules/@prisma/client/runtime/x.js"))).toBe(
      "node_modules/@prisma/client",
    );
    expect(
      packageOf(path.join(repoRoot, "node_modules/tsx/node_modules/esbuild/lib/main.js")),
    ).toBe("node_modules/tsx/node_modules/esbuild");
  });

  it("is all npm start, npm run worker and npm run db:migrate load", async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), "svc-modules-")), "resolved.txt");

    const migrate = runRecorded("db:migrate", out, {});
    expect(await migrate.exited, migrate.output()).toBe(0);

    const port = await freePort();
    const server = runRecorded("start", out, { PORT: String(port), HOST: "127.0.0.1" });
    await until(
      () =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          (a) => a.ok,
          () => false,
        ),
      server.output,
    );
    // A page through Remix and React, not only the health check.
    expect((await fetch(`http://127.0.0.1:${port}/auth/login`)).status).toBeLessThan(500);
    server.child.kill("SIGTERM");
    expect(await server.exited, server.output()).toBe(0);

    const worker = runRecorded("worker", out, { LOG_FORMAT: "pretty" });
    await until(() => worker.output().includes("Outbox worker started"), worker.output);
    worker.child.kill("SIGTERM");
    expect(await worker.exited, worker.output()).toBe(0);

    const files = readFileSync(out, "utf8")
      .split("\n")
      .filter((url) => url.startsWith("file:"))
      .map((url) => fileURLToPath(url));
    const packages = new Set(files.map(packageOf).filter((key) => key !== undefined));
    // The record is real: the server's own dependencies are in it.
    expect(packages).toContain("node_modules/express");
    expect(packages).toContain("node_modules/react-dom");
    expect(packages).toContain("node_modules/pg");
    const devOnly = [...packages].filter((key) => lock.packages[key]?.dev === true);
    expect(devOnly).toEqual([]);
  });
});
