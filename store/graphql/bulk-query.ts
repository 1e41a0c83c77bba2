import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  GraphQLError,
  Kind,
  getNamedType,
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  parse,
  validate,
} from "./graphql-js";
import { isConnection } from "./cost";
import { syntaxErrorToShopify, validationErrorsToShopify } from "./errors";

/*
 * The query a bulk operation runs, checked as `bulkOperationRunQuery` checks it (shopify.dev,
 * "Perform bulk operations with the GraphQL Admin API": at least one connection, at most five, at
 * most two levels of them) and planned for the run: where the top-level connection is, and where
 * the nested ones sit under its node, whose lines carry `__parentId`. Shopify publishes the
 * limits but not its messages; these are the ones public emulators recorded from Shopify, except
 * the two marked as the store's own (store/README.md, "Bulk operations").
 */

export const MAX_BULK_CONNECTIONS = 5;
export const MAX_BULK_CONNECTION_DEPTH = 2;

/** A connection under the top-level connection's node: its children become lines of their own. */
export interface NestedConnection {
  /** The response keys from the top-level node to the connection field. */
  path: string[];
  /** The same fields, each with the type it is selected on, to page the connection again. */
  chain: { typeName: string; field: FieldNode }[];
}

export interface BulkQueryPlan {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  /** The top-level connection field. */
  root: FieldNode;
  /** The type of the top-level connection's nodes, as selected (`... on Order` to page again). */
  rootNodeType: string;
  nested: NestedConnection[];
  /** Every connection field of the document, to page through. */
  connections: ReadonlySet<FieldNode>;
}

export type BulkQueryCheck = { ok: true; plan: BulkQueryPlan } | { ok: false; errors: string[] };

function responseKey(field: FieldNode): string {
  return field.alias?.value ?? field.name.value;
}

/** The fields of a selection set, through fragments, each with the type it is selected on. */
function fieldsOf(
  schema: GraphQLSchema,
  selectionSet: SelectionSetNode | undefined,
  type: GraphQLCompositeType,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): { field: FieldNode; type: GraphQLCompositeType }[] {
  if (!selectionSet) return [];
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [{ field: selection, type }];
    const fragment =
      selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments[selection.name.value];
    if (!fragment) return [];
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      if (seen.has(selection.name.value)) return [];
      seen.add(selection.name.value);
    }
    const condition = fragment.typeCondition
      ? schema.getType(fragment.typeCondition.name.value)
      : type;
    return isCompositeType(condition)
      ? fieldsOf(schema, fragment.selectionSet, condition, fragments, seen)
      : [];
  });
}

function returnTypeOf(type: GraphQLCompositeType, field: FieldNode): GraphQLOutputType | undefined {
  if (!isObjectType(type) && !isInterfaceType(type)) return undefined;
  return type.getFields()[field.name.value]?.type;
}

