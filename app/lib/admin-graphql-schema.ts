import {
  type DocumentNode,
  type GraphQLSchema,
  type IntrospectionField,
  type IntrospectionQuery,
  type IntrospectionType,
  type IntrospectionTypeRef,
  TypeInfo,
  getNamedType,
  isInterfaceType,
  typeFromAST,
  visit,
  visitWithTypeInfo,
} from "graphql";

/*
 * Reads Shopify's Admin GraphQL introspection for the build-time checks (decision 019): which
 * fields and types an operation uses, the access scopes they need, and the slice of the schema
 * that the generated types are written from. Pure: the schema and operations are passed in.
 */

/** Shopify's introspection carries, on each type and field, the access it needs in words. */
interface WithRequiredAccess {
  requiredAccess?: string | null;
  accessRestricted?: boolean | null;
  accessRestrictedReason?: string | null;
}

/** A field as an operation selects it: on the type it is selected on. */
export interface FieldUse {
  typeName: string;
  fieldName: string;
}

export interface OperationUsage {
  fields: FieldUse[];
  /** Every named type read or sent: field types, type conditions, variable types. */
  types: string[];
}

/** The fields and types one document uses, found with the schema (`__typename` left out). */
export function usageOf(schema: GraphQLSchema, document: DocumentNode): OperationUsage {
  const fields = new Map<string, FieldUse>();
  const types = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (!parent || !field || node.name.value === "__typename") return;
        fields.set(`${parent.name}.${field.name}`, {
          typeName: parent.name,
          fieldName: field.name,
        });
        types.add(getNamedType(field.type).name);
      },
      InlineFragment(node) {
        if (node.typeCondition) types.add(node.typeCondition.name.value);
      },
      FragmentDefinition(node) {
        types.add(node.typeCondition.name.value);
      },
      VariableDefinition(node) {
        const type = typeFromAST(schema, node.type);
        if (type) types.add(getNamedType(type).name);
      },
    }),
  );
  return { fields: [...fields.values()], types: [...types] };
}

/** What an access text asks of the app: one of some scopes, nothing, or words to decide on. */
export type AccessRequirement =
  | { kind: "scopes"; anyOf: string[] }
  /** Only the staff member's permissions: an app's scopes do not decide it. */
  | { kind: "none" }
  | { kind: "unreadable"; text: string };

const SCOPE = String.raw`(?:unauthenticated_)?(?:read|write)_[a-z0-9_]+`;
/** "`read_products` access scope or `read_publications` access scope." (or a, b or c) */
const BACKTICKED_CHOICE = new RegExp(
  String.raw`^(?:apps must have )?\`${SCOPE}\`(?: access scope)?(?:(?:,| or) \`${SCOPE}\`(?: access scope)?)*\.?$`,
  "i",
);
/** "products or product_listings read access scope." */
const RESOURCE_CHOICE = /^([a-z_]+(?: or [a-z_]+)*) (read|write) access scope\.?$/i;

/** A sentence about the staff member's permissions (online tokens), not the app's scopes. */
const STAFF_PERMISSION = /^(?:the )?(?:user|staff member)\b/i;

/**
 * Reads Shopify's `requiredAccess` text. What follows "Also:", and a sentence about the user's
 * permissions, concern the staff member or the shop's plan, never the app's scopes, so they are
 * left out. Anything but a plain choice of scopes ("and", "for mutations", prose) is unreadable:
 * a person must decide what it means.
 */
export function parseRequiredAccess(text: string): AccessRequirement {
  const scopePart = (text.split(/\bAlso:/)[0] ?? "")
    .replace(/\s+/g, " ")
    .split(/(?<=\.) /)
    .filter((sentence) => !STAFF_PERMISSION.test(sentence))
    .join(" ")
    .trim();
  if (scopePart === "") return { kind: "none" };
  const backticked = BACKTICKED_CHOICE.exec(scopePart);
  if (backticked) {
    const scopes = [...scopePart.matchAll(new RegExp(`\`(${SCOPE})\``, "g"))].map(
      (match) => match[1] ?? "",
    );
    return { kind: "scopes", anyOf: scopes };
  }
  const resources = RESOURCE_CHOICE.exec(scopePart);
  if (resources?.[1] && resources[2]) {
    const mode = resources[2].toLowerCase();
    return {
      kind: "scopes",
      anyOf: resources[1].split(" or ").map((resource) => `${mode}_${resource}`),
    };
  }
  return { kind: "unreadable", text: text.trim() };
}

