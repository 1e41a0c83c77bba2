import { createHash } from "node:crypto";
import {
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLError as GraphQLErrorType,
  type OperationDefinitionNode,
  GraphQLError,
  Kind,
  getDirectiveValues,
  getOperationAST,
  getVariableValues,
  execute as executeGraphql,
  parse,
  validate as validateGraphql,
} from "./graphql-js";
import type { Id, StoreActions, StoreShop } from "../model";
import type { AdminContext } from "./context";
import { BulkOperations } from "./bulk-operations";
import { MAX_QUERY_COST, actualQueryCost, requestedQueryCost } from "./cost";
import { viewFieldResolver, viewTypeResolver } from "./default-resolver";
import {
  type ShopifyError,
  syntaxErrorToShopify,
  validationErrorsToShopify,
  variableErrorsOf,
} from "./errors";
import { IdempotencyKeys } from "./idempotency";
import { ADMIN_API_VERSION, adminSchema } from "./schema";
import { LeakyBuckets, type ThrottleStatus } from "./throttle";

export { ADMIN_API_VERSION } from "./schema";

export interface AdminGraphqlRequest {
  shop: StoreShop;
  apiVersion: string;
  body: string;
}

export interface AdminGraphqlOutcome {
  /** HTTP status to answer. */
  status: number;
  /** JSON to answer (IDs as strings inside GraphQL, as Shopify). */
  body: unknown;
  log: {
    operationName: string | null;
    query: string;
    variables: unknown;
    idempotencyKey: string | null;
    validationErrors: string[];
    errors: unknown[];
  };
}

const RATE_LIMITS_DOCUMENTATION = "https://shopify.dev/api/usage/rate-limits";

/**
 * The app's ID as the store shows it (its reserved metafield namespace is `app--<id>`): a stable
 * number above 2^53 derived from the API key, since a shop here holds one app.
 */
export function appIdOf(shop: StoreShop): Id {
  const digest = createHash("sha256").update(shop.app.apiKey).digest("hex").slice(0, 12);
  return (BigInt(`0x${digest}`) + 2n ** 53n).toString();
}

interface ParsedBody {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON body, or undefined when it has no query: Shopify answers that 400. */
function parseBody(body: string): ParsedBody | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(json) || typeof json.query !== "string" || json.query.trim() === "")
    return undefined;
  const { variables, operationName } = json;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return undefined;
  return {
    query: json.query,
    variables: variables ?? {},
    operationName: typeof operationName === "string" ? operationName : null,
  };
}

function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  return Object.fromEntries(
    document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
}

/** The operation to run, or graphql-ruby's error when the document does not say which. */
function operationOf(
  document: DocumentNode,
  operationName: string | null,
): OperationDefinitionNode | ShopifyError {
  const operation = getOperationAST(document, operationName);
  if (operation) return operation;
  return {
    message: operationName
      ? `No operation named "${operationName}"`
      : "An operation name is required",
  };
}

/** The key of the first mutation field that carries `@idempotent`, for the log. */
function idempotencyKeyIn(
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): string | null {
  const directive = adminSchema().getDirective("idempotent");
  if (!directive || operation.operation !== "mutation") return null;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const values = getDirectiveValues(directive, selection, variables);
    if (typeof values?.key === "string") return values.key;
  }
  return null;
}

/** An error graphql-js caught in a resolver: ours keep their shape, others are internal errors. */
function formatExecutionError(error: GraphQLErrorType): ShopifyError {
  const shaped = error.toJSON() as ShopifyError;
  const original = error.originalError;
  if (original && !(original instanceof GraphQLError)) {
    return {
      ...shaped,
      message: `Internal error in the local store: ${original.message}`,
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    };
  }
  return shaped;
}

/**
 * What Shopify would refuse in a request before running it: syntax, schema validation and, when
 * variables are given, their coercion. Shopify's messages, one per fault; none when it is valid.
 */
export function validateAdminRequest(query: string, variables?: unknown): string[] {
  const schema = adminSchema();
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    if (error instanceof GraphQLError) return [syntaxErrorToShopify(error).message];
    throw error;
  }
  const invalid = validateGraphql(schema, document);
  if (invalid.length > 0) {
    return validationErrorsToShopify(schema, document, invalid).map((error) => error.message);
  }
  const operation = getOperationAST(document);
  if (!operation || variables === undefined) return [];
  const inputs = isRecord(variables) ? variables : {};
  return variableErrorsOf(schema, operation, inputs).map((error) => error.message);
}

