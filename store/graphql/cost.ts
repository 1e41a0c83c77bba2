import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from "./graphql-js";

/*
 * The calculated query cost of Shopify's Admin API (shopify.dev, "GraphQL Admin API rate
 * limits"): scalars and enums 0, an object 1, an interface or union the most expensive of its
 * possible selections, a connection 2 plus `first`/`last` times the cost of one node, a mutation
 * 10. The requested cost is computed from the query before it runs, the actual cost from what it
 * returned (fewer nodes, null objects). Decision 020 lists the choices the published rules leave
 * open (lists that are not connections, `nodes(ids:)`).
 */

export const MUTATION_COST = 10;
export const MAX_QUERY_COST = 1000;

type Fragments = Record<string, FragmentDefinitionNode>;
type Variables = Record<string, unknown>;

interface CostInput {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Fragments;
  variables: Variables;
}

function isIncluded(
  node: FieldNode | SelectionSetNode["selections"][number],
  variables: Variables,
) {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, variables);
  return include?.if !== false;
}

/** The fields selected on a concrete type, merged by response key, as graphql-js collects them. */
function collectFields(
  input: CostInput,
  type: GraphQLObjectType,
  selectionSets: readonly SelectionSetNode[],
  fields = new Map<string, FieldNode[]>(),
  visited = new Set<string>(),
): Map<string, FieldNode[]> {
  for (const selectionSet of selectionSets) {
    for (const selection of selectionSet.selections) {
      if (!isIncluded(selection, input.variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        fields.set(key, [...(fields.get(key) ?? []), selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition;
        if (!condition || conditionMatches(input.schema, condition.name.value, type)) {
          collectFields(input, type, [selection.selectionSet], fields, visited);
        }
      } else {
        const name = selection.name.value;
        const fragment = input.fragments[name];
        if (!fragment || visited.has(name)) continue;
        visited.add(name);
        if (conditionMatches(input.schema, fragment.typeCondition.name.value, type)) {
          collectFields(input, type, [fragment.selectionSet], fields, visited);
        }
      }
    }
  }
  return fields;
}

function conditionMatches(schema: GraphQLSchema, condition: string, type: GraphQLObjectType) {
  if (condition === type.name) return true;
  const conditionType = schema.getType(condition);
  return isAbstractType(conditionType) && schema.isSubType(conditionType, type);
}

function subSelections(nodes: readonly FieldNode[]): SelectionSetNode[] {
  return nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
}

function concreteTypes(
  schema: GraphQLSchema,
  type: GraphQLCompositeType,
): readonly GraphQLObjectType[] {
  return isObjectType(type) ? [type] : schema.getPossibleTypes(type);
}

/** A Relay connection type of the Admin schema: `…Connection` with `edges` or `nodes`. */
export function isConnection(type: GraphQLCompositeType): type is GraphQLObjectType {
  if (!isObjectType(type) || !type.name.endsWith("Connection")) return false;
  const fields = type.getFields();
  return "edges" in fields || "nodes" in fields;
}

function fieldDefOf(
  type: GraphQLObjectType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  return type.getFields()[name];
}

function argumentsOf(input: CostInput, field: GraphQLField<unknown, unknown>, node: FieldNode) {
  try {
    return getArgumentValues(field, node, input.variables);
  } catch {
    return {};
  }
}

/** How many objects a list field asks for: `first`/`last`, the IDs of `nodes(ids:)`, else one. */
function requestedSize(args: Record<string, unknown>): number {
  for (const name of ["first", "last"]) {
    const value = args[name];
    if (typeof value === "number") return Math.max(0, value);
  }
  const ids = args.ids;
  return Array.isArray(ids) ? ids.length : 1;
}

function selectionCost(
  input: CostInput,
  type: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
) {
  let cost = 0;
  for (const nodes of collectFields(input, type, sets).values()) {
    cost += requestedFieldCost(input, type, nodes);
  }
  return cost;
}

/** One object of a composite type with its selections: 1, or the dearest possible type's. */
function objectCost(
  input: CostInput,
  type: GraphQLCompositeType,
  sets: readonly SelectionSetNode[],
) {
  return Math.max(
    0,
    ...concreteTypes(input.schema, type).map(
      (concrete) => 1 + selectionCost(input, concrete, sets),
    ),
  );
}

/** A connection's cost per node: the dearer of `nodes { ... }` and `edges { node { ... } }`. */
function connectionNodeCost(
  input: CostInput,
  connection: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
): number {
  let cost = 0;
  for (const [, nodes] of collectFields(input, connection, sets)) {
    const name = nodes[0]?.name.value;
    const field = name ? fieldDefOf(connection, name) : undefined;
    if (!field) continue;
    const named = getNamedType(field.type);
    if (name === "nodes" && !isLeafType(named)) {
      cost = Math.max(cost, objectCost(input, named, subSelections(nodes)));
    } else if (name === "edges" && isObjectType(named)) {
      for (const [, edgeNodes] of collectFields(input, named, subSelections(nodes))) {
        const edgeField = edgeNodes[0] ? fieldDefOf(named, edgeNodes[0].name.value) : undefined;
        const nodeType = edgeField ? getNamedType(edgeField.type) : undefined;
        if (edgeField?.name === "node" && nodeType && !isLeafType(nodeType)) {
          cost = Math.max(cost, objectCost(input, nodeType, subSelections(edgeNodes)));
        }
      }
    }
  }
  return cost;
}

function requestedFieldCost(
  input: CostInput,
  parent: GraphQLObjectType,
  nodes: FieldNode[],
): number {
  const node = nodes[0];
  if (!node || node.name.value.startsWith("__")) return 0;
  const field = fieldDefOf(parent, node.name.value);
  if (!field) return 0;
  const named = getNamedType(field.type);
  if (isLeafType(named)) return 0;
  const sets = subSelections(nodes);
  const args = argumentsOf(input, field, node);
  if (isConnection(named)) {
    return 2 + requestedSize(args) * connectionNodeCost(input, named, sets);
  }
  const nullableType = isNonNullType(field.type) ? field.type.ofType : field.type;
  const size = isListType(nullableType) ? requestedSize(args) : 1;
  return size * objectCost(input, named, sets);
}

function rootType(input: CostInput): GraphQLObjectType | null | undefined {
  const { operation } = input.operation;
  if (operation === "mutation") return input.schema.getMutationType();
  return operation === "query" ? input.schema.getQueryType() : null;
}

/** What the query asks for at most, before it runs. */
export function requestedQueryCost(input: CostInput): number {
  const root = rootType(input);
  if (!root) return 0;
  const fields = collectFields(input, root, [input.operation.selectionSet]);
  if (input.operation.operation === "mutation") {
    return [...fields.keys()].filter((key) => !key.startsWith("__")).length * MUTATION_COST;
  }
  return selectionCost(input, root, [input.operation.selectionSet]);
}

/** Where a value of an abstract type sits in the answer, and the concrete type it resolved to. */
export type ResolvedTypes = ReadonlyMap<string, string>;

export function responsePathKey(path: readonly (string | number)[]): string {
  return path.join(".");
}

interface ActualInput extends CostInput {
  resolvedTypes: ResolvedTypes;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function actualObjectCost(
  input: ActualInput,
  type: GraphQLCompositeType,
  sets: readonly SelectionSetNode[],
  value: unknown,
  path: (string | number)[],
): number {
  if (!isRecord(value)) return 0;
  const concrete = isObjectType(type)
    ? type
    : input.schema.getType(input.resolvedTypes.get(responsePathKey(path)) ?? "");
  if (!isObjectType(concrete)) return 1;
  let cost = 1;
  for (const [key, nodes] of collectFields(input, concrete, sets)) {
    cost += actualFieldCost(input, concrete, nodes, value[key], [...path, key]);
  }
  return cost;
}

function actualConnectionCost(
  input: ActualInput,
  connection: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
  value: unknown,
  path: (string | number)[],
): number {
  if (!isRecord(value)) return 0;
  let nodesCost = 0;
  let edgesCost = 0;
  for (const [key, nodes] of collectFields(input, connection, sets)) {
    const field = nodes[0] ? fieldDefOf(connection, nodes[0].name.value) : undefined;
    const items = value[key];
    if (!field || !Array.isArray(items)) continue;
    const named = getNamedType(field.type);
    if (field.name === "nodes" && !isLeafType(named)) {
      nodesCost = items.reduce<number>(
        (sum, item, index) =>
          sum + actualObjectCost(input, named, subSelections(nodes), item, [...path, key, index]),
        0,
      );
    } else if (field.name === "edges" && isObjectType(named)) {
      const edgeFields = collectFields(input, named, subSelections(nodes));
      edgesCost = items.reduce<number>((sum, edge, index) => {
        let edgeCost = 0;
        for (const [edgeKey, edgeNodes] of edgeFields) {
          const edgeField = edgeNodes[0] ? fieldDefOf(named, edgeNodes[0].name.value) : undefined;
          const nodeType = edgeField ? getNamedType(edgeField.type) : undefined;
          if (edgeField?.name === "node" && nodeType && !isLeafType(nodeType) && isRecord(edge)) {
            edgeCost += actualObjectCost(input, nodeType, subSelections(edgeNodes), edge[edgeKey], [
              ...path,
              key,
              index,
              edgeKey,
            ]);
          }
        }
        return sum + edgeCost;
      }, 0);
    }
  }
  return 2 + Math.max(nodesCost, edgesCost);
}

function actualFieldCost(
  input: ActualInput,
  parent: GraphQLObjectType,
  nodes: FieldNode[],
  value: unknown,
  path: (string | number)[],
): number {
  const node = nodes[0];
  if (!node || node.name.value.startsWith("__") || value === null || value === undefined) return 0;
  const field = fieldDefOf(parent, node.name.value);
  if (!field) return 0;
  const named = getNamedType(field.type);
  if (isLeafType(named)) return 0;
  const sets = subSelections(nodes);
  if (isConnection(named)) return actualConnectionCost(input, named, sets, value, path);
  if (Array.isArray(value)) {
    return value.reduce<number>(
      (sum, item, index) => sum + actualObjectCost(input, named, sets, item, [...path, index]),
      0,
    );
  }
  return actualObjectCost(input, named, sets, value, path);
}

/** What the query cost once it ran: connections and lists counted as answered. */
export function actualQueryCost(input: ActualInput, data: unknown): number {
  const root = rootType(input);
  if (!root) return 0;
  if (input.operation.operation === "mutation") return requestedQueryCost(input);
  if (!isRecord(data)) return 0;
  let cost = 0;
  for (const [key, nodes] of collectFields(input, root, [input.operation.selectionSet])) {
    cost += actualFieldCost(input, root, nodes, data[key], [key]);
  }
  return cost;
}
