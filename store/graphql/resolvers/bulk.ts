import type { GraphQLResolveInfo } from "../graphql-js";
import { type BulkOperation, MAX_RUNNING_BULK_QUERIES } from "../bulk-operations";
import { checkBulkQuery } from "../bulk-query";
import {
  connectionOf,
  parseSearchQuery,
  textMatcher,
  timeMatcher,
  type PageArgs,
  type SearchTerm,
} from "../connection";
import type { AdminContext, View } from "../context";
import { notEmulatedInput } from "../errors";
import { idOfType, toGid } from "../gid";
import { type MutationResolver, withoutIdempotency } from "../idempotency";
import { userErrorView } from "../views/common";
import { refused } from "./inputs";

/*
 * Bulk query operations (bulk-operations.ts runs them): `bulkOperationRunQuery` checks the query
 * and starts a run, `bulkOperationCancel` stops one, and the app reads its operations with
 * `bulkOperation(id:)`, `node(id:)`, `bulkOperations` or the deprecated `currentBulkOperation`.
 * Bulk mutations (`bulkOperationRunMutation`) are not emulated.
 */

export function bulkOperationView(context: AdminContext, operation: BulkOperation): View {
  const fileUrl = context.bulk.fileUrl(operation);
  return {
    __typename: "BulkOperation",
    id: toGid("BulkOperation", operation.id),
    type: "QUERY",
    status: operation.status,
    errorCode: operation.errorCode,
    query: operation.query,
    createdAt: operation.createdAt,
    completedAt: operation.completedAt,
    objectCount: String(operation.objectCount),
    rootObjectCount: String(operation.rootObjectCount),
    fileSize: operation.fileSize === null ? null : String(operation.fileSize),
    url: operation.status === "COMPLETED" ? fileUrl : null,
    partialDataUrl: operation.status === "FAILED" && operation.partialData ? fileUrl : null,
  };
}

/** The shop's app's operation a global ID names, or undefined. */
export function findBulkOperation(context: AdminContext, gid: string): BulkOperation | undefined {
  const id = idOfType(gid, "BulkOperation");
  return id === null ? undefined : context.bulk.find(context.shop.domain, context.appId, id);
}

function operationsOf(context: AdminContext): BulkOperation[] {
  return context.bulk.list(context.shop.domain, context.appId);
}

const bulkOperationRunQuery: MutationResolver = (_parent, rawArgs, context, info) => {
  const args = rawArgs as unknown as { query: string; groupObjects: boolean };
  const payload = (
    operation: BulkOperation | null,
    errors: [string, string[] | null, string][],
  ) => ({
    __typename: "BulkOperationRunQueryPayload",
    bulkOperation: operation && bulkOperationView(context, operation),
    userErrors: errors.map(([message, field, code]) =>
      userErrorView("BulkOperationUserError", refused(message, field, code), info),
    ),
  });
  const check = checkBulkQuery(info.schema, args.query);
  if (!check.ok) {
    return payload(
      null,
      check.errors.map((message) => [message, ["query"], "INVALID"]),
    );
  }
  const running = context.bulk.inProgress(context.shop.domain, context.appId);
  if (running.length >= MAX_RUNNING_BULK_QUERIES) {
    const ids = running.map((operation) => toGid("BulkOperation", operation.id)).join(", ");
    return payload(null, [
      [
        `A bulk query operation for this app and shop is already in progress: ${ids}.`,
        null,
        "OPERATION_IN_PROGRESS",
      ],
    ]);
  }
  const domain = context.shop.domain;
  const operation = context.bulk.start({
    shop: context.shop,
    appId: context.appId,
    query: args.query,
    groupObjects: args.groupObjects,
    plan: check.plan,
    schema: info.schema,
    context: () => ({
      ...context,
      shop: context.state.shop(domain) ?? context.shop,
      resolvedTypes: new Map(),
    }),
    currentShop: () => context.state.shop(domain),
  });
  return payload(operation, []);
};

const bulkOperationCancel: MutationResolver = (_parent, rawArgs, context) => {
  const args = rawArgs as unknown as { id: string };
  const payload = (operation: BulkOperation | null, field: string[] | null, message?: string) => ({
    __typename: "BulkOperationCancelPayload",
    bulkOperation: operation && bulkOperationView(context, operation),
    userErrors: message ? [{ __typename: "UserError", field, message }] : [],
  });
  const operation = findBulkOperation(context, args.id);
  if (!operation) return payload(null, ["id"], "Bulk operation does not exist");
  if (operation.status !== "CREATED" && operation.status !== "RUNNING") {
    const message = `A bulk operation cannot be canceled when it is ${operation.status.toLowerCase()}`;
    return payload(operation, null, message);
  }
  context.bulk.cancel(operation);
  return payload(operation, null);
};

export const bulkMutations = {
  bulkOperationRunQuery: withoutIdempotency(bulkOperationRunQuery),
  bulkOperationCancel: withoutIdempotency(bulkOperationCancel),
};

type RootResolver<Args> = (
  parent: unknown,
  args: Args,
  context: AdminContext,
  info: GraphQLResolveInfo,
) => unknown;

/** The app's most recent operation of the type; the store runs no bulk mutations. */
const currentBulkOperation: RootResolver<{ type: string }> = (_parent, args, context) => {
  if (args.type !== "QUERY") return null;
  const latest = operationsOf(context)[0];
  return latest ? bulkOperationView(context, latest) : null;
};

const bulkOperation: RootResolver<{ id: string }> = (_parent, args, context) => {
  const found = findBulkOperation(context, args.id);
  return found ? bulkOperationView(context, found) : null;
};

/** A `bulkOperations` search term as a test of an operation. */
function operationMatcher(term: SearchTerm): (operation: BulkOperation) => boolean {
  switch (term.field) {
    case "status": {
      const matches = textMatcher(term);
      return (operation) => matches([operation.status]);
    }
    case "operation_type": {
      const matches = textMatcher(term);
      return () => matches(["QUERY"]);
    }
    case "created_at": {
      const matches = timeMatcher(term);
      return (operation) => matches(operation.createdAt);
    }
    default:
      throw notEmulatedInput(`The bulkOperations search filter ${term.field ?? `"${term.value}"`}`);
  }
}

/** Far in the future: an operation not completed sorts after every completed one. */
const NOT_COMPLETED = Number.MAX_SAFE_INTEGER;

/**
 * `bulkOperations`: newest first by default (sortKey CREATED_AT, or COMPLETED_AT with the
 * operations still to complete first); `reverse` gives oldest first.
 */
const bulkOperations: RootResolver<
  PageArgs & { query?: string | null; sortKey?: string | null }
> = (_parent, args, context) => {
  const matchers = (args.query ? parseSearchQuery(args.query) : []).map(operationMatcher);
  const time = (iso: string | null) => (iso === null ? NOT_COMPLETED : Date.parse(iso));
  const sortKey = args.sortKey ?? "CREATED_AT";
  const value = (operation: BulkOperation) =>
    time(sortKey === "COMPLETED_AT" ? operation.completedAt : operation.createdAt);
  return connectionOf(
    "BulkOperationConnection",
    operationsOf(context).filter((operation) => matchers.every((matches) => matches(operation))),
    // Descending unless reversed.
    { ...args, reverse: !args.reverse },
    { value, id: (operation) => operation.id },
    (operation) => bulkOperationView(context, operation),
  );
};

export const bulkQueries = { currentBulkOperation, bulkOperation, bulkOperations };
