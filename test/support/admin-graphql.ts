import { readFileSync } from "node:fs";
import path from "node:path";
import { validateAdminRequest } from "../../store/graphql/index";
import { repoRoot } from "./test-env";

/*
 * The app's outgoing Admin GraphQL requests, seen by the test: answered by the local Shopify
 * store (test/support/local-store.ts), or by a recorded answer where a test pins what the store
 * cannot produce (a network failure, a 5xx, an error only Shopify's own limits give).
 *
 * The Shopify library keeps the `fetch` it finds when its Node adapter is imported, so this module
 * is vitest's first set-up file (vitest.config.ts), loaded before any test file and so before any
 * app module: it installs, once, a fetch that sees every Admin GraphQL request in either form:
 * - `{SHOPIFY_ADMIN_ORIGIN}/shops/{shop}/admin/api/{version}/graphql.json`, where the app's own
 *   fetch (app/lib/local-store-fetch.ts) sends its calls when the local store is set: answered
 *   from the queue only when its next expectation is for this operation, or by a standing answer
 *   for it; every other request goes on to the store.
 * - `https://{shop}/admin/api/{version}/graphql.json` (no store; the unit tests of this stub):
 *   answered only from the queue or a standing answer, and any other request is unexpected.
 * Every other request passes through. A test imports this module for the functions below, in any
 * order. Nothing of the app's own code is replaced. Every request, whoever answers it, is also
 * validated, query and variables, against Shopify's schema as the store does (store/graphql): one
 * Shopify would refuse is recorded as unexpected, whatever the recorded answer says, and kept for
 * `invalidAdminGraphqlCalls()`, which the local store's set-up checks after each file.
 */

export const ADMIN_API_VERSION = "2026-10";
const SHOPIFY_ADMIN_GRAPHQL = /^https:\/\/([^/]+)\/admin\/api\/([^/]+)\/graphql\.json$/;
const LOCAL_STORE_ADMIN_GRAPHQL = /^\/shops\/([^/]+)\/admin\/api\/([^/]+)\/graphql\.json$/;

export interface AdminGraphqlCall {
  shop: string;
  apiVersion: string;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  accessToken: string | null;
  /** Who answered: a recorded answer of the test, or the local store. */
  answeredBy: "recording" | "store";
}

interface Expectation {
  operationName: string;
  status: number;
  body: unknown;
  /** A network failure instead of an answer. */
  networkError?: Error;
}

const expectations: Expectation[] = [];
/** Standing answers by operation name, asked before the queue: Shopify played by a harness. */
const standing = new Map<string, (call: AdminGraphqlCall) => unknown>();
const calls: AdminGraphqlCall[] = [];
const unexpected: string[] = [];
/** Requests Shopify would refuse, since the file started; never cleared by a reset. */
const invalid: string[] = [];
const passThrough = globalThis.fetch;

