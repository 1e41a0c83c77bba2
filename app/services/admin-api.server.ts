import { logger } from "../logger.server";
import type {
  GeneratedMutationTypes,
  GeneratedQueryTypes,
} from "../../graphql/generated/admin.generated";

/*
 * Calls to the shop's Admin GraphQL API, shared by the admin pages and the storefront's
 * background work: a failure comes back as a result, never as a thrown error, except the
 * library's thrown Response for an expired token, which an admin request must re-authenticate.
 */

/** `admin.graphql` from `authenticate.admin`: the library sends it to the shop's Admin API. */
export type AdminGraphql = (
  query: string,
  options?: { variables?: Record<string, unknown>; signal?: AbortSignal },
) => Promise<Response>;

/*
 * Each operation of app/graphql/, keyed by its exact text, with the types generated for it from
 * Shopify's schema (decision 019): a query string that codegen has not seen does not compile.
 */
type AdminOperations = GeneratedQueryTypes & GeneratedMutationTypes;
export type AdminOperation = keyof AdminOperations;
export type AdminData<Operation extends AdminOperation> = AdminOperations[Operation]["return"];
export type AdminVariables<Operation extends AdminOperation> =
  AdminOperations[Operation]["variables"];

export type AdminResult<Data> =
  | { ok: true; data: Data }
  /** `accessDenied`: Shopify refused a field for a missing access scope (an older install). */
  | { ok: false; message: string; accessDenied: boolean };

/** The `extensions.code` of each GraphQL error, from a body or from the library's thrown error. */
export function graphqlErrorCodes(errors: unknown): string[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((error: unknown) => {
    const code = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
    return typeof code === "string" ? [code] : [];
  });
}

/** The library throws a GraphqlQueryError whose `body.errors.graphQLErrors` are Shopify's errors. */
export function thrownGraphqlErrors(thrown: unknown): unknown {
  return (thrown as { body?: { errors?: { graphQLErrors?: unknown } } } | null)?.body?.errors
    ?.graphQLErrors;
}

/**
 * Calls the Admin API and tells a failure apart from data. A thrown Response is the library's
 * answer to an HTTP error: an expired or revoked token (401) or a redirect goes back to Remix, so
 * that the admin authenticates again; any other status is a failure to report.
 */
export async function runAdminOperation<Operation extends AdminOperation>(
  graphql: AdminGraphql,
  shop: string,
  operation: string,
  query: Operation,
  variables: AdminVariables<Operation>,
): Promise<AdminResult<AdminData<Operation>>> {
  try {
    const response = await graphql(query, { variables });
    const body = (await response.json()) as {
      data?: AdminData<Operation> | null;
      errors?: unknown;
    };
    if (!body.data) {
      logger.error({ shop, operation, errors: body.errors }, `${operation} returned no data`);
      return {
        ok: false,
        message: `${operation} returned no data`,
        accessDenied: graphqlErrorCodes(body.errors).includes("ACCESS_DENIED"),
      };
    }
    return { ok: true, data: body.data };
  } catch (thrown) {
    if (thrown instanceof Response) {
      if (thrown.status === 401 || (thrown.status >= 300 && thrown.status < 400)) throw thrown;
      logger.error({ shop, operation, status: thrown.status }, `${operation} failed`);
      return {
        ok: false,
        message: `Shopify answered ${operation} with HTTP ${thrown.status}`,
        accessDenied: false,
      };
    }
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    logger.error({ shop, operation, err: thrown }, `${operation} failed: ${message}`);
    return {
      ok: false,
      message: `${operation} failed: ${message}`,
      accessDenied: graphqlErrorCodes(thrownGraphqlErrors(thrown)).includes("ACCESS_DENIED"),
    };
  }
}
