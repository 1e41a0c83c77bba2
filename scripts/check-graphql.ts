// npm run graphql:check: the Admin API operations against Shopify's schema (decision 019).
//  1. The committed schema is the one of the API version app/shopify.server.ts asks for.
//  2. Every operation in app/graphql/ validates against it: one named operation per file.
//  3. The scopes in shopify.app.toml cover the access Shopify states for each field and type
//     an operation uses (the introspection's `requiredAccess`).
//  4. The committed types in graphql/generated/ are what codegen makes of them now.
// Exits 1 and names each problem; prints deprecated fields as warnings.
import { readFileSync } from "node:fs";
import path from "node:path";
import { generate } from "@graphql-codegen/cli";
import {
  GraphQLError,
  Kind,
  NoDeprecatedCustomRule,
  buildClientSchema,
  parse,
  validate,
  type DocumentNode,
} from "graphql";
import { adminCodegenConfig } from "../codegen";
import {
  appTomlOptionalScopes,
  appTomlScopes,
  coveredBy,
  effectiveScopes,
  statedAccessOf,
  usageOf,
} from "../app/lib/admin-graphql-schema";
import {
  REPO_ROOT,
  adminOperationSources,
  appApiVersion,
  committedSchemaVersions,
  loadAdminIntrospection,
} from "../graphql/admin-schema.mjs";

/*
 * Access that Shopify states in words the check cannot read, decided by a person per operation
 * and field: the scopes that satisfy it here. Each entry says why.
 */
const DECIDED_ACCESS: Record<string, Record<string, { anyOf: string[]; why: string }>> = {
  SetPlanAvailability: {
    "Mutation.metafieldsSet": {
      anyOf: ["write_products"],
      why: "the metafields' owner is a Product, and metafieldsSet needs the owner's write access",
    },
  },
  BeginPlanEdit: {
    "Mutation.orderEditBegin": {
      anyOf: ["write_order_edits"],
      why: "an edit of the order's plan lines: Shopify's `order_edits` access scope (decision 026)",
    },
  },
  CommitPlanEdit: {
    "Mutation.orderEditCommit": {
      anyOf: ["write_order_edits"],
      why: "an edit of the order's plan lines: Shopify's `order_edits` access scope (decision 026)",
    },
  },
  RunBackfillQuery: {
    "Mutation.bulkOperationRunQuery": {
      anyOf: ["read_orders"],
      why: "the backfill's bulk query runs with the shop's offline token, which bulk operations accept, and reads only orders (decision 029)",
    },
    BulkOperation: {
      anyOf: ["read_orders"],
      why: "the app's own bulk query, read with the offline token that started it (decision 029)",
    },
  },
  BackfillOperation: {
    BulkOperation: {
      anyOf: ["read_orders"],
      why: "the app's own bulk query, read with the offline token that started it (decision 029)",
    },
  },
  RefundPlanLine: {
    "Mutation.refundCreate": {
      anyOf: ["write_orders"],
      why: "a refund changes the order: Shopify's `orders` access scope, to write (decision 022)",
    },
  },
};

const problems: string[] = [];
const warnings: string[] = [];

const apiVersion = await appApiVersion();
const committed = committedSchemaVersions();
if (!committed.includes(apiVersion)) {
  console.error(
    `The app uses Admin API ${apiVersion}, but graphql/ holds the schema of ${committed.join(", ") || "none"}: run npm run schema:refresh`,
  );
  process.exit(1);
}
const introspection = loadAdminIntrospection(apiVersion);
const schema = buildClientSchema(introspection);
const toml = readFileSync(path.join(REPO_ROOT, "shopify.app.toml"), "utf8");
// An optional scope covers the operations of the feature that asks for it (decision 025).
const granted = [...appTomlScopes(toml), ...appTomlOptionalScopes(toml)];
const scopes = effectiveScopes(granted);

const operations = adminOperationSources();
const files = new Map<string, number>();
for (const { file } of operations) files.set(file, (files.get(file) ?? 0) + 1);
for (const [file, count] of files) {
  if (count > 1) problems.push(`${file}: ${count} #graphql strings, one operation per file`);
}

for (const { file, line, source } of operations) {
  let document: DocumentNode;
  try {
    document = parse(source);
  } catch (error) {
    problems.push(`${file}: ${error instanceof GraphQLError ? error.message : String(error)}`);
    continue;
  }
  const definitions = document.definitions.filter(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const name = definitions[0]?.name?.value;
  if (definitions.length !== 1 || !name) {
    problems.push(`${file}: must hold exactly one named operation`);
    continue;
  }
  if (path.basename(file, ".ts") !== name) {
    problems.push(`${file}: operation ${name} belongs in app/graphql/${name}.ts`);
  }
  const errors = validate(schema, document);
  for (const error of errors) {
    const at = error.locations
      ?.map((location) => `${file}:${line + location.line - 1}:${location.column}`)
      .join(", ");
    problems.push(`${name} is not valid for Admin API ${apiVersion}: ${error.message} (${at})`);
  }
  if (errors.length > 0) continue;
  for (const error of validate(schema, document, [NoDeprecatedCustomRule])) {
    warnings.push(`${file}: ${name}: ${error.message}`);
  }

  const { access, restricted } = statedAccessOf(introspection, usageOf(schema, document));
  for (const { coordinate, reason } of restricted) {
    problems.push(`${name} uses ${coordinate}, which Shopify restricts: ${reason}`);
  }
  for (const { coordinate, requirement } of access) {
    if (requirement.kind === "none") continue;
    const decided = DECIDED_ACCESS[name]?.[coordinate];
    const anyOf = requirement.kind === "scopes" ? requirement.anyOf : decided?.anyOf;
    if (!anyOf) {
      problems.push(
        `${name} uses ${coordinate}, which needs "${requirement.kind === "unreadable" ? requirement.text : ""}": decide which scopes satisfy it in DECIDED_ACCESS of scripts/check-graphql.ts`,
      );
    } else if (!coveredBy(anyOf, scopes)) {
      problems.push(
        `${name} uses ${coordinate}, which needs ${anyOf.join(" or ")}; shopify.app.toml grants ${granted.join(",")}`,
      );
    }
  }
}

// Stale types: generated now, compared with what is committed. Codegen refuses invalid
// operations, so it runs once they are valid.
const outputs =
  problems.length === 0
    ? await generate({ ...(await adminCodegenConfig()), cwd: REPO_ROOT }, false)
    : [];
for (const output of outputs) {
  const file = path.relative(REPO_ROOT, path.resolve(REPO_ROOT, output.filename));
  let current: string | null = null;
  try {
    current = readFileSync(path.join(REPO_ROOT, file), "utf8");
  } catch {
    // Missing: reported below.
  }
  if (current !== output.content) {
    problems.push(`${file} is not what codegen makes of app/graphql/: run npm run graphql:codegen`);
  }
}

for (const warning of warnings) console.warn(`warning: ${warning}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`graphql:check failed: ${problems.length} problems`);
  process.exit(1);
}
console.log(
  `graphql:check: ${operations.length} operations valid for Admin API ${apiVersion}, covered by ${granted.join(",")}; graphql/generated up to date`,
);
