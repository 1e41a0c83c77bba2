import {
  GraphqlQueryError,
  HttpInternalError,
  HttpRequestError,
  HttpResponseError,
  HttpThrottlingError,
} from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { SUGGESTED_PLAN_REFUND_QUERY } from "../graphql/SuggestedPlanRefund";
import type { AdminGraphql } from "../services/admin-api.server";
import { OfflineTokenError, REAUTHORIZE_ADVICE } from "../services/offline-token-error";
import { callShopify, throttleWaitMs } from "./shopify-calls.server";

// What each way the Shopify library answers means for a queued action: the library's own error
// classes, as it throws them for a GraphQL error body, an HTTP status or a network failure.

const call = (graphql: AdminGraphql) =>
  callShopify(graphql, {
    query: SUGGESTED_PLAN_REFUND_QUERY,
    variables: { id: "gid://shopify/Order/1", refundLineItems: [] },
  });

function throwing(error: unknown): AdminGraphql {
  return () => Promise.reject(error);
}

function graphqlErrors(errors: unknown[], extensions?: unknown) {
  return new GraphqlQueryError({
    message: "GraphQL operation failed",
    response: {},
    body: { errors: { graphQLErrors: errors }, extensions },
  });
}

const http = (code: number) => ({ message: "failed", code, statusText: "", body: {} });

describe("throttleWaitMs", () => {
  it("waits for the points missing at the restore rate, at least a second", () => {
    const cost = (requested: number, available: number) => ({
      requestedQueryCost: requested,
      throttleStatus: { currentlyAvailable: available, restoreRate: 100 },
    });
    expect(throttleWaitMs(cost(653, 0))).toBe(6_530);
    expect(throttleWaitMs(cost(12, 10))).toBe(1_000);
    expect(throttleWaitMs(undefined)).toBe(2_000);
  });
});

describe("callShopify", () => {
  it("answers the data of a successful call", async () => {
    const data = { order: null };
    const graphql: AdminGraphql = async () => new Response(JSON.stringify({ data }));
    expect(await call(graphql)).toEqual({ kind: "ok", data });
  });

  it.each([
    {
      case: "THROTTLED, with the bucket's state",
      thrown: graphqlErrors([{ message: "Throttled", extensions: { code: "THROTTLED" } }], {
        cost: {
          requestedQueryCost: 250,
          throttleStatus: { currentlyAvailable: 50, restoreRate: 100 },
        },
      }),
      expected: {
        kind: "throttled",
        retryAfterMs: 2_000,
        detail: "SuggestedPlanRefund was throttled by Shopify",
        // Reconciliation waits for its share of the bucket from the state Shopify reports.
        cost: {
          requestedQueryCost: 250,
          throttleStatus: { currentlyAvailable: 50, restoreRate: 100 },
        },
      },
    },
    {
      case: "429 with Retry-After",
      thrown: new HttpThrottlingError({ ...http(429), retryAfter: 3 }),
      expected: {
        kind: "throttled",
        retryAfterMs: 3_000,
        detail: "SuggestedPlanRefund: Shopify answered 429",
      },
    },
    {
      case: "a 5xx",
      thrown: new HttpInternalError(http(502)),
      expected: { kind: "retryable", detail: "SuggestedPlanRefund: Shopify answered HTTP 502" },
    },
    {
      case: "no answer",
      thrown: new HttpRequestError("Http request error, no response available: fetch failed"),
      expected: {
        kind: "retryable",
        detail: "SuggestedPlanRefund: Http request error, no response available: fetch failed",
      },
    },
    {
      case: "the key used before with other arguments",
      thrown: graphqlErrors([
        {
          message: "The same idempotency key cannot be used with different operation parameters.",
          extensions: { code: "IDEMPOTENCY_KEY_PARAMETER_MISMATCH" },
        },
      ]),
      expected: {
        kind: "retryable",
        detail:
          "SuggestedPlanRefund: The same idempotency key cannot be used with different operation parameters. (a refund under this key exists already)",
      },
    },
    {
      case: "a 401 no refresh can mend (a revoked or non-expiring token)",
      thrown: new HttpResponseError(http(401)),
      expected: {
        kind: "refused",
        detail: `SuggestedPlanRefund: Shopify answered HTTP 401: the app's access token is no longer valid; ${REAUTHORIZE_ADVICE}`,
      },
    },
    {
      case: "an expiring token that ran out during the action",
      thrown: new OfflineTokenError("expired", "Shopify answered 401: the next run refreshes it"),
      expected: {
        kind: "retryable",
        detail: "SuggestedPlanRefund: Shopify answered 401: the next run refreshes it",
      },
    },
    {
      case: "a refresh that failed on the way",
      thrown: new OfflineTokenError("passing", "the token could not be refreshed: fetch failed"),
      expected: {
        kind: "retryable",
        detail: "SuggestedPlanRefund: the token could not be refreshed: fetch failed",
      },
    },
    {
      case: "a refresh token Shopify refused",
      thrown: new OfflineTokenError("refused", `invalid_grant; ${REAUTHORIZE_ADVICE}`),
      expected: {
        kind: "refused",
        detail: `SuggestedPlanRefund: invalid_grant; ${REAUTHORIZE_ADVICE}`,
      },
    },
    {
      case: "a query Shopify refuses",
      thrown: graphqlErrors([
        { message: "Query cost is 1053", extensions: { code: "MAX_COST_EXCEEDED" } },
      ]),
      expected: { kind: "refused", detail: "SuggestedPlanRefund: Query cost is 1053" },
    },
  ])("$case", async ({ thrown, expected }) => {
    expect(await call(throwing(thrown))).toEqual(expected);
  });

  it("throws on what it does not know, for the worker's backoff", async () => {
    await expect(call(throwing(new RangeError("a bug")))).rejects.toThrow("a bug");
  });
});
