import {
  type GraphQLFieldResolver,
  type GraphQLTypeResolver,
  GraphQLError,
  type ResponsePath as Path,
} from "./graphql-js";
import type { AdminContext, LazyField } from "./context";
import { responsePathKey } from "./cost";
import { notEmulated } from "./errors";

function pathOf(path: Path | undefined): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let current = path; current; current = current.prev) keys.unshift(current.key);
  return keys;
}

/**
 * Every field without a resolver of its own reads its view (context.ts): the value it holds, or
 * the function it holds called with the field's arguments. A field the view does not hold was
 * never emulated, and says so rather than answer null.
 */
export const viewFieldResolver: GraphQLFieldResolver<unknown, AdminContext> = (
  source,
  args,
  context,
  info,
) => {
  // The concrete type of the object this field belongs to, by its place in the answer: what
  // the actual cost needs for an object of an interface or union type.
  if (info.path.prev) {
    context.resolvedTypes.set(responsePathKey(pathOf(info.path.prev)), info.parentType.name);
  }
  if (typeof source === "object" && source !== null && Object.hasOwn(source, info.fieldName)) {
    const value: unknown = (source as Record<string, unknown>)[info.fieldName];
    return typeof value === "function" ? (value as LazyField)(args, context, info) : value;
  }
  throw notEmulated(info.parentType.name, info.fieldName);
};

/** Interfaces and unions resolve by the view's `__typename`. */
export const viewTypeResolver: GraphQLTypeResolver<unknown, AdminContext> = (
  value,
  _context,
  _info,
  abstractType,
) => {
  const typeName =
    typeof value === "object" && value !== null
      ? (value as { __typename?: unknown }).__typename
      : undefined;
  if (typeof typeName !== "string") {
    throw new GraphQLError(`The local store resolved a ${abstractType.name} without a __typename`);
  }
  return typeName;
};
