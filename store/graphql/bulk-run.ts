import {
  type ArgumentNode,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  type SelectionNode,
  Kind,
  execute,
  visit,
} from "./graphql-js";
import type { BulkQueryPlan, NestedConnection } from "./bulk-query";
import type { AdminContext } from "./context";
import { viewFieldResolver, viewTypeResolver } from "./default-resolver";
import { MAX_PAGE_SIZE } from "./connection";

/*
 * A bulk query run: the store's own engine answers the query page by page (the top-level
 * connection, then any nested connection with more than a page under a node, read again through
 * `node(id:)`), and every node becomes a JSON object of its own, as Shopify's JSONL has them: a
 * nested connection's nodes leave their parent's object and carry `__parentId`, the parent's ID;
 * lists and objects stay inline. A parent's line always comes before its children's. With
 * `groupObjects`, each parent's children follow it directly; without it (2026-10's default), a
 * page's parents come first and their children after them, so an app that relies on grouping
 * without asking for it fails here as it may on Shopify. Execution costs nothing: the shop's
 * bucket is the engine's, not the run's.
 */

const PAGE_INFO_KEY = "__bulkPageInfo";

type JsonObject = Record<string, unknown>;

interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

interface ConnectionValue {
  edges: { node: JsonObject }[];
  [PAGE_INFO_KEY]: PageInfo;
}

/** Where a run's objects go; `false` stops the run there (cancelled, or made to fail). */
export interface BulkRunSink {
  beforePage(): Promise<boolean>;
  write(object: JsonObject, isRoot: boolean): Promise<boolean>;
}

export interface BulkRunOptions {
  schema: GraphQLSchema;
  /** A fresh context for each page's execution. */
  context: () => AdminContext;
  groupObjects: boolean;
  sink: BulkRunSink;
}

/** An error the engine answered while running the bulk query: the operation fails. */
class BulkRunError extends Error {
  override name = "BulkRunError";
}

function stringArgument(name: string, value: string): ArgumentNode {
  return {
    kind: Kind.ARGUMENT,
    name: { kind: Kind.NAME, value: name },
    value: { kind: Kind.STRING, value },
  };
}

function field(name: string, selections: readonly SelectionNode[] = [], alias?: string): FieldNode {
  return {
    kind: Kind.FIELD,
    name: { kind: Kind.NAME, value: name },
    ...(alias ? { alias: { kind: Kind.NAME, value: alias } } : {}),
    arguments: [],
    ...(selections.length > 0 ? { selectionSet: { kind: Kind.SELECTION_SET, selections } } : {}),
  };
}

const PAGING_ARGUMENTS = new Set(["first", "last", "after", "before"]);

/**
 * The document with every connection paged: the request's own paging arguments replaced by a
 * full page (after `cursors`' cursor where one is given) and the page's info selected.
 */
function pagedDocument(
  plan: BulkQueryPlan,
  document: DocumentNode,
  cursors: ReadonlyMap<FieldNode, string>,
): DocumentNode {
  return visit(document, {
    Field: {
      enter(node) {
        if (!plan.connections.has(node) || !node.selectionSet) return undefined;
        const cursor = cursors.get(node);
        const first: ArgumentNode = {
          kind: Kind.ARGUMENT,
          name: { kind: Kind.NAME, value: "first" },
          value: { kind: Kind.INT, value: String(MAX_PAGE_SIZE) },
        };
        return {
          ...node,
          arguments: [
            ...(node.arguments ?? []).filter((arg) => !PAGING_ARGUMENTS.has(arg.name.value)),
            first,
            ...(cursor === undefined ? [] : [stringArgument("after", cursor)]),
          ],
          selectionSet: {
            ...node.selectionSet,
            selections: [
              ...node.selectionSet.selections,
              field("pageInfo", [field("hasNextPage"), field("endCursor")], PAGE_INFO_KEY),
            ],
          },
        };
      },
    },
  });
}

/** `node(id:)` down to one nested connection, to read its next page under one parent. */
function nestedPageDocument(
  plan: BulkQueryPlan,
  nested: NestedConnection,
  parentId: string,
): DocumentNode {
  const inline = (typeName: string, selection: SelectionNode): SelectionNode => ({
    kind: Kind.INLINE_FRAGMENT,
    typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: typeName } },
    selectionSet: { kind: Kind.SELECTION_SET, selections: [selection] },
  });
  const [last, ...rest] = [...nested.chain].reverse();
  if (!last) throw new Error("A nested connection without a field");
  let selection: SelectionNode = inline(last.typeName, last.field);
  for (const step of rest) {
    selection = inline(step.typeName, {
      ...step.field,
      selectionSet: { kind: Kind.SELECTION_SET, selections: [selection] },
    });
  }
  const node: FieldNode = {
    ...field("node", [inline(plan.rootNodeType, selection)]),
    arguments: [stringArgument("id", parentId)],
  };
  return {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: plan.operation.operation,
        selectionSet: { kind: Kind.SELECTION_SET, selections: [node] },
      },
      ...Object.values(plan.fragments),
    ],
  };
}

