import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { idempotencyKeyOf, registerApiRoutes } from "./api-routes";
import { loadDefaultCatalogue, parseCatalogue, type Catalogue } from "./catalogue";
import { registerControlRoutes } from "./control-routes";
import { ERROR_CODES, errorBody, toValidationErrors, type RequestPart } from "./errors";
import { addEmulatorKeywords, emulatorFormats, type EnvironmentName } from "./schemas";
import { EmulatorState, type RecordedRequest } from "./state";

export interface EmulatorOptions {
  sandboxKey: string;
  liveKey: string;
  /** Defaults to emulator/catalogue.json. */
  catalogue?: Catalogue;
  /** Fastify's own request logger; off unless asked for. */
  logger?: boolean;
}

export interface RunningEmulator {
  /** Production base URL, always with a trailing slash; sandbox is `${url}sandbox/`. */
  url: string;
  close(): Promise<void>;
}

const CONTROL_PREFIX = "/__emulator";
const SANDBOX_PREFIX = "/sandbox";

function pathOf(request: FastifyRequest): string {
  return request.url.split("?", 1)[0] ?? request.url;
}

function environmentOfPath(path: string): EnvironmentName {
  return path === SANDBOX_PREFIX || path.startsWith(`${SANDBOX_PREFIX}/`)
    ? "sandbox"
    : "production";
}

/** Keeps enough of the key to tell which one was sent, e.g. "Bearer …cal". */
export function redactAuthorization(value: string): string {
  const bearer = /^(Bearer +)(\S*)/i.exec(value);
  const secret = bearer?.[2] ?? value;
  const hint = secret.length > 6 ? secret.slice(-3) : "";
  return `${bearer?.[1] ?? ""}…${hint}`;
}

function recordableHeaders(request: FastifyRequest): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] =
      name.toLowerCase() === "authorization" ? redactAuthorization(String(value)) : value;
  }
  return headers;
}

function isRequestPart(value: unknown): value is RequestPart {
  return value === "body" || value === "querystring" || value === "headers" || value === "params";
}

