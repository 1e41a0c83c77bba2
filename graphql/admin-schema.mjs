// The committed Admin GraphQL schema (graphql/README.md), read by codegen.ts, the check and the
// refresh script alike. Plain JavaScript, so that the .mjs refresh script needs no TypeScript.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { buildClientSchema } from "graphql";

export const SCHEMA_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.dirname(SCHEMA_DIR);

/** @param {string} apiVersion e.g. "2026-10" */
export function schemaFileOf(apiVersion) {
  return path.join(SCHEMA_DIR, `admin-${apiVersion}.schema.json.gz`);
}

/** The API versions whose schema is committed, oldest first. */
export function committedSchemaVersions() {
  return readdirSync(SCHEMA_DIR)
    .map((name) => /^admin-(\d{4}-\d{2})\.schema\.json\.gz$/.exec(name)?.[1])
    .filter((version) => version !== undefined)
    .sort();
}

/**
 * The Admin API version the app asks for: `apiVersion: ApiVersion.<Name>` in
 * app/shopify.server.ts, resolved with the library's own enum. Read as text, because importing
 * that module starts the app.
 */
export async function appApiVersion() {
  const source = readFileSync(path.join(REPO_ROOT, "app/shopify.server.ts"), "utf8");
  const name = /\bapiVersion:\s*ApiVersion\.(\w+)/.exec(source)?.[1];
  if (!name) throw new Error("Failed to read the Admin API version from app/shopify.server.ts");
  const { ApiVersion } = await import("@shopify/shopify-api");
  const version = /** @type {Record<string, string>} */ (ApiVersion)[name];
  if (!version) throw new Error(`Failed to resolve ApiVersion.${name} of app/shopify.server.ts`);
  return version;
}

/**
 * The introspection result as Shopify publishes it: besides the standard fields, each type and
 * field carries `requiredAccess`, the access it needs in words.
 * @param {Buffer} gzipped
 * @returns {{ __schema: import("graphql").IntrospectionSchema }}
 */
export function parseIntrospection(gzipped) {
  const json = JSON.parse(gunzipSync(gzipped).toString("utf8"));
  const introspection = json.data ?? json;
  if (!introspection?.__schema?.types) throw new Error("Not a GraphQL introspection result");
  return introspection;
}

/** @param {string} apiVersion */
export function loadAdminIntrospection(apiVersion) {
  const file = schemaFileOf(apiVersion);
  try {
    return parseIntrospection(readFileSync(file));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Failed to load the Admin API ${apiVersion} schema from ${file}: ${reason}`);
  }
}

/** @param {string} apiVersion */
export function loadAdminSchema(apiVersion) {
  return buildClientSchema(loadAdminIntrospection(apiVersion));
}

export const OPERATIONS_DIR = path.join(REPO_ROOT, "app/graphql");

/**
 * The Admin operations of app/graphql/, one per file: each `#graphql` template string, exactly
 * as codegen plucks it (the text, "#graphql" included, is the key of its generated types).
 * @returns {{ file: string; line: number; source: string }[]} `line`: where the string starts
 */
export function adminOperationSources() {
  return readdirSync(OPERATIONS_DIR)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .sort()
    .flatMap((name) => {
      const file = path.join(OPERATIONS_DIR, name);
      const text = readFileSync(file, "utf8");
      return [...text.matchAll(/`(#graphql[^`]*)`/g)].map((match) => {
        if (match[1].includes("${")) {
          throw new Error(`Failed to read the operation in ${file}: it interpolates a value`);
        }
        const line = text.slice(0, match.index).split("\n").length;
        return { file: path.relative(REPO_ROOT, file), line, source: match[1] };
      });
    });
}
