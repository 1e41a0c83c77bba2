// The production HTTP server (npm start runs it after the migrations): Remix through Express for
// pages, assets and every other route, and the order webhooks, nearly all of the traffic, answered
// before Express and Remix see them (decision 009). Every request body is capped before it is
// read, and read here, counting the bytes that arrive against one byte budget and a minimum
// rate, before any route sees it (decisions 016 and 041).
// Usage: serve.ts <path to build/server/index.js>

import "./production-default";
import { randomUUID } from "node:crypto";
import { createServer, IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { pinoHttp } from "pino-http";
import {
  BodyLedger,
  claimsShopifyDelivery,
  maxBodyBytesFor,
  type BodyAdmission,
  type BodyReceipt,
} from "../app/server/body-limits.server";
import type { ServerHooks } from "../app/server/hooks.server";
import type { Readiness } from "../app/server/readiness.server";
import { clientAddressOf } from "../app/lib/client-address";
import type { OrderTopic } from "../app/orders";
import { flushTraces, tracingRequested } from "../app/tracing/tracing.server";

const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
// Node 22's own fetch, Request and Response (with Response.json), as Vite's dev server and the
// tests use; Remix's polyfills would replace them with classes that lack Response.json.
installGlobals({ nativeFetch: true });
const hooks = (build.entry.module as unknown as { serverHooks?: ServerHooks }).serverHooks;
if (!hooks) throw new Error(`${buildPath} does not export serverHooks from app/entry.server.tsx`);
const { logger } = hooks;
// Traces only with an OTLP endpoint: otherwise nothing of OpenTelemetry is loaded (decision 051).
if (tracingRequested(process.env))
  (await import("../app/tracing/export.server")).startTracing({ process: "web", log: logger });
const limits = hooks.edgeLimits();
const ledger = new BodyLedger(limits);
/**
 * One line per request, when its answer is sent, through pino-http and the app's logger: its
 * request ID (X-Request-Id when well-formed, else a new one, sent back in the answer), and for a
 * webhook the shop, topic and webhook ID it claims, for an app proxy call its shop (decision 048).
 * The line is flat and built once, at the end: nested objects and per-request child loggers
 * cost the order webhooks' fast path more than the line itself (the logger's redaction).
 */
const httpLog = pinoHttp<IncomingMessage, ServerResponse>({
  logger,
  genReqId: (request, response) => {
    const id = requestIdOf(request);
    response.setHeader("X-Request-Id", id);
    return id;
  },
  customAttributeKeys: { reqId: "requestId", responseTime: "ms" },
  // request.log carries the request ID alone; routes add what they verified.
  quietReqLogger: true,
  quietResLogger: true,
  wrapSerializers: false,
  // pino-http binds the whole request to a logger it does not use here: nothing to serialize.
  serializers: { req: () => undefined },
  customSuccessObject: (request, response, fields: { ms: number }) =>
    httpLineOf(request, response, fields.ms),
  customErrorObject: (request, response, _error, fields: { ms: number }) =>
    httpLineOf(request, response, fields.ms),
  customLogLevel: (_request, response, error) =>
    error || response.statusCode >= 500 ? "error" : response.statusCode >= 400 ? "warn" : "info",
  customSuccessMessage: (request, response) =>
    `${request.method} ${pathOf(request)} ${response.writableEnded ? response.statusCode : "aborted"}`,
  customErrorMessage: (request, response) =>
    `${request.method} ${pathOf(request)} ${response.statusCode}`,
});

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }),
);
app.use(express.static("public", { maxAge: "1h" }));
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
  (request, response) => void serveRequest(request, response, false),
);
// A client that asks before sending its body (Expect: 100-continue) is told after the same
// admission, so a refused body is never sent at all.
server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
  void serveRequest(request, response, true);
});

