// The production HTTP server (npm start runs it after the migrations): Remix through Express for
// pages, assets and every other route, and the order webhooks, nearly all of the traffic, answered
// before Express and Remix see them (decision 009). Usage: serve.ts <path to build/server/index.js>

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import type { ServerHooks } from "../app/server/hooks.server";
import type { OrderTopic } from "../app/orders";

/** Larger than any order Shopify sends (250 lines with every field is well under 5 MB). */
const MAX_WEBHOOK_BYTES = 20 * 1024 * 1024;

const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
// Node 22's own fetch, Request and Response (with Response.json), as Vite's dev server and the
// tests use; Remix's polyfills would replace them with classes that lack Response.json.
installGlobals({ nativeFetch: true });
const hooks = (build.entry.module as unknown as { serverHooks?: ServerHooks }).serverHooks;
if (!hooks) throw new Error(`${buildPath} does not export serverHooks from app/entry.server.tsx`);
const { logger } = hooks;

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }),
);
app.use(express.static("public", { maxAge: "1h" }));
app.use(logRequest);
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

const server = createServer((request, response) => {
  const topic = orderTopicOf(request);
  if (topic) void answerOrderWebhook(topic, request, response);
  else app(request, response);
});

function orderTopicOf(request: IncomingMessage): OrderTopic | undefined {
  if (request.method !== "POST" || !request.url) return undefined;
  const query = request.url.indexOf("?");
  return hooks!.orderWebhookPaths.get(query === -1 ? request.url : request.url.slice(0, query));
}

async function answerOrderWebhook(
  topic: OrderTopic,
  request: IncomingMessage,
  response: ServerResponse,
) {
  try {
    const body = await readBody(request);
    if (!body) {
      logger.error({ topic }, `Webhook refused: body over ${MAX_WEBHOOK_BYTES} bytes`);
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

/** The raw body, or null when it is larger than MAX_WEBHOOK_BYTES. */
async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  if (Number(request.headers["content-length"] ?? 0) > MAX_WEBHOOK_BYTES) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_WEBHOOK_BYTES) return null;
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

const port = Number(process.env.PORT) || 3000;
const host = process.env.HOST;
server.listen({ port, ...(host ? { host } : {}) }, () => {
  logger.info({ port, host: host ?? "all interfaces" }, "svc-protection is listening");
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
