import type { Id } from "../model";

/** The Admin GraphQL ID Shopify writes as `admin_graphql_api_id`: gid://shopify/Order/123. */
export function gid(type: string, id: Id): string {
  return `gid://shopify/${type}/${id}`;
}