function isListOutput(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

interface Analysis {
  connections: Set<FieldNode>;
  maxDepth: number;
  viaNodes: string[];
  withinList: boolean;
  parentsWithoutId: string[];
  nested: NestedConnection[];
  root: { field: FieldNode; nodeType: string } | undefined;
}

interface Scope {
  /** How many connections enclose this selection. */
  depth: number;
  inList: boolean;
  /** The connection whose node this selection is in, with whether the node selects `id`. */
  parent: { name: string; nodeSelectsId: boolean } | null;
  /** From the top-level node down to here, while under it. */
  chain: NestedConnection["chain"] | null;
}

function pushOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

/** Walks a selection below `type`, noting every connection and what the rules look at. */
function analyse(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  selectionSet: SelectionSetNode | undefined,
  type: GraphQLCompositeType,
  scope: Scope,
  analysis: Analysis,
): void {
  for (const { field, type: parentType } of fieldsOf(schema, selectionSet, type, fragments)) {
    const returnType = returnTypeOf(parentType, field);
    const named = returnType && getNamedType(returnType);
    if (!returnType || !isCompositeType(named)) continue;
    const step = { typeName: parentType.name, field };
    if (!isConnection(named)) {
      analyse(
        schema,
        fragments,
        field.selectionSet,
        named,
        {
          ...scope,
          inList: scope.inList || isListOutput(returnType),
          chain: scope.chain && [...scope.chain, step],
        },
        analysis,
      );
      continue;
    }
    analyseConnection(schema, fragments, field, named, scope, step, analysis);
  }
}

function analyseConnection(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  field: FieldNode,
  connection: GraphQLCompositeType,
  scope: Scope,
  step: NestedConnection["chain"][number],
  analysis: Analysis,
): void {
  const depth = scope.depth + 1;
  analysis.connections.add(field);
  analysis.maxDepth = Math.max(analysis.maxDepth, depth);
  if (scope.inList) analysis.withinList = true;
  if (scope.parent && !scope.parent.nodeSelectsId) {
    pushOnce(analysis.parentsWithoutId, scope.parent.name);
  }
  if (depth === 2 && scope.chain) {
    analysis.nested.push({
      path: [...scope.chain.map((link) => responseKey(link.field)), responseKey(field)],
      chain: [...scope.chain, step],
    });
  }
  for (const { field: inner, type: innerType } of fieldsOf(
    schema,
    field.selectionSet,
    connection,
    fragments,
  )) {
    const nodeType = getNamedType(returnTypeOf(innerType, inner));
    let node: { selection: SelectionSetNode | undefined; type: GraphQLCompositeType }[] = [];
    if (inner.name.value === "nodes" && isCompositeType(nodeType)) {
      pushOnce(analysis.viaNodes, field.name.value);
      node = [{ selection: inner.selectionSet, type: nodeType }];
    } else if (inner.name.value === "edges" && isCompositeType(nodeType)) {
      node = fieldsOf(schema, inner.selectionSet, nodeType, fragments).flatMap((edgeField) => {
        const edgeNodeType = getNamedType(returnTypeOf(edgeField.type, edgeField.field));
        return edgeField.field.name.value === "node" && isCompositeType(edgeNodeType)
          ? [{ selection: edgeField.field.selectionSet, type: edgeNodeType }]
          : [];
      });
    }
    for (const { selection, type } of node) {
      if (depth === 1 && !analysis.root) analysis.root = { field, nodeType: type.name };
      const nodeSelectsId = fieldsOf(schema, selection, type, fragments).some(
        (candidate) => candidate.field.name.value === "id" && !candidate.field.alias,
      );
      analyse(
        schema,
        fragments,
        selection,
        type,
        {
          depth,
          inList: false,
          parent: { name: field.name.value, nodeSelectsId },
          chain: depth === 1 ? [] : null,
        },
        analysis,
      );
    }
  }
}

function invalidSyntax(error: GraphQLError): string {
  return /<EOF>/.test(error.message)
    ? "Invalid bulk query: syntax error, unexpected end of file"
    : `Invalid bulk query: ${syntaxErrorToShopify(error).message}`;
}

/** The bulk query's problems in Shopify's order, or its plan. */
export function checkBulkQuery(schema: GraphQLSchema, query: string): BulkQueryCheck {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    if (error instanceof GraphQLError) return { ok: false, errors: [invalidSyntax(error)] };
    throw error;
  }
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operations[0];
  if (operation && operation.operation !== "query") {
    return {
      ok: false,
      errors: ["Invalid operation type. Only `query` operations are supported."],
    };
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) {
    return {
      ok: false,
      errors: validationErrorsToShopify(schema, document, invalid).map((error) => error.message),
    };
  }
  // The store's own rule: the run pages through one document, so one operation.
  if (!operation || operations.length > 1) {
    return { ok: false, errors: ["A bulk query must contain exactly one query operation."] };
  }
  const fragments = Object.fromEntries(
    document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const queryRoot = schema.getQueryType();
  if (!queryRoot) throw new Error("The Admin schema has no query root");
  const topLevel = fieldsOf(schema, operation.selectionSet, queryRoot, fragments).filter(
    ({ field }) => !field.name.value.startsWith("__"),
  );
  const analysis: Analysis = {
    connections: new Set(),
    maxDepth: 0,
    viaNodes: [],
    withinList: false,
    parentsWithoutId: [],
    nested: [],
    root: undefined,
  };
  analyse(
    schema,
    fragments,
    operation.selectionSet,
    queryRoot,
    {
      depth: 0,
      inList: false,
      parent: null,
      chain: null,
    },
    analysis,
  );

  const errors: string[] = [];
  if (analysis.viaNodes.length > 0) {
    errors.push(
      `All connection fields in a bulk query must select their contents using 'edges' > 'node', e.g: '${analysis.viaNodes[0]} { edges { node {'. Selecting via 'nodes' is not supported. Invalid connection fields: '${analysis.viaNodes.join("', '")}'.`,
    );
  }
  const topLevelNode = topLevel.some(({ field }) => field.name.value === "node");
  if (topLevelNode) errors.push("Bulk queries cannot contain a top level `node` field.");
  if (analysis.maxDepth > MAX_BULK_CONNECTION_DEPTH) {
    errors.push(
      `Bulk queries cannot contain connections with a nesting depth greater than ${MAX_BULK_CONNECTION_DEPTH}.`,
    );
  }
  if (analysis.connections.size > MAX_BULK_CONNECTIONS) {
    errors.push(`Bulk queries cannot contain more than ${MAX_BULK_CONNECTIONS} connections.`);
  }
  if (analysis.parentsWithoutId.length > 0) {
    errors.push(
      `The parent 'node' field for a nested connection must select the 'id' field without an alias and must be of 'ID' return type. Connection fields without 'id': ${analysis.parentsWithoutId.join(", ")}.`,
    );
  }
  if (analysis.withinList) {
    errors.push(
      "Queries that contain a connection field within a list field are not currently supported.",
    );
  }
  if (analysis.connections.size === 0 && errors.length <= (topLevelNode ? 1 : 0)) {
    errors.push("Bulk queries must contain at least one connection.");
  }
  // The store's own rule: the run pages through the top-level connection, one field.
  const root = analysis.root;
  if (errors.length === 0 && (topLevel.length !== 1 || root?.field !== topLevel[0]?.field)) {
    errors.push("A bulk query's only top level field must be a connection.");
  }
  if (errors.length > 0 || !root) return { ok: false, errors };
  return {
    ok: true,
    plan: {
      document,
      operation,
      fragments,
      root: root.field,
      rootNodeType: root.nodeType,
      nested: analysis.nested,
      connections: analysis.connections,
    },
  };
}
