import type { CodegenConfig } from "@graphql-codegen/cli";
import { ApiType, pluckConfig, preset } from "@shopify/api-codegen-preset";
import { buildClientSchema, parse } from "graphql";
import { pruneIntrospection, usageOf } from "./app/lib/admin-graphql-schema";
import {
  adminOperationSources,
  appApiVersion,
  loadAdminIntrospection,
} from "./graphql/admin-schema.mjs";

/*
 * Types of the Admin API operations in app/graphql/ (decision 019), generated against the
 * committed schema of the API version the app uses, so codegen needs no network. The output is
 * committed; `npm run graphql:check` fails when it is stale. Run: npm run graphql:codegen
 */
export const ADMIN_TYPES_DIR = "graphql/generated";

export async function adminCodegenConfig(): Promise<CodegenConfig> {
  const introspection = loadAdminIntrospection(await appApiVersion());
  const schema = buildClientSchema(introspection);
  // admin.types.d.ts declares only the slice the operations use: the whole schema is 4 MB.
  const usages = adminOperationSources().map(({ source }) => usageOf(schema, parse(source)));
  const slice = buildClientSchema(pruneIntrospection(schema, introspection, usages));
  return {
    overwrite: true,
    silent: true,
    // `#graphql` template strings, as the operations are written. The preset types its pluck
    // hooks loosely; they are what graphql-tag-pluck calls.
    pluckConfig: pluckConfig as CodegenConfig["pluckConfig"],
    generates: {
      [`${ADMIN_TYPES_DIR}/admin.types.d.ts`]: {
        schema: slice,
        plugins: ["typescript"],
        // The preset's own settings (shopifyApiTypes), without its schema download. Enums as
        // string unions: the declarations emit no code, and the wire values type-check as written.
        config: { defaultScalarType: "string", scalars: { JSON: "unknown" }, enumsAsTypes: true },
      },
      [`${ADMIN_TYPES_DIR}/admin.generated.d.ts`]: {
        schema,
        documents: ["app/graphql/*.ts"],
        preset,
        presetConfig: { apiType: ApiType.Admin },
      },
    },
  };
}

export default adminCodegenConfig();