/** The access an operation needs, each with where Shopify states it (`Type` or `Type.field`). */
export interface StatedAccess {
  coordinate: string;
  requirement: AccessRequirement;
}

export interface RestrictedUse {
  coordinate: string;
  reason: string;
}

function typeIndex(introspection: IntrospectionQuery) {
  return new Map(
    introspection.__schema.types.map((type) => [
      type.name,
      type as IntrospectionType & WithRequiredAccess,
    ]),
  );
}

function fieldsOf(
  type: IntrospectionType | undefined,
): readonly (IntrospectionField & WithRequiredAccess)[] {
  return type && "fields" in type && type.fields ? type.fields : [];
}

/**
 * The access Shopify states for what an operation uses: each field selected, and each type it
 * returns or names in a fragment. All of them must be granted. Also the fields Shopify marks as
 * restricted to some apps.
 */
export function statedAccessOf(
  introspection: IntrospectionQuery,
  usage: OperationUsage,
): { access: StatedAccess[]; restricted: RestrictedUse[] } {
  const types = typeIndex(introspection);
  const access: StatedAccess[] = [];
  const restricted: RestrictedUse[] = [];
  for (const name of usage.types) {
    const text = types.get(name)?.requiredAccess;
    if (text) access.push({ coordinate: name, requirement: parseRequiredAccess(text) });
  }
  for (const { typeName, fieldName } of usage.fields) {
    const field = fieldsOf(types.get(typeName)).find((candidate) => candidate.name === fieldName);
    const coordinate = `${typeName}.${fieldName}`;
    if (field?.requiredAccess) {
      access.push({ coordinate, requirement: parseRequiredAccess(field.requiredAccess) });
    }
    if (field?.accessRestricted) {
      restricted.push({ coordinate, reason: field.accessRestrictedReason ?? "restricted" });
    }
  }
  return { access, restricted };
}

/** The scopes granted, with the read scope each write scope implies (Shopify's rule). */
export function effectiveScopes(granted: readonly string[]): Set<string> {
  const scopes = new Set(granted);
  for (const scope of granted) {
    const implied = /^(unauthenticated_)?write_(.+)$/.exec(scope);
    if (implied) scopes.add(`${implied[1] ?? ""}read_${implied[2]}`);
  }
  return scopes;
}

/** Whether some granted scope satisfies a choice of scopes. */
export function coveredBy(anyOf: readonly string[], granted: ReadonlySet<string>): boolean {
  return anyOf.some((scope) => granted.has(scope));
}

/**
 * The `optional_scopes` of the `[access_scopes]` table of shopify.app.toml: scopes the app asks
 * for at run time, for a feature the merchant turns on. [] when there are none.
 */
export function appTomlOptionalScopes(toml: string): string[] {
  let inAccessScopes = false;
  for (const rawLine of toml.split("\n")) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const table = /^\[([^\]]+)\]$/.exec(line);
    if (table) {
      inAccessScopes = table[1]?.trim() === "access_scopes";
      continue;
    }
    const list = inAccessScopes ? /^optional_scopes\s*=\s*\[([^\]]*)\]$/.exec(line) : null;
    if (list) {
      return [...(list[1] ?? "").matchAll(/"([^"]+)"/g)].map((match) => match[1]!.trim());
    }
  }
  return [];
}

/**
 * The `scopes` of the `[access_scopes]` table of shopify.app.toml. A small reader for the one
 * key, rather than a TOML dependency: the file's other tables are not read.
 */