function operationNameOf(query: string): string | null {
  return /\b(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? null;
}

/** The shop and version of an Admin GraphQL URL, and whether it is the local store's form. */
function adminGraphqlTarget(
  url: string,
): { shop: string; apiVersion: string; viaStore: boolean } | null {
  const shopify = SHOPIFY_ADMIN_GRAPHQL.exec(url);
  if (shopify) return { shop: shopify[1] ?? "", apiVersion: shopify[2] ?? "", viaStore: false };
  const origin = process.env.SHOPIFY_ADMIN_ORIGIN?.replace(/\/+$/, "");
  if (!origin || !url.startsWith(`${origin}/`)) return null;
  const store = LOCAL_STORE_ADMIN_GRAPHQL.exec(url.slice(origin.length));
  if (!store) return null;
  return { shop: store[1] ?? "", apiVersion: store[2] ?? "", viaStore: true };
}

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

async function adminGraphqlFetch(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const target = adminGraphqlTarget(url);
  if (!target) return passThrough(input, init);

  // A Request's body can be read once: the store gets the original.
  const rawBody = input instanceof Request ? await input.clone().text() : String(init?.body ?? "");
  const { query, variables } = JSON.parse(rawBody) as {
    query: string;
    variables?: Record<string, unknown>;
  };
  const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
  const operationName = operationNameOf(query);
  const answer = operationName === null ? undefined : standing.get(operationName);
  const queued = expectations[0]?.operationName === operationName ? expectations[0] : undefined;
  const call: AdminGraphqlCall = {
    shop: target.shop,
    apiVersion: target.apiVersion,
    operationName,
    query,
    variables: variables ?? {},
    accessToken: headers.get("X-Shopify-Access-Token"),
    answeredBy: target.viaStore && !answer && !queued ? "store" : "recording",
  };
  calls.push(call);
  const refusals = validateAdminRequest(query, call.variables);
  if (refusals.length > 0) {
    const message = `Invalid Admin GraphQL call ${operationName ?? "(anonymous)"} to ${call.shop}: ${refusals.join("; ")}`;
    unexpected.push(message);
    invalid.push(message);
  }

  if (answer) return jsonResponse(answer(call));
  if (call.answeredBy === "store") return passThrough(input, init);
  const expected = expectations.shift();
  if (!expected || expected.operationName !== operationName) {
    const message = `Unexpected Admin GraphQL call ${operationName ?? "(anonymous)"} to ${call.shop}; expected ${expected?.operationName ?? "none"}`;
    unexpected.push(message);
    throw new Error(message);
  }
  if (expected.networkError) throw expected.networkError;
  return jsonResponse(expected.body, expected.status);
}

globalThis.fetch = adminGraphqlFetch as typeof fetch;

/** A recorded answer from test/fixtures/admin-graphql/. */
export function adminGraphqlFixture(file: string): unknown {
  return JSON.parse(
    readFileSync(path.join(repoRoot, "test/fixtures/admin-graphql", file), "utf8"),
  ) as unknown;
}

/**
 * The next `operationName` request gets `body` (a fixture's JSON) in place of the store's answer;
 * the requests of other operations before it go to the store. Without a store, the next request
 * must be `operationName`.
 */
export function expectAdminGraphql(
  operationName: string,
  body: unknown,
  options: { status?: number } = {},
) {
  expectations.push({ operationName, body, status: options.status ?? 200 });
}

/**
 * Shopify refuses the next `times` requests of a mutation with user errors, in the shape its
 * payloads answer a refusal: `mutation` (e.g. "refundCreate") gives `result` (e.g. "refund")
 * null beside `userErrors`.
 */
export function refuseAdminMutation(
  operationName: string,
  { mutation, result }: { mutation: string; result: string },
  userErrors: { field: string[]; message: string }[],
  times = 1,
) {
  for (let time = 0; time < times; time += 1) {
    expectAdminGraphql(operationName, { data: { [mutation]: { [result]: null, userErrors } } });
  }
}

/** As expectAdminGraphql, but the request fails as if the network did. */
export function failAdminGraphql(operationName: string, error = new TypeError("fetch failed")) {
  expectations.push({ operationName, body: null, status: 0, networkError: error });
}

/**
 * Every `operationName` request is answered by `answer` until the returned function is called:
 * for a harness that plays Shopify (the storefront's metafields), where the queue's one answer
 * per expected call does not fit.
 */
export function answerAdminGraphql(
  operationName: string,
  answer: (call: AdminGraphqlCall) => unknown,
): () => void {
  standing.set(operationName, answer);
  return () => standing.delete(operationName);
}

/**
 * Shopify answers the app's check that a storefront's variant is the shop's (decision 016,
 * ProductVariantOwner) with `productOf(variantId)`: the numeric ID of its product, or none.
 */
export function answerVariantOwners(
  productOf: (variantId: string) => string | number | undefined,
): () => void {
  return answerAdminGraphql("ProductVariantOwner", (call) => {
    const id = String(call.variables.id);
    const productId = productOf(id.split("/").pop() ?? "");
    return {
      data: {
        productVariant:
          productId === undefined
            ? null
            : { id, product: { id: `gid://shopify/Product/${productId}` } },
      },
    };
  });
}

export function adminGraphqlCalls(): readonly AdminGraphqlCall[] {
  return calls;
}

/** Every request since the file started that Shopify's schema refuses (kept across resets). */
export function invalidAdminGraphqlCalls(): readonly string[] {
  return invalid;
}

/** Clears the queue and the record; returns what went wrong since the last reset. */
export function resetAdminGraphql(): { unused: string[]; unexpected: string[] } {
  const problems = {
    unused: expectations.map((expectation) => expectation.operationName),
    unexpected: [...unexpected],
  };
  expectations.length = 0;
  calls.length = 0;
  unexpected.length = 0;
  return problems;
}
