import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { freePort, nodeArgsOfNpmScript } from "../../scripts/bench/processes";
import { repoRoot } from "../support/test-env";

// Why the production server and not Remix's request handler in-process: the admin pages are
// judged as merchants get them, so the test runs what `npm start` runs (migrations, Express,
// compression, the built client assets under their hashed public path, the embedded outbox
// worker) in its own process, with its own Prisma client and logger. An in-process handler would
// share the test's modules and could hide a page that only works with the test's globals.

export interface AdminServer {
  /** http://localhost:<port>; also the app's SHOPIFY_APP_URL. */
  url: string;
  output(): string;
  stop(): Promise<number | null>;
}

const ADMIN_API_OFFLINE = path.join(import.meta.dirname, "admin-api-offline.mjs");

/**
 * `npm start` on a free port against process.env.DATABASE_URL (the test file's database), with
 * Shopify's Admin GraphQL API answered from test/fixtures/admin-graphql (admin-api-offline.mjs):
 * `adminGraphql` maps operation names to fixture files.
 */
export async function startAdminServer(
  options: { env?: Record<string, string>; adminGraphql?: Record<string, string> } = {},
): Promise<AdminServer> {
  if (!existsSync(path.join(repoRoot, "build/server/index.js"))) {
    throw new Error("build/server/index.js is missing: run `npm run build` first (npm test does)");
  }
  const port = await freePort();
  // localhost rather than 127.0.0.1: Chromium treats it as a secure context, so the app's
  // `Secure; SameSite=None` locale cookie is kept, as it is over HTTPS in the admin.
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, nodeArgsOfNpmScript(repoRoot, "start"), {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      PORT: String(port),
      HOST: "127.0.0.1",
      SHOPIFY_APP_URL: url,
      SVC_OUTBOX_POLL_MS: "100",
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${ADMIN_API_OFFLINE}`]
        .filter(Boolean)
        .join(" "),
      SVC_TEST_ADMIN_GRAPHQL: JSON.stringify(options.adminGraphql ?? {}),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  for (const started = Date.now(); ;) {
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() - started > 30_000 || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`The app did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