async function serveRequest(
  request: IncomingMessage,
  response: ServerResponse,
  expectsContinue: boolean,
) {
  const path = pathOf(request);
  if (isProbe(request.method, path)) {
    void answerProbe(request, response, path);
    return;
  }
  httpLog(request, response);
  const topic = orderTopicOf(request, path);
  // Every body is admitted before a byte of it is read, whichever route reads it (decision 016),
  // and then read here, counted as it arrives (decision 041).
  const admission = ledger.admit(
    {
      headers: request.headers,
      maxBytes: maxBodyBytesFor(path, topic !== undefined, limits),
      // The socket's peer, or with proxies of ours in front the address they forwarded.
      address: clientAddressOf({
        forwardedFor: headerOf(request, "x-forwarded-for"),
        socketAddress: request.socket.remoteAddress,
        trustedProxies: limits.trustedProxies,
      }),
      shopifyDelivery: claimsShopifyDelivery(request.method, path, request.headers),
    },
    performance.now(),
  );
  if (admission.kind !== "admit") {
    refuseBody(request, response, path, admission);
    return;
  }
  if (expectsContinue) response.writeContinue();
  const { receipt } = admission;
  let body: Buffer | null = null;
  if (receipt) {
    response.once("close", () => ledger.release(receipt));
    body = await receiveBody(request, response, path, receipt);
    if (!body) return;
  }
  if (topic) void answerOrderWebhook(topic, request, response, body ?? Buffer.alloc(0));
  else app(body ? replayOf(request, body) : request, response);
}

/** Bodies still arriving, so that the rate check can cut off those too slow (decision 041). */
const cutOffs = new Map<BodyReceipt, () => void>();
setInterval(
  () => {
    for (const receipt of ledger.tooSlow(performance.now())) cutOffs.get(receipt)?.();
  },
  Math.max(100, Math.min(1_000, limits.bodyRateWindowMs / 4)),
).unref();

/**
 * The whole body, counted chunk by chunk against the ledger, or null when the request was
 * refused meanwhile (answered here: 413, 503 or 408) or its connection went. Refused bytes are
 * dropped at once.
 */
function receiveBody(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  receipt: BodyReceipt,
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    const finish = (body: Buffer | null) => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("close", onClose);
      cutOffs.delete(receipt);
      ledger.complete(receipt);
      chunks = [];
      resolve(body);
    };
    const refuse = (status: 408 | 413 | 503, reason: string) => {
      const fields = { method: request.method, path, status, source: receipt.source };
      request.log.warn(
        { ...fields, receivedBytes: receipt.receivedBytes, declaredBytes: receipt.declaredBytes },
        `Refused ${request.method} ${path} with ${status} while reading its body: ${reason}`,
      );
      ledger.release(receipt);
      finish(null);
      hooks!.countEdgeRefusal(status);
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response
        .writeHead(status, {
          Connection: "close",
          "Content-Type": "text/plain; charset=utf-8",
          ...(status === 503 ? { "Retry-After": "5" } : {}),
        })
        .end(`Request refused: ${reason}\n`);
    };
    const onData = (chunk: Buffer) => {
      const verdict = ledger.receive(receipt, chunk.length);
      if (verdict === "ok") chunks.push(chunk);
      else if (verdict === "too_large") refuse(413, `the body is over its declared bytes`);
      else refuse(503, `${ledger.used} bytes of bodies are already held`);
    };
    const onEnd = () => {
      finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, receipt.receivedBytes));
    };
    const onClose = () => {
      // The client went before its body was complete: nothing to answer.
      ledger.release(receipt);
      finish(null);
    };
    cutOffs.set(receipt, () =>
      refuse(408, `the body arrived slower than ${limits.minBodyBytesPerSecond} bytes per second`),
    );
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("close", onClose);
  });
}

/**
 * A request for Express and Remix whose body is the one already read: the same socket, method,
 * URL and headers, and the bytes as they arrived.
 */
function replayOf(request: IncomingMessage, body: Buffer): IncomingMessage {
  const replay = new IncomingMessage(request.socket);
  replay.method = request.method;
  replay.url = request.url;
  replay.headers = request.headers;
  replay.rawHeaders = request.rawHeaders;
  replay.httpVersion = request.httpVersion;
  replay.httpVersionMajor = request.httpVersionMajor;
  replay.httpVersionMinor = request.httpVersionMinor;
  replay.complete = true;
  replay.push(body);
  replay.push(null);
  return replay;
}

function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return (Array.isArray(value) ? value.join(", ") : value) ?? null;
}

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
        ? `${ledger.used} bytes of bodies are already held`
        : admission.kind === "source_busy"
          ? `this address is already sending ${limits.bodiesPerSource} bodies`
          : "the body has no Content-Length";
  request.log.warn(fields, `Refused ${request.method} ${path} with ${admission.status}: ${reason}`);
  hooks!.countEdgeRefusal(admission.status);
  // The body is never read: the connection closes after the answer instead.
  response
    .writeHead(admission.status, {
      Connection: "close",
      "Content-Type": "text/plain; charset=utf-8",
      ...(admission.kind === "busy" || admission.kind === "source_busy"
        ? { "Retry-After": "5" }
        : {}),
    })
    .end(`Request refused: ${reason}\n`);
}