function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) {
    const part = isRequestPart(error.validationContext) ? error.validationContext : "body";
    return reply
      .code(400)
      .send(errorBody(ERROR_CODES.validationFailed, toValidationErrors(part, error.validation)));
  }
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return reply.code(415).send(errorBody(ERROR_CODES.unsupportedMediaType));
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return reply.code(413).send(errorBody(ERROR_CODES.payloadTooLarge));
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return reply
        .code(400)
        .send(
          errorBody(ERROR_CODES.invalidJson, [{ field: "body", message: "is not valid JSON" }]),
        );
  }
  console.error(`Emulator failed to answer ${request.method} ${pathOf(request)}:`, error);
  return reply.code(500).send(errorBody(ERROR_CODES.internalError));
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A stand-in for the service-hosted checkout page that redirect and assist links point to. */
function registerCheckoutPages(app: FastifyInstance, state: EmulatorState): void {
  for (const [environment, prefix] of [
    ["production", ""],
    ["sandbox", SANDBOX_PREFIX],
  ] as const) {
    app.get<{ Params: { token: string } }>(`${prefix}/checkout/:token`, async (request, reply) => {
      const checkoutLink = state.environments[environment].findCheckoutLinkByToken(
        request.params.token,
      );
      if (!checkoutLink) return reply.code(404).send(errorBody(ERROR_CODES.notFound));
      const description = `${checkoutLink.checkout_type} checkout for order ${checkoutLink.order_id} (${environment})`;
      return reply
        .type("text/html; charset=utf-8")
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc protection checkout</title></head>` +
            `<body><h1>svc protection checkout (emulator)</h1><p>${escapeHtml(description)}</p></body></html>`,
        );
    });
  }
}

export function buildEmulator(options: EmulatorOptions): FastifyInstance {
  if (!options.sandboxKey || !options.liveKey)
    throw new Error("Emulator needs both a sandbox key and a live key");
  // With one key for both environments a client could not be caught using the wrong one.
  if (options.sandboxKey === options.liveKey)
    throw new Error("Emulator sandbox and live keys must differ");
  const catalogue = options.catalogue
    ? parseCatalogue(options.catalogue, "EmulatorOptions.catalogue")
    : loadDefaultCatalogue();
  const state = new EmulatorState(catalogue);

  const app = Fastify({
    logger: options.logger ?? false,
    forceCloseConnections: true,
    ajv: {
      customOptions: {
        allErrors: true,
        // Fastify's defaults coerce types and drop unknown properties, which would hide the very
        // mistakes (string amounts, misspelt fields) the emulator exists to catch.
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        discriminator: true,
        formats: emulatorFormats,
      },
      plugins: [addEmulatorKeywords],
    },
  });

  // Invalid JSON is answered only after authentication, so the parser just remembers it.
  const unparsedBodies = new WeakMap<FastifyRequest, string>();
  const hasUnparsedBody = (request: FastifyRequest) => unparsedBodies.has(request);
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body);
    try {
      done(null, JSON.parse(text));
    } catch {
      unparsedBodies.set(request, text);
      done(null, undefined);
    }
  });

  // Recorded in onSend rather than onResponse so the entry exists before the client has the answer.
  const entries = new WeakMap<FastifyRequest, RecordedRequest>();
  app.addHook("onSend", async (request, reply, payload) => {
    const path = pathOf(request);
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return payload;
    const note = state.requestNotes.get(request);
    const entry: RecordedRequest = {
      method: request.method,
      path,
      environment: environmentOfPath(path),
      headers: recordableHeaders(request),
      query: { ...(request.query as Record<string, unknown> | undefined) },
      body: request.body ?? null,
      status: reply.statusCode,
      received_at: new Date().toISOString(),
      idempotency_key: idempotencyKeyOf(request),
      ...(note?.event_id === undefined ? {} : { event_id: note.event_id }),
      ...(note?.fault === undefined ? {} : { fault: note.fault }),
      answered: null,
    };
    const unparsedBody = unparsedBodies.get(request);
    if (unparsedBody !== undefined) entry.unparsed_body = unparsedBody;
    state.requests.push(entry);
    entries.set(request, entry);
    // "close" comes once the answer was written out, or once the connection was gone.
    reply.raw.once("close", () => {
      entry.answered = reply.raw.writableFinished;
    });
    return payload;
  });

  // A fault "after commit": the request was processed and recorded; now the answer is late, or
  // replaced, as when the service stored an event and then timed out or answered oddly.
  app.addHook("onSend", async (request, reply, payload) => {
    const fault = state.requestNotes.get(request)?.after_commit;
    if (!fault) return payload;
    if (fault.delay_ms > 0) await sleep(fault.delay_ms);
    let answer = payload;
    if (fault.raw_body !== undefined || fault.body !== undefined) {
      reply.code(fault.status ?? 200).type("application/json");
      answer = fault.raw_body ?? JSON.stringify(fault.body);
    } else if (fault.status !== null) {
      reply.code(fault.status).type("application/json");
      answer = JSON.stringify(errorBody(ERROR_CODES.injectedFault));
    }
    const entry = entries.get(request);
    if (entry) entry.status = reply.statusCode;
    return answer;
  });

  app.setErrorHandler(sendError);
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send(errorBody(ERROR_CODES.notFound)),
  );

  const apiRouteOptions = { state, hasUnparsedBody };
  app.register(registerApiRoutes, {
    ...apiRouteOptions,
    environment: "production",
    apiKey: options.liveKey,
    otherEnvironmentKey: options.sandboxKey,
    pathPrefix: "",
  });
  app.register(registerApiRoutes, {
    ...apiRouteOptions,
    prefix: SANDBOX_PREFIX,
    environment: "sandbox",
    apiKey: options.sandboxKey,
    otherEnvironmentKey: options.liveKey,
    pathPrefix: SANDBOX_PREFIX,
  });
  app.register(registerControlRoutes, { state, hasUnparsedBody, prefix: CONTROL_PREFIX });
  registerCheckoutPages(app, state);

  return app;
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

export async function startEmulator(
  options: EmulatorOptions & { port?: number; host?: string },
): Promise<RunningEmulator> {
  const { port = 0, host = "127.0.0.1", ...emulatorOptions } = options;
  const app = buildEmulator(emulatorOptions);
  await app.listen({ port, host });
  const address = app.server.address() as AddressInfo;
  return {
    url: `http://${urlHost(host)}:${address.port}/`,
    close: async () => {
      await app.close();
    },
  };
}
