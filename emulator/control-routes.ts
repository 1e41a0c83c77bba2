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

/** An injected fault with neither status, delay nor body fails with this status. */
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

  app.get("/faults", async () => ({ faults: state.faults }));

  app.post<{ Body: FaultRequest }>(
    "/faults",
    { schema: { body: faultRequestSchema } },
    async (request) => {
      const { count, status, delay_ms: delayMs = 0, body, match = {} } = request.body;
      const rule: FaultRule = {
        remaining: count,
        status: status ?? (delayMs > 0 || body !== undefined ? null : DEFAULT_FAULT_STATUS),
        delay_ms: delayMs,
        ...(body === undefined ? {} : { body }),
        match: { ...match },
      };
      state.addFault(rule);
      return { faults: state.faults };
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
