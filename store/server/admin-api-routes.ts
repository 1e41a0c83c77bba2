import type { FastifyInstance, FastifyRequest } from "fastify";
import type { createAdminGraphql } from "../graphql/index";
import type { StoreActions } from "../model";
import type { AccessGrants } from "./oauth";

/*
 * The Admin GraphQL endpoint, per shop: the access token must open the shop (its offline token,
 * or a live online token), then the engine validates and executes the request. Every request
 * that reached the endpoint is logged for `GET /__store/graphql`.
 */

export type AdminGraphql = ReturnType<typeof createAdminGraphql>;

export const INVALID_TOKEN_ANSWER = {
  errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
} as const;

export interface GraphqlLogEntry {
  shop: string;
  api_version: string;
  /** "offline" or "online"; null when the token was refused. */
  token: "offline" | "online" | null;
  operation_name: string | null;
  query: string;
  variables: unknown;
  idempotency_key: string | null;
  validation_errors: string[];
  errors: unknown[];
  status: number;
  answer: unknown;
  received_at: string;
  duration_ms: number;
}

export interface AdminApiRoutesOptions {
  state: StoreActions;
  grants: AccessGrants;
  /** The engine in use (replaced on reset). */
  graphql: () => AdminGraphql;
  log: GraphqlLogEntry[];
  rawBodyOf: (request: FastifyRequest) => string | undefined;
  now: () => Date;
}

/** What can be read of a request the engine never saw, for the log. */
function describeUnexecuted(body: string): {
  operationName: string | null;
  query: string;
  variables: unknown;
} {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null) {
      const fields = parsed as Record<string, unknown>;
      return {
        operationName: typeof fields.operationName === "string" ? fields.operationName : null,
        query: typeof fields.query === "string" ? fields.query : "",
        variables: fields.variables ?? null,
      };
    }
  } catch {
    // Not JSON: logged as is.
  }
  return { operationName: null, query: body, variables: null };
}

/** Registered under the per-shop prefix `/shops/:shop`. */
export async function registerAdminApiRoutes(
  app: FastifyInstance,
  options: AdminApiRoutesOptions,
): Promise<void> {
  const { state, grants, log, now } = options;

  app.post<{ Params: { shop: string; version: string } }>(
    "/admin/api/:version/graphql.json",
    async (request, reply) => {
      const receivedAt = now();
      const started = performance.now();
      const shop = state.shop(request.params.shop);
      if (!shop) return reply.code(404).send({ errors: "Not Found" });
      const rawBody = options.rawBodyOf(request) ?? "";
      // `Content-Type: application/graphql` carries the bare query, as Shopify accepts.
      const body = request.headers["content-type"]?.startsWith("application/graphql")
        ? JSON.stringify({ query: rawBody })
        : rawBody;

      const tokenHeader = request.headers["x-shopify-access-token"];
      const token =
        typeof tokenHeader === "string" ? grants.accessTokenKind(shop.domain, tokenHeader) : null;
      if (token === null) {
        const seen = describeUnexecuted(body);
        log.push({
          shop: shop.domain,
          api_version: request.params.version,
          token: null,
          operation_name: seen.operationName,
          query: seen.query,
          variables: seen.variables,
          idempotency_key: null,
          validation_errors: [],
          errors: [INVALID_TOKEN_ANSWER.errors],
          status: 401,
          answer: INVALID_TOKEN_ANSWER,
          received_at: receivedAt.toISOString(),
          duration_ms: Math.round(performance.now() - started),
        });
        return reply.code(401).send(INVALID_TOKEN_ANSWER);
      }

      const outcome = await options
        .graphql()
        .execute({ shop, apiVersion: request.params.version, body });
      log.push({
        shop: shop.domain,
        api_version: request.params.version,
        token,
        operation_name: outcome.log.operationName,
        query: outcome.log.query,
        variables: outcome.log.variables,
        idempotency_key: outcome.log.idempotencyKey,
        validation_errors: outcome.log.validationErrors,
        errors: outcome.log.errors,
        status: outcome.status,
        answer: outcome.body,
        received_at: receivedAt.toISOString(),
        duration_ms: Math.round(performance.now() - started),
      });
      return reply.code(outcome.status).send(outcome.body);
    },
  );
}
