// The production HTTP server (npm start runs it after the migrations): Remix through Express for
// pages, assets and every other route, and the order webhooks, nearly all of the traffic, answered
// before Express and Remix see them (decision 009). Every request body is capped and counted
// against one byte budget before anything reads it (decision 016).
// Usage: serve.ts <path to build/server/index.js>

import "./production-default";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import {
  admitBody,
  ByteBudget,
  maxBodyBytesFor,
  type BodyAdmission,
} from "../app/server/body-limits.server";
import type { ServerHooks } from "../app/server/hooks.server";
import type { OrderTopic } from "../app/orders";

const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
// Node 22's own fetch, Request and Response (with Response.json), as Vite's dev server and the
// tests use; Remix's polyfills would replace them with classes that lack Response.json.
installGlobals({ nativeFetch: true });
const hooks = (build.entry.module as unknown as { serverHooks?: ServerHooks }).serverHooks;
if (!hooks) throw new Error(`${buildPath} does not export serverHooks from app/entry.server.tsx`);
const { logger } = hooks;
const limits = hooks.edgeLimits();
const budget = new ByteBudget(limits.budgetBytes);

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }),
);
app.use(express.static("public", { maxAge: "1h" }));
app.use(logRequest);
app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    // The peer's address, which rate limits trust over X-Forwarded-For (decision 043).
    getLoadContext: (request) => ({ socketAddress: request.socket.remoteAddress }),
  }),
);

// Slow senders hold a connection and its buffers: headers and whole requests have deadlines
// (checked every second, not Node's default 30 s), idle keep-alive connections close.
const server = createServer(
  {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: 1_000,
  },
  (request, response) => {
    const path = pathOf(request);
    const topic = orderTopicOf(request, path);
    // Every body is admitted before a byte of it is read, whichever route reads it (decision 016).
    const admission = admitBody(
      request.headers,
      maxBodyBytesFor(path, topic !== undefined, limits),
      budget,
    );
    if (admission.kind !== "admit") {
      refuseBody(request, response, path, admission);
      return;
    }
    if (admission.bytes > 0) response.once("close", () => budget.release(admission.bytes));
    if (topic) void answerOrderWebhook(topic, request, response, admission.bytes);
    else app(request, response);
  },
);

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

function orderTopicOf(request: IncomingMessage, path: string): OrderTopic | undefined {
  if (request.method !== "POST") return undefined;
  return hooks!.orderWebhookPaths.get(path);
}

function refuseBody(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  admission: Exclude<BodyAdmission, { kind: "admit" }>,
) {
  const fields = {
    method: request.method,
    path,
    status: admission.status,
    contentLength: request.headers["content-length"],
  };
  const reason =
    admission.kind === "too_large"
      ? `the body is over ${admission.maxBytes} bytes`
      : admission.kind === "busy"
        ? `${budget.used} bytes of bodies are already being read`
        : "the body has no Content-Length";
  logger.warn(fields, `Refused ${request.method} ${path} with ${admission.status}: ${reason}`);
  // The body is never read: the connection closes after the answer instead.
  response
    .writeHead(admission.status, {
      Connection: "close",
      "Content-Type": "text/plain; charset=utf-8",
      ...(admission.kind === "busy" ? { "Retry-After": "5" } : {}),
    })
    .end(`Request refused: ${reason}\n`);
}

async function answerOrderWebhook(
  topic: OrderTopic,
  request: IncomingMessage,
  response: ServerResponse,
  declaredBytes: number,
) {
  try {
    const body = await readBody(request, declaredBytes);
    if (!body) {
      logger.error({ topic }, `Webhook refused: body over its ${declaredBytes} declared bytes`);
      response.writeHead(413, { Connection: "close" }).end();
      return;
    }
    const answer = await hooks!.handleOrderWebhook(topic, {
      method: "POST",
      header: (name) => headerValue(request.headers[name]),
      body,
    });
    response.writeHead(answer.status, answer.headers).end();
  } catch (error) {
    logger.error({ err: error, topic }, "Failed to answer an order webhook");
    if (!response.headersSent) response.writeHead(500).end();
    else response.destroy();
  }
}

/** The raw body, or null when more arrives than was declared (and admitted). */
async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function logRequest(request: express.Request, response: express.Response, next: () => void) {
  const started = performance.now();
  response.on("finish", () => {
    logger.info(
      {
        method: request.method,
        path: request.path,
        status: response.statusCode,
        ms: Math.round(performance.now() - started),
      },
      "HTTP request",
    );
  });
  next();
}

/** Which React build the app renders with: "production" unless NODE_ENV said otherwise. */
function reactBuild(): "production" | "development" | "unknown" {
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  if (loaded.some((file) => /react-dom-server\.node\.production/.test(file))) return "production";
  if (loaded.some((file) => /react-dom-server\.node\.development/.test(file))) return "development";
  return "unknown";
}

const port = Number(process.env.PORT) || 3000;
const host = process.env.HOST;
function refuseToListen(error: NodeJS.ErrnoException) {
  // One line naming the setting, as the other start-up failures (decision 038).
  const reasons: Record<string, string> = {
    EADDRINUSE: `PORT: ${port} is already in use`,
    EACCES: `PORT: ${port} needs privileges this user does not have (use a port above 1023)`,
    EADDRNOTAVAIL: `HOST: ${host} is not an address of this machine`,
    ENOTFOUND: `HOST: ${host} cannot be found (DNS)`,
  };
  console.error(`${reasons[error.code ?? ""] ?? `PORT: ${port}: ${error.message}`} (listening)`);
  process.exit(1);
}
server.once("error", refuseToListen);
server.listen({ port, ...(host ? { host } : {}) }, () => {
  server.off("error", refuseToListen);
  logger.info(
    {
      port,
      host: host ?? "all interfaces",
      nodeEnv: process.env.NODE_ENV,
      react: reactBuild(),
    },
    "svc-protection is listening",
  );
});

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "Stopping: no new requests; finishing the ones in flight");
    // close() waits for requests in flight; idle keep-alive connections are closed at once.
    server.close(() => {
      void hooks
        .stopBackgroundWork()
        .catch((error: unknown) => logger.error({ err: error }, "Failed to stop cleanly"))
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  });
}
