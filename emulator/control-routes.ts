import type { FastifyInstance, FastifyRequest } from "fastify";
import { catalogueSchema, type Catalogue } from "./catalogue";
import { ERROR_CODES, errorBody } from "./errors";
import {
  faultRequestSchema,
  stateQuerySchema,
  type EnvironmentName,
  type FaultRequest,
} from "./schemas";
import type { EmulatorState, FaultRule } from "./state";

/** An injected fault with neither status, delay, body nor `after` fails with this status. */
export const DEFAULT_FAULT_STATUS = 503;

export interface ControlRoutesOptions {
  state: EmulatorState;
  hasUnparsedBody: (request: FastifyRequest) => boolean;
}

/** Test-only endpoints under /__emulator: no authentication, not per environment. */
export async function registerControlRoutes(
  app: FastifyInstance,
  options: ControlRoutesOptions,
): Promise<void> {
  const { state } = options;

  app.addHook("preValidation", async (request, reply) => {
    if (options.hasUnparsedBody(request)) {
      return reply
        .code(400)
        .send(
          errorBody(ERROR_CODES.invalidJson, [{ field: "body", message: "is not valid JSON" }]),
        );
    }
  });

  app.get("/requests", async () => ({ requests: state.requests }));

  app.post("/reset", async (_request, reply) => {
    state.reset();
    return reply.code(204).send();
  });

  app.get("/faults", async () => ({ faults: state.pruneFaults() }));

  app.post<{ Body: FaultRequest }>(
    "/faults",
    { schema: { body: faultRequestSchema } },
    async (request, reply) => {
      const {
        count,
        duration_ms: durationMs,
        status,
        delay_ms: delayMs = 0,
        body,
        raw_body: rawBody,
        after,
        match = {},
      } = request.body;
      const problems = [
        ...(count === undefined && durationMs === undefined
          ? [{ field: "count", message: "is required unless duration_ms is given" }]
          : []),
        ...(body !== undefined && rawBody !== undefined
          ? [{ field: "raw_body", message: "cannot be combined with body" }]
          : []),
      ];
      if (problems.length)
        return reply.code(400).send(errorBody(ERROR_CODES.validationFailed, problems));
      const shapesAnswer = delayMs > 0 || body !== undefined || rawBody !== undefined;
      const rule: FaultRule = {
        remaining: count ?? null,
        ...(durationMs === undefined
          ? {}
          : { expires_at: new Date(Date.now() + durationMs).toISOString() }),
        // After the commit with no status, the real answer goes out (late, or as scripted).
        status: status ?? (shapesAnswer || after === "commit" ? null : DEFAULT_FAULT_STATUS),
        delay_ms: delayMs,
        ...(body === undefined ? {} : { body }),
        ...(rawBody === undefined ? {} : { raw_body: rawBody }),
        ...(after === undefined ? {} : { after }),
        match: { ...match },
      };
      state.addFault(rule);
      return { faults: state.pruneFaults() };
    },
  );

  app.get<{ Querystring: { environment: EnvironmentName } }>(
    "/state",
    { schema: { querystring: stateQuerySchema } },
    async (request) => state.environments[request.query.environment].toSnapshot(),
  );

  app.get("/catalogue", async () => state.catalogue);

  app.post<{ Body: Catalogue }>(
    "/catalogue",
    { schema: { body: catalogueSchema } },
    async (request) => {
      state.catalogue = structuredClone(request.body);
      return state.catalogue;
    },
  );
}
