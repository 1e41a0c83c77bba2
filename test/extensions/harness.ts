import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";
import { repoRoot } from "../support/test-env";
import type { StubConfig } from "./host-stubs";

/*
 * The UI extensions in a plain page: each target's module bundled with esbuild (as the
 * Shopify CLI bundles it), run with a stub of its `shopify` global (host-stubs.ts), against a
 * test double of the app that answers the links contract's routes as a test scripts them.
 */

export type TargetName = "thank-you" | "order-status" | "order-admin";

const TARGETS: Record<TargetName, { extension: string; module: string }> = {
  "thank-you": { extension: "svc-post-purchase", module: "src/ThankYou.tsx" },
  "order-status": { extension: "svc-post-purchase", module: "src/OrderStatus.tsx" },
  "order-admin": { extension: "svc-order-admin", module: "src/OrderProtectionBlock.tsx" },
};

export function translationsOf(target: TargetName, locale: "en" | "de") {
  const file = locale === "en" ? "en.default.json" : "de.json";
  const locales = path.join(repoRoot, "extensions", TARGETS[target].extension, "locales");
  return JSON.parse(readFileSync(path.join(locales, file), "utf8")) as Record<string, unknown>;
}

/**
 * The target's module and its host stub in one script. `appUrl` stands where the Shopify CLI
 * puts the dev tunnel's URL (process.env.APP_URL, src/app-origin.ts).
 */
export async function bundleTarget(target: TargetName, appUrl: string): Promise<string> {
  const { extension, module } = TARGETS[target];
  const entry = path.join(repoRoot, "extensions", extension, module);
  const installHost = path.join(repoRoot, "test/extensions/install-host.ts");
  const result = await build({
    stdin: {
      contents: [
        `import ${JSON.stringify(installHost)};`,
        `import run from ${JSON.stringify(entry)};`,
        `void run();`,
      ].join("\n"),
      resolveDir: repoRoot,
      loader: "ts",
    },
    // Before the bundle: install-host.ts reads it when it runs, ahead of the extension.
    banner: { js: `window.__stubTarget = ${JSON.stringify(target)};` },
    bundle: true,
    write: false,
    format: "iife",
    target: "es2020",
    jsx: "automatic",
    jsxImportSource: "preact",
    define: { "process.env.APP_URL": JSON.stringify(appUrl) },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** One scripted answer of a route: its HTTP status and JSON body (or raw text). */
export interface Answer {
  status: number;
  body: unknown;
  /** Sent as it is instead of JSON: a malformed body. */
  raw?: string;
}

export interface RecordedRequest {
  path: string;
  orderId: string | null;
  authorization: string | undefined;
}

/**
 * An HTTP server on 127.0.0.1: the test double of the app (the contract's routes, with the
 * CORS headers the library's `cors` adds), and the page that runs an extension.
 */
export interface TestServer {
  url: string;
  /** Answers for a route path, in order; the last one repeats. */
  answers: Map<string, Answer[]>;
  requests: RecordedRequest[];
  /** The page's script and stub configuration, served at /page. */
  page?: { script: string; config: StubConfig };
  close(): Promise<void>;
}

// The local store's stand-ins for the Polaris web components (one stylesheet for both).
const STAND_IN_STYLES = readFileSync(
  path.join(repoRoot, "store/storefront/extensions/host/polaris-stand-in.css"),
  "utf8",
);

function pageHtml(page: NonNullable<TestServer["page"]>) {
  const config = JSON.stringify(page.config).replace(/</g, "\\u003c");
  // Scripts in the head: the body holds only what the extension renders.
  return `<!doctype html><html><head><meta charset="utf-8"><style>${STAND_IN_STYLES}
body { margin: 16px; max-width: 520px; }</style>
<script>window.__stubConfig = ${config};</script><script src="/page.js" defer></script></head>
<body></body></html>`;
}

export async function startTestServer(): Promise<TestServer> {
  const server: Omit<TestServer, "url" | "close"> = { answers: new Map(), requests: [] };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const cors = {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Headers": "Authorization, Content-Type",
      "Access-Control-Expose-Headers": "X-Shopify-Retry-Invalid-Session-Request",
    };
    if (url.pathname === "/page" && server.page) {
      response.writeHead(200, { "Content-Type": "text/html" }).end(pageHtml(server.page));
      return;
    }
    if (url.pathname === "/page.js" && server.page) {
      response.writeHead(200, { "Content-Type": "text/javascript" }).end(server.page.script);
      return;
    }
    const scripted = server.answers.get(url.pathname);
    if (!scripted) {
      response.writeHead(404, cors).end();
      return;
    }
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors).end();
      return;
    }
    server.requests.push({
      path: url.pathname,
      orderId: url.searchParams.get("order_id"),
      authorization: request.headers.authorization,
    });
    const answer = scripted.length > 1 ? scripted.shift()! : scripted[0]!;
    response
      .writeHead(answer.status, {
        ...cors,
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
      })
      .end(answer.raw ?? JSON.stringify(answer.body));
  };
  const http = createServer(handle);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return Object.assign(server, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.closeAllConnections();
        http.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}