export function createAdminGraphql(
  state: StoreActions,
  options: {
    now?: () => number;
    appScopes?: AdminContext["appScopes"];
    /** The store's bulk operations; the engine keeps its own without. */
    bulk?: BulkOperations;
  } = {},
): {
  execute(request: AdminGraphqlRequest): Promise<AdminGraphqlOutcome>;
  emptyBucket(shopDomain: string): void;
  validate(query: string, variables?: unknown): string[];
  bulk: BulkOperations;
} {
  const now = options.now ?? Date.now;
  const bulk = options.bulk ?? new BulkOperations({ now });
  const buckets = new LeakyBuckets(now);
  const idempotency = new IdempotencyKeys();

  function costExtensions(
    requested: number,
    actual: number | null,
    throttleStatus: ThrottleStatus,
  ) {
    return { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus } };
  }

  async function execute(request: AdminGraphqlRequest): Promise<AdminGraphqlOutcome> {
    const { shop } = request;
    const parsed = parseBody(request.body);
    const log: AdminGraphqlOutcome["log"] = {
      operationName: parsed?.operationName ?? null,
      query: parsed?.query ?? "",
      variables: parsed?.variables ?? null,
      idempotencyKey: null,
      validationErrors: [],
      errors: [],
    };
    const answer = (status: number, body: unknown): AdminGraphqlOutcome => {
      if (isRecord(body) && Array.isArray(body.errors)) log.errors = body.errors;
      return { status, body, log };
    };

    if (request.apiVersion !== ADMIN_API_VERSION) {
      return answer(404, {
        errors: `The local store answers Admin API version ${ADMIN_API_VERSION} only, not ${request.apiVersion}`,
      });
    }
    if (!parsed) {
      return answer(400, { errors: { query: "Required parameter missing or invalid" } });
    }

    const schema = adminSchema();
    const unchargedCost = () => costExtensions(0, 0, buckets.status(shop.domain, shop.plan));
    const refuse = (errors: ShopifyError[]) => {
      log.validationErrors = errors.map((error) => error.message);
      return answer(200, { errors, extensions: unchargedCost() });
    };

    let document: DocumentNode;
    try {
      document = parse(parsed.query);
    } catch (error) {
      if (error instanceof GraphQLError) return refuse([syntaxErrorToShopify(error)]);
      throw error;
    }
    // Named before validating, so the log says which operation a refused request was.
    const operation = operationOf(document, parsed.operationName);
    if ("kind" in operation) log.operationName = operation.name?.value ?? parsed.operationName;
    const invalid = validateGraphql(schema, document);
    if (invalid.length > 0) return refuse(validationErrorsToShopify(schema, document, invalid));
    if (!("kind" in operation)) return refuse([operation]);
    if (operation.operation === "subscription") {
      return refuse([{ message: "Subscriptions are not supported by the Admin API" }]);
    }
    const variableErrors = variableErrorsOf(schema, operation, parsed.variables);
    if (variableErrors.length > 0) return refuse(variableErrors);
    const coerced = getVariableValues(
      schema,
      operation.variableDefinitions ?? [],
      parsed.variables,
    );
    if (coerced.errors) return refuse(coerced.errors.map((error) => ({ message: error.message })));
    log.idempotencyKey = idempotencyKeyIn(operation, coerced.coerced);

    const costInput = {
      schema,
      operation,
      fragments: fragmentsOf(document),
      variables: coerced.coerced,
    };
    const requested = requestedQueryCost(costInput);
    if (requested > MAX_QUERY_COST) {
      return answer(200, {
        errors: [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).\n\nSee ${RATE_LIMITS_DOCUMENTATION} for more information on how the cost of a query is calculated.\n\nTo query larger amounts of data with fewer limits, bulk operations should be used instead.`,
            extensions: {
              code: "MAX_COST_EXCEEDED",
              cost: requested,
              maxCost: MAX_QUERY_COST,
              documentation: RATE_LIMITS_DOCUMENTATION,
            },
          },
        ],
        extensions: costExtensions(requested, null, buckets.status(shop.domain, shop.plan)),
      });
    }
    if (!buckets.take(shop.domain, shop.plan, requested)) {
      return answer(200, {
        errors: [
          {
            message: "Throttled",
            extensions: { code: "THROTTLED", documentation: RATE_LIMITS_DOCUMENTATION },
          },
        ],
        extensions: costExtensions(requested, null, buckets.status(shop.domain, shop.plan)),
      });
    }

    const context: AdminContext = {
      state,
      shop,
      appId: appIdOf(shop),
      appScopes: options.appScopes ?? { required: [], optional: [] },
      actor: { kind: "app", appId: appIdOf(shop) },
      now,
      idempotency,
      bulk,
      resolvedTypes: new Map(),
    };
    const result = (await executeGraphql({
      schema,
      document,
      rootValue: {},
      contextValue: context,
      variableValues: parsed.variables,
      operationName: parsed.operationName,
      fieldResolver: viewFieldResolver,
      typeResolver: viewTypeResolver,
    })) as ExecutionResult;

    const actual = Math.min(
      requested,
      actualQueryCost({ ...costInput, resolvedTypes: context.resolvedTypes }, result.data),
    );
    buckets.giveBack(shop.domain, shop.plan, requested - actual);
    const body: Record<string, unknown> = {};
    if (result.errors?.length) body.errors = result.errors.map(formatExecutionError);
    body.data = result.data ?? null;
    body.extensions = costExtensions(requested, actual, buckets.status(shop.domain, shop.plan));
    return answer(200, body);
  }

  return {
    execute,
    emptyBucket: (shopDomain) => buckets.empty(shopDomain),
    validate: validateAdminRequest,
    bulk,
  };
}
