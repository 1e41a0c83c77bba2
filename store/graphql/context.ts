import type { GraphQLResolveInfo } from "./graphql-js";
import type { Actor, Id, StoreActions, StoreShop } from "../model";
import type { BulkOperations } from "./bulk-operations";
import type { IdempotencyKeys } from "./idempotency";

/** What every resolver of one request sees. */
export interface AdminContext {
  state: StoreActions;
  shop: StoreShop;
  /** The app's ID, as in its reserved metafield namespace `app--<id>`. */
  appId: Id;
  /** The app's scopes in shopify.app.toml: required, and optional (asked for at run time). */
  appScopes: { required: string[]; optional: string[] };
  /** Changes made through the Admin API are the app's. */
  actor: Actor;
  now: () => number;
  idempotency: IdempotencyKeys;
  /** Every shop's bulk operations; a resolver sees only its shop's app's. */
  bulk: BulkOperations;
  /** The concrete type of each object by its place in the answer (for the actual cost). */
  resolvedTypes: Map<string, string>;
}

/**
 * What a resolver returns for an object type: the GraphQL fields it holds, by name. A field is
 * a value, or a function of the field's arguments when it takes any or costs work to compute.
 * A field the view does not hold is not emulated (default-resolver.ts).
 */
export interface View {
  readonly __typename: string;
  readonly [field: string]: unknown;
}

export type LazyField = (
  args: Record<string, unknown>,
  context: AdminContext,
  info: GraphQLResolveInfo,
) => unknown;

/**
 * A field with arguments. graphql-js has coerced them against the schema before the resolver
 * runs, so reading them as the schema's input types is sound.
 */
export function withArgs<Args>(
  resolve: (args: Args, context: AdminContext, info: GraphQLResolveInfo) => unknown,
): LazyField {
  return (args, context, info) => resolve(args as Args, context, info);
}