async function answerOrderWebhook(
  topic: OrderTopic,
  request: IncomingMessage,
  response: ServerResponse,
  body: Buffer,
) {
  try {
    const answer = await hooks!.handleOrderWebhook(topic, {
      method: "POST",
      header: (name) => headerValue(request.headers[name]),
      body,
      log: request.log,
    });
    response.writeHead(answer.status, answer.headers).end();
  } catch (error) {
    request.log.error({ err: error, topic }, "Failed to answer an order webhook");
    if (!response.headersSent) response.writeHead(500).end();
    else response.destroy();
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const WELL_FORMED_REQUEST_ID = /^[\w.:@+=/-]{1,128}$/;

/** The caller's X-Request-Id when it is safe to log and send back, else a new one. */
function requestIdOf(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID();
}

function httpLineOf(request: IncomingMessage, response: ServerResponse, ms: number) {
  return {
    method: request.method,
    path: pathOf(request),
    statusCode: response.statusCode,
    ms,
    ...subjectOf(request),
  };
}

/** What the HTTP line says a request is about: claimed by its headers or query, not verified. */
function subjectOf(request: IncomingMessage): Record<string, string> {
  const url = request.url ?? "/";
  if (url.startsWith("/webhooks/")) {
    const fields: Record<string, string> = {};
    for (const [field, header] of WEBHOOK_HEADERS) {
      const value = headerOf(request, header);
      if (value) fields[field] = value.slice(0, 255);
    }
    return fields;
  }
  if (url.startsWith("/proxy/")) {
    const query = url.indexOf("?");
    const shop = query === -1 ? null : new URLSearchParams(url.slice(query + 1)).get("shop");
    return shop ? { shop: shop.slice(0, 255) } : {};
  }
  return {};
}

const WEBHOOK_HEADERS = [
  ["shop", "x-shopify-shop-domain"],
  ["topic", "x-shopify-topic"],
  ["webhookId", "x-shopify-webhook-id"],
] as const;

/** Liveness and readiness probes: answered before anything else, and never logged. */
function isProbe(method: string | undefined, path: string): boolean {
  return (method === "GET" || method === "HEAD") && (path === "/healthz" || path === "/readyz");
}

const DRAINING: Readiness = { ready: false, reason: "draining", detail: "stopping" };

/**
 * /healthz: the process answers (no database call, so an outage never restarts it). /readyz:
 * the database answers, every migration is applied, and no stop signal has arrived (decision 048).
 */
async function answerProbe(request: IncomingMessage, response: ServerResponse, path: string) {
  let status = 200;
  let body: Record<string, string> = { status: "ok" };
  if (path === "/readyz") {
    const checked = draining ? DRAINING : await hooks!.checkReadiness();
    const readiness = draining ? DRAINING : checked;
    status = readiness.ready ? 200 : 503;
    body = readiness.ready
      ? { status: "ready" }
      : { status: "not ready", reason: readiness.reason };
  }
  const text = JSON.stringify(body);
  response
    .writeHead(status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
      "Cache-Control": "no-store",
    })
    .end(request.method === "HEAD" ? undefined : text);
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

// Metrics on their own port (SVC_METRICS_PORT, decision 047), never on the app's.
hooks.startMetrics().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

let stopping = false;
let draining = false;
let drainTimer: NodeJS.Timeout | undefined;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  whenDrained(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "Stopping: no new requests; finishing the ones in flight");
    // close() waits for requests in flight; idle keep-alive connections are closed at once.
    server.close(() => {
      void hooks
        .stopBackgroundWork()
        .catch((error: unknown) => logger.error({ err: error }, "Failed to stop cleanly"))
        .then(() => flushTraces())
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  });
}

/**
 * On a stop signal, /readyz answers 503 at once, and `stop` runs once a load balancer has had
 * SVC_SHUTDOWN_DELAY_MS to see it and send no more; meanwhile requests are served as before. A
 * second signal stops at once (decision 048).
 */
function whenDrained(signal: NodeJS.Signals, stop: () => void) {
  process.on(signal, () => {
    if (draining) {
      clearTimeout(drainTimer);
      stop();
      return;
    }
    draining = true;
    const delayMs = hooks!.shutdownDelayMs();
    logger.info({ signal, delayMs }, `Draining: /readyz answers 503; stopping in ${delayMs} ms`);
    drainTimer = setTimeout(stop, delayMs);
  });
}
