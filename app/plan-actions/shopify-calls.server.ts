import {
  GraphqlQueryError,
  HttpMaxRetriesError,
  HttpRequestError,
  HttpResponseError,
  HttpThrottlingError,
} from "@shopify/shopify-api";
import {
  graphqlErrorCodes,
  thrownGraphqlErrors,
  type AdminData,
  type AdminGraphql,
  type AdminOperation,
  type AdminVariables,
} from "../services/admin-api.server";
import { OfflineTokenError, REAUTHORIZE_ADVICE } from "../services/offline-token-error";
import { metrics, type ShopifyCaller } from "../metrics/registry.server";

/*
 * One Admin API call of a queued action, and what its failure means for the queue: throttled
 * (wait until the shop's bucket holds the request's cost again), worth retrying (5xx, network,
 * time-out, an expiring offline token that ran out: the next run refreshes it), or refused (the
 * request or the app is wrong, or the shop's token cannot be refreshed: retrying cannot help).
 */

export type ShopifyAnswer<Data> =
  /** `cost`: Shopify's `extensions.cost`, what the call took from the shop's bucket. */
  | { kind: "ok"; data: Data; cost?: QueryCost }
  | { kind: "throttled"; retryAfterMs: number; detail: string; cost?: QueryCost }
  | { kind: "retryable"; detail: string }
  | { kind: "refused"; detail: string };

/** A call that has not answered in this time is abandoned and retried later. */
const CALL_TIMEOUT_MS = 30_000;
/** The wait after a throttle that says nothing of the bucket. */
const DEFAULT_THROTTLE_WAIT_MS = 2_000;

/** Codes of GraphQL errors that say "try again later", not "this request is wrong". */
const RETRYABLE_CODES = new Set(["INTERNAL_SERVER_ERROR", "SERVICE_UNAVAILABLE", "TIMEOUT"]);

/**
 * The Shopify answer when the same idempotency key comes with other arguments: Shopify holds
 * a refund under the key already, which a later read of the order shows.
 */
const KEY_MISMATCH = "IDEMPOTENCY_KEY_PARAMETER_MISMATCH";

export interface QueryCost {
  requestedQueryCost?: number;
  actualQueryCost?: number;
  throttleStatus?: { maximumAvailable?: number; currentlyAvailable?: number; restoreRate?: number };
}

/**
 * How long until the bucket holds the request's cost again, from `extensions.cost`: the points
 * missing divided by the restore rate, and at least a second.
 */
export function throttleWaitMs(cost: QueryCost | undefined): number {
  const requested = cost?.requestedQueryCost;
  const available = cost?.throttleStatus?.currentlyAvailable;
  const rate = cost?.throttleStatus?.restoreRate;
  if (requested === undefined || available === undefined || !rate) return DEFAULT_THROTTLE_WAIT_MS;
  return Math.max(1_000, Math.ceil(((requested - available) / rate) * 1_000));
}

function costOf(extensions: unknown): QueryCost | undefined {
  return (extensions as { cost?: QueryCost } | undefined)?.cost;
}

function messagesOf(errors: unknown): string {
  if (!Array.isArray(errors)) return JSON.stringify(errors) ?? "no errors given";
  return errors.map((error: { message?: unknown }) => String(error?.message)).join("; ");
}

/** What GraphQL errors (with no data) mean for the action. */
function answerToErrors(
  operation: string,
  errors: unknown,
  extensions: unknown,
): ShopifyAnswer<never> {
  const codes = graphqlErrorCodes(errors);
  const detail = `${operation}: ${messagesOf(errors)}`;
  if (codes.includes("THROTTLED")) {
    const cost = costOf(extensions);
    const retryAfterMs = throttleWaitMs(cost);
    return {
      kind: "throttled",
      retryAfterMs,
      detail: `${operation} was throttled by Shopify`,
      cost,
    };
  }
  if (codes.includes(KEY_MISMATCH)) {
    return { kind: "retryable", detail: `${detail} (a refund under this key exists already)` };
  }
  if (codes.some((code) => RETRYABLE_CODES.has(code))) return { kind: "retryable", detail };
  return { kind: "refused", detail };
}

/** What a thrown error of the Shopify library means; unknown errors are thrown on. */
function answerToThrown(operation: string, thrown: unknown): ShopifyAnswer<never> {
  if (thrown instanceof GraphqlQueryError) {
    const body = thrown.body as { extensions?: unknown } | undefined;
    return answerToErrors(operation, thrownGraphqlErrors(thrown), body?.extensions);
  }
  if (thrown instanceof HttpThrottlingError) {
    const seconds = thrown.response.retryAfter;
    const retryAfterMs = seconds ? seconds * 1_000 : DEFAULT_THROTTLE_WAIT_MS;
    return { kind: "throttled", retryAfterMs, detail: `${operation}: Shopify answered 429` };
  }
  if (thrown instanceof OfflineTokenError) {
    const detail = `${operation}: ${thrown.message}`;
    return thrown.kind === "refused" ? { kind: "refused", detail } : { kind: "retryable", detail };
  }
  if (thrown instanceof HttpResponseError) {
    const status = thrown.response.code;
    // A 401 that reaches here is to a token no refresh can mend (decision 023).
    if (status === 401)
      return {
        kind: "refused",
        detail: `${operation}: Shopify answered HTTP 401: the app's access token is no longer valid; ${REAUTHORIZE_ADVICE}`,
      };
    const detail = `${operation}: Shopify answered HTTP ${status}`;
    // 5xx; 402 and 423 are a frozen or locked shop, which its owner can lift.
    const retryable = status >= 500 || status === 402 || status === 423 || status === 408;
    return retryable ? { kind: "retryable", detail } : { kind: "refused", detail };
  }
  if (thrown instanceof HttpRequestError || thrown instanceof HttpMaxRetriesError) {
    return { kind: "retryable", detail: `${operation}: ${thrown.message}` };
  }
  throw thrown;
}

/**
 * Calls the Admin API with a time-out; expected failures come back as values. A throttled call
 * counts in svc_shopify_throttled_total under `caller`; the wait is counted where it is spent.
 */
export async function callShopify<Operation extends AdminOperation>(
  graphql: AdminGraphql,
  call: { query: Operation; variables: AdminVariables<Operation> },
  caller: ShopifyCaller = "other",
): Promise<ShopifyAnswer<AdminData<Operation>>> {
  const answer = await answerOf(graphql, call);
  if (answer.kind === "throttled") metrics.shopifyThrottled.inc({ caller });
  return answer;
}

async function answerOf<Operation extends AdminOperation>(
  graphql: AdminGraphql,
  call: { query: Operation; variables: AdminVariables<Operation> },
): Promise<ShopifyAnswer<AdminData<Operation>>> {
  const { query, variables } = call;
  const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "Admin API call";
  try {
    const response = await graphql(query, {
      variables,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const body = (await response.json()) as {
      data?: AdminData<Operation> | null;
      errors?: unknown;
      extensions?: unknown;
    };
    if (!body.data || body.errors) return answerToErrors(operation, body.errors, body.extensions);
    return { kind: "ok", data: body.data, cost: costOf(body.extensions) };
  } catch (thrown) {
    return answerToThrown(operation, thrown);
  }
}
