import { addResolversToSchema } from "@graphql-tools/schema";
import { type GraphQLSchema, buildClientSchema } from "./graphql-js";
import { loadAdminIntrospection } from "../../graphql/admin-schema.mjs";
import { bulkMutations, bulkQueries } from "./resolvers/bulk";
import { catalogMutations } from "./resolvers/catalog-mutations";
import { orderMutations } from "./resolvers/order-mutations";
import { queryResolvers } from "./resolvers/query";
import { strictScalars } from "./scalars";

/** The Admin API version the store answers: the committed schema's (decision 019). */
export const ADMIN_API_VERSION = "2026-10";

let cached: GraphQLSchema | undefined;

/**
 * Shopify's published Admin schema with the store's resolvers and strict scalars, built once
 * per process, when first asked for (about half a second). The schema is built here and shared
 * with no one, so the resolvers are set in place rather than on a copy of 2,000 types.
 */
export function adminSchema(): GraphQLSchema {
  cached ??= addResolversToSchema({
    schema: buildClientSchema(loadAdminIntrospection(ADMIN_API_VERSION)),
    updateResolversInPlace: true,
    resolvers: {
      ...strictScalars,
      QueryRoot: { ...queryResolvers, ...bulkQueries },
      Mutation: { ...catalogMutations, ...orderMutations, ...bulkMutations },
    },
  });
  return cached;
}