function run(options: BulkRunOptions, document: DocumentNode): JsonObject {
  const result = execute({
    schema: options.schema,
    document,
    rootValue: {},
    contextValue: options.context(),
    fieldResolver: viewFieldResolver,
    typeResolver: viewTypeResolver,
  }) as ExecutionResult;
  if (result.errors?.length) {
    throw new BulkRunError(result.errors.map((error) => error.message).join("; "));
  }
  return (result.data ?? {}) as JsonObject;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at `path`, taken out of `object`; undefined where the path leads nowhere. */
function takeAt(object: JsonObject, path: readonly string[]): unknown {
  let parent: unknown = object;
  for (const key of path.slice(0, -1)) parent = isObject(parent) ? parent[key] : undefined;
  const last = path.at(-1);
  if (!isObject(parent) || last === undefined || !(last in parent)) return undefined;
  const value = parent[last];
  delete parent[last];
  return value;
}

function connectionAt(object: unknown, path: readonly string[]): ConnectionValue | undefined {
  let value = object;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return isObject(value) ? (value as unknown as ConnectionValue) : undefined;
}

/** A top-level node split into its own line and the first page of each nested connection. */
interface SplitNode {
  line: JsonObject;
  nested: { connection: NestedConnection; page: ConnectionValue }[];
}

function split(plan: BulkQueryPlan, node: JsonObject): SplitNode {
  const nested = plan.nested.flatMap((connection) => {
    const page = takeAt(node, connection.path);
    return isObject(page) ? [{ connection, page: page as unknown as ConnectionValue }] : [];
  });
  return { line: node, nested };
}

/** Writes a top-level node's children, every page of them; false when the run must stop. */
async function writeChildren(
  options: BulkRunOptions,
  plan: BulkQueryPlan,
  parent: SplitNode,
): Promise<boolean> {
  const parentId = parent.line.id;
  for (const { connection, page: firstPage } of parent.nested) {
    let page: ConnectionValue | undefined = firstPage;
    while (page) {
      for (const edge of page.edges) {
        if (!(await options.sink.write({ ...edge.node, __parentId: parentId }, false)))
          return false;
      }
      const { hasNextPage, endCursor } = page[PAGE_INFO_KEY];
      if (!hasNextPage || endCursor === null || typeof parentId !== "string") break;
      if (!(await options.sink.beforePage())) return false;
      const last = connection.chain.at(-1)?.field;
      const document = nestedPageDocument(plan, connection, parentId);
      const data = run(
        options,
        pagedDocument(plan, document, new Map(last ? [[last, endCursor]] : [])),
      );
      page = connectionAt(data.node, connection.path);
    }
  }
  return true;
}

/** Runs the plan to its end, or until the sink stops it; engine errors throw BulkRunError. */
export async function runBulkQuery(plan: BulkQueryPlan, options: BulkRunOptions): Promise<void> {
  const rootKey = plan.root.alias?.value ?? plan.root.name.value;
  let cursor: string | undefined;
  for (;;) {
    if (!(await options.sink.beforePage())) return;
    const cursors = new Map(cursor === undefined ? [] : [[plan.root, cursor]]);
    const data = run(options, pagedDocument(plan, plan.document, cursors));
    const connection = data[rootKey] as ConnectionValue | null | undefined;
    if (!connection) return;
    const nodes = connection.edges.map((edge) => split(plan, edge.node));
    if (options.groupObjects) {
      for (const node of nodes) {
        if (!(await options.sink.write(node.line, true))) return;
        if (!(await writeChildren(options, plan, node))) return;
      }
    } else {
      for (const node of nodes) if (!(await options.sink.write(node.line, true))) return;
      for (const node of nodes) if (!(await writeChildren(options, plan, node))) return;
    }
    const { hasNextPage, endCursor } = connection[PAGE_INFO_KEY];
    if (!hasNextPage || endCursor === null) return;
    cursor = endCursor;
    // Between pages the server answers other requests, polls of this operation included.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