export function appTomlScopes(toml: string): string[] {
  let inAccessScopes = false;
  for (const rawLine of toml.split("\n")) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const table = /^\[([^\]]+)\]$/.exec(line);
    if (table) {
      inAccessScopes = table[1]?.trim() === "access_scopes";
      continue;
    }
    const scopes = inAccessScopes ? /^scopes\s*=\s*"([^"]*)"$/.exec(line) : null;
    if (scopes) {
      return (scopes[1] ?? "")
        .split(",")
        .map((scope) => scope.trim())
        .filter((scope) => scope !== "");
    }
  }
  throw new Error("Failed to read [access_scopes] scopes from shopify.app.toml");
}

function namedTypeOf(ref: IntrospectionTypeRef): string {
  let current: IntrospectionTypeRef = ref;
  while ("ofType" in current && current.ofType) current = current.ofType;
  return "name" in current ? current.name : "";
}

/**
 * The part of the schema the operations use, for generating their types: the fields they
 * select (on an interface, on each of its types too, as the generated types pick them there)
 * and every type those fields, their arguments and the variables reach. The generated
 * declarations of the whole Admin schema are 4 MB; of this slice, a few hundred lines.
 */
export function pruneIntrospection(
  schema: GraphQLSchema,
  introspection: IntrospectionQuery,
  usages: readonly OperationUsage[],
): IntrospectionQuery {
  const keptFields = new Map<string, Set<string>>();
  const keep = new Set<string>(["String", "Boolean", "Int", "Float", "ID"]);
  const root = introspection.__schema;
  for (const rootType of [root.queryType, root.mutationType]) if (rootType) keep.add(rootType.name);
  const keepField = (typeName: string, fieldName: string) => {
    keep.add(typeName);
    const fields = keptFields.get(typeName) ?? new Set<string>();
    fields.add(fieldName);
    keptFields.set(typeName, fields);
  };
  for (const usage of usages) {
    for (const name of usage.types) keep.add(name);
    for (const { typeName, fieldName } of usage.fields) {
      keepField(typeName, fieldName);
      const parent = schema.getType(typeName);
      if (parent && isInterfaceType(parent)) {
        for (const type of schema.getPossibleTypes(parent)) keepField(type.name, fieldName);
      }
    }
  }

  const types = typeIndex(introspection);
  // What kept fields' types, their arguments and kept input objects reach, transitively.
  const pending = [...keep];
  const reach = (name: string) => {
    if (name && !keep.has(name)) {
      keep.add(name);
      pending.push(name);
    }
  };
  while (pending.length > 0) {
    const type = types.get(pending.pop() ?? "");
    if (!type) continue;
    if (type.kind === "INPUT_OBJECT") {
      for (const field of type.inputFields) reach(namedTypeOf(field.type));
    }
    const selected = keptFields.get(type.name);
    for (const field of fieldsOf(type)) {
      if (!selected?.has(field.name)) continue;
      reach(namedTypeOf(field.type));
      for (const arg of field.args) reach(namedTypeOf(arg.type));
    }
  }

  const pruned = introspection.__schema.types
    .filter((type) => keep.has(type.name))
    .map((type): IntrospectionType => {
      if (type.kind !== "OBJECT" && type.kind !== "INTERFACE") {
        return type;
      }
      const selected = keptFields.get(type.name);
      const slim = {
        ...type,
        fields: type.fields.filter((field) => selected?.has(field.name)),
        interfaces: type.interfaces.filter((ref) => keep.has(ref.name)),
      };
      return type.kind === "INTERFACE"
        ? {
            ...slim,
            kind: "INTERFACE",
            possibleTypes: type.possibleTypes.filter((ref) => keep.has(ref.name)),
          }
        : { ...slim, kind: "OBJECT" };
    })
    .map((type): IntrospectionType =>
      type.kind === "UNION"
        ? { ...type, possibleTypes: type.possibleTypes.filter((ref) => keep.has(ref.name)) }
        : type,
    );
  return {
    __schema: {
      ...introspection.__schema,
      types: pruned,
      // The built-in directives only: their arguments are built-in scalars.
      directives: introspection.__schema.directives.filter((directive) =>
        ["skip", "include", "deprecated", "specifiedBy", "oneOf"].includes(directive.name),
      ),
    },
  };
}
