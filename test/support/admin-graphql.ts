import { readFileSync } from "node:fs";
import path from "node:path";
import { validateAdminRequest } from "../../store/graphql/index";
import { repoRoot } from "./test-env";

/*
 * Recorded Admin GraphQL answers for the app's outgoing requests. The Shopify library keeps the
 * `fetch` it finds when its Node adapter is imported, so this module is vitest's first set-up
 * file (vitest.config.ts), loaded before any test file and so before any app module: it
 * installs, once, a fetch that answers `https://{shop}/admin/api/{version}/graphql.json` from
 * the expectations queued by the test and passes every other request through. A test imports
 * it for the functions below, in any order. Nothing of the app's own code is replaced.
 * Every request is also validated, query and variables, against Shopify's schema as the local
 * store does (store/graphql): one Shopify would refuse is recorded as unexpected, whatever the
 * recorded answer says.
 */

export const ADMIN_API_VERSION = "2026-07";
const ADMIN_GRAPHQL = /^https:\/\/([^/]+)\/admin\/api\/([^/]+)\/graphql\.json$/;

export interface AdminGraphqlCall {
  shop: string;
  apiVersion: string;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  accessToken: string | null;
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
const passThrough = globalThis.fetch;

function operationNameOf(query: string): string | null {
  return /\b(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? null;
}

async function adminGraphqlFetch(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const match = ADMIN_GRAPHQL.exec(url);
  if (!match) return passThrough(input, init);

  const rawBody = input instanceof Request ? await input.text() : String(init?.body ?? "");
  const { query, variables } = JSON.parse(rawBody) as {
    query: string;
    variables?: Record<string, unknown>;
  };
  const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
  const call: AdminGraphqlCall = {
    shop: match[1] ?? "",
    apiVersion: match[2] ?? "",
    operationName: operationNameOf(query),
    query,
    variables: variables ?? {},
    accessToken: headers.get("X-Shopify-Access-Token"),
  };
  calls.push(call);
  const refusals = validateAdminRequest(query, call.variables);
  if (refusals.length > 0) {
    unexpected.push(
      `Invalid Admin GraphQL call ${call.operationName ?? "(anonymous)"} to ${call.shop}: ${refusals.join("; ")}`,
    );
  }

  const answer = call.operationName === null ? undefined : standing.get(call.operationName);
  if (answer) {
    return new Response(JSON.stringify(answer(call)), {
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
  }
  const expected = expectations.shift();
  if (!expected || expected.operationName !== call.operationName) {
    const message = `Unexpected Admin GraphQL call ${call.operationName ?? "(anonymous)"} to ${call.shop}; expected ${expected?.operationName ?? "none"}`;
    unexpected.push(message);
    throw new Error(message);
  }
  if (expected.networkError) throw expected.networkError;
  return new Response(JSON.stringify(expected.body), {
    status: expected.status,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

globalThis.fetch = adminGraphqlFetch as typeof fetch;

/** A recorded answer from test/fixtures/admin-graphql/. */
export function adminGraphqlFixture(file: string): unknown {
  return JSON.parse(
    readFileSync(path.join(repoRoot, "test/fixtures/admin-graphql", file), "utf8"),
  ) as unknown;
}

/** The next Admin GraphQL request must be `operationName`; it gets `body` (a fixture's JSON). */
export function expectAdminGraphql(
  operationName: string,
  body: unknown,
  options: { status?: number } = {},
) {
  expectations.push({ operationName, body, status: options.status ?? 200 });
}

/** The next Admin GraphQL request must be `operationName`; it fails as if the network did. */
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
