import {
  type ASTNode,
  type DocumentNode,
  type GraphQLError as GraphQLErrorType,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  GraphQLError,
  Kind,
  TypeInfo,
  coerceInputValue,
  getNamedType,
  isEnumType,
  isNonNullType,
  print,
  typeFromAST,
  visit,
  visitWithTypeInfo,
} from "./graphql-js";

/*
 * Errors in the shape Shopify answers them. Shopify's Admin API runs graphql-ruby, so a query
 * that does not validate gets graphql-ruby's message, locations, a path of field names that
 * starts with the operation ("query Name"), and `extensions.code` in graphql-ruby's camelCase
 * (`undefinedField`, `argumentNotAccepted`, ...). graphql-js finds the same faults with its own
 * words; each one is rewritten here. Decision 020 lists the rewrites and the fallbacks.
 */

export interface ShopifyErrorLocation {
  line: number;
  column: number;
}

export interface ShopifyError {
  message: string;
  locations?: ShopifyErrorLocation[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

/** A field that validates but that the local store does not emulate: never a silent null. */
export function notEmulated(typeName: string, fieldName: string): GraphQLError {
  return new GraphQLError(`${typeName}.${fieldName} is not emulated by the local store`, {
    extensions: { code: "NOT_EMULATED" },
  });
}

/** An argument or input value the local store does not emulate (a filter, a sort key...). */
export function notEmulatedInput(what: string): GraphQLError {
  return new GraphQLError(`${what} is not emulated by the local store`, {
    extensions: { code: "NOT_EMULATED" },
  });
}

/** graphql-ruby's parse error: `Parse error on "}" (RCURLY) at [1, 9]`. */
export function syntaxErrorToShopify(error: GraphQLErrorType): ShopifyError {
  const location = error.locations?.[0] ?? { line: 1, column: 1 };
  const at = `at [${location.line}, ${location.column}]`;
  const found = /found (.+)\.$/.exec(error.message)?.[1];
  let message: string;
  if (found === "<EOF>") {
    message = "Unexpected end of document";
  } else if (found) {
    message = `Parse error on ${describeToken(found)} ${at}`;
  } else {
    message = `Parse error: ${error.message.replace(/^Syntax Error: /, "")} ${at}`;
  }
  return { message, locations: [location] };
}

const TOKEN_NAMES: Record<string, string> = {
  "{": "LCURLY",
  "}": "RCURLY",
  "(": "LPAREN",
  ")": "RPAREN",
  "[": "LBRACKET",
  "]": "RBRACKET",
  ":": "COLON",
  "=": "EQUALS",
  "!": "BANG",
  $: "VAR_SIGN",
  "@": "DIR_SIGN",
  "...": "ELLIPSIS",
  "|": "PIPE",
  "&": "AMP",
};

/** graphql-js's token description (`"}"`, `Name "foo"`, `Int "3"`) in graphql-ruby's words. */
function describeToken(found: string): string {
  const named = /^(Name|String|Int|Float|BlockString) (".*")$/.exec(found);
  if (named?.[1] && named[2]) {
    const kind = named[1] === "Name" ? "IDENTIFIER" : named[1].toUpperCase();
    return `${named[2]} (${kind === "BLOCKSTRING" ? "STRING" : kind})`;
  }
  const punctuator = /^"(.*)"$/.exec(found)?.[1];
  if (punctuator !== undefined) {
    return `"${punctuator}" (${TOKEN_NAMES[punctuator] ?? "UNKNOWN_CHAR"})`;
  }
  return found;
}

interface NodeFacts {
  /** graphql-ruby's path: the operation or fragment, then field (and argument) names. */
  path: string[];
  /** For a value node: the input type expected there. */
  inputType?: GraphQLInputType | null;
  /** For a value node: the argument or input field it is the value of, and what holds it. */
  argumentName?: string;
  ownerKind?: "Field" | "InputObject" | "Directive";
  ownerName?: string;
}

/** What each node of the document is, for rewriting graphql-js's errors in Shopify's words. */
function indexDocument(schema: GraphQLSchema, document: DocumentNode): Map<ASTNode, NodeFacts> {
  const facts = new Map<ASTNode, NodeFacts>();
  const typeInfo = new TypeInfo(schema);
  const labels: string[] = [];
  const owners: { kind: NodeFacts["ownerKind"]; name: string; argument: string }[] = [];

  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      enter(node) {
        switch (node.kind) {
          case Kind.OPERATION_DEFINITION:
            labels.push(node.name ? `${node.operation} ${node.name.value}` : node.operation);
            break;
          case Kind.FRAGMENT_DEFINITION:
            labels.push(`fragment ${node.name.value}`);
            break;
          case Kind.INLINE_FRAGMENT:
            labels.push(node.typeCondition ? `... on ${node.typeCondition.name.value}` : "...");
            break;
          case Kind.VARIABLE_DEFINITION:
            labels.push(`$${node.variable.name.value}`);
            break;
          case Kind.FIELD:
            labels.push(node.alias?.value ?? node.name.value);
            break;
          case Kind.ARGUMENT: {
            labels.push(node.name.value);
            const directive = typeInfo.getDirective();
            owners.push(
              directive
                ? { kind: "Directive", name: directive.name, argument: node.name.value }
                : {
                    kind: "Field",
                    name: typeInfo.getFieldDef()?.name ?? "",
                    argument: node.name.value,
                  },
            );
            break;
          }
          case Kind.OBJECT_FIELD:
            labels.push(node.name.value);
            owners.push({
              kind: "InputObject",
              name: getNamedType(typeInfo.getParentInputType())?.name ?? "",
              argument: node.name.value,
            });
            break;
          default:
            break;
        }
        const owner = owners.at(-1);
        facts.set(node, {
          path: [...labels],
          inputType: typeInfo.getInputType(),
          argumentName: owner?.argument,
          ownerKind: owner?.kind,
          ownerName: owner?.name,
        });
      },
      leave(node) {
        switch (node.kind) {
          case Kind.ARGUMENT:
          case Kind.OBJECT_FIELD:
            owners.pop();
            labels.pop();
            break;
          case Kind.OPERATION_DEFINITION:
          case Kind.FRAGMENT_DEFINITION:
          case Kind.INLINE_FRAGMENT:
          case Kind.VARIABLE_DEFINITION:
          case Kind.FIELD:
            labels.pop();
            break;
          default:
            break;
        }
      },
    }),
  );
  return facts;
}

function locationsOf(error: GraphQLErrorType): ShopifyErrorLocation[] | undefined {
  return error.locations?.map(({ line, column }) => ({ line, column }));
}

function typeText(type: GraphQLInputType | null | undefined): string {
  return type ? String(type) : "unknown";
}

type Rewrite = (
  match: RegExpExecArray,
  facts: NodeFacts | undefined,
  error: GraphQLErrorType,
  schema: GraphQLSchema,
) => { message: string; extensions: Record<string, unknown> };

/** graphql-js's validation messages and how graphql-ruby says the same thing. */
const REWRITES: [RegExp, Rewrite][] = [
  [
    /^Cannot query field "(\w+)" on type "(\w+)"\./,
    ([, fieldName, typeName]) => ({
      message: `Field '${fieldName}' doesn't exist on type '${typeName}'`,
      extensions: { code: "undefinedField", typeName, fieldName },
    }),
  ],
  [
    /^Unknown argument "(\w+)" on field "\w+\.(\w+)"\./,
    ([, argumentName, fieldName]) => ({
      message: `Field '${fieldName}' doesn't accept argument '${argumentName}'`,
      extensions: { code: "argumentNotAccepted", name: fieldName, typeName: "Field", argumentName },
    }),
  ],
  [
    /^Unknown argument "(\w+)" on directive "@(\w+)"\./,
    ([, argumentName, directiveName]) => ({
      message: `Directive '@${directiveName}' doesn't accept argument '${argumentName}'`,
      extensions: {
        code: "argumentNotAccepted",
        name: directiveName,
        typeName: "Directive",
        argumentName,
      },
    }),
  ],
  [
    /^(Field|Directive) "@?(\w+)" argument "(\w+)" of type "[^"]+" is required, but it was not provided\./,
    ([, className, name, argumentName]) => ({
      message: `${className} '${name}' is missing required arguments: ${argumentName}`,
      extensions: { code: "missingRequiredArguments", className, name, arguments: argumentName },
    }),
  ],
  [
    /^Field "(\w+)" of type "([^"]+)" must have a selection of subfields\./,
    ([, fieldName, type]) => {
      const typeName = (type ?? "").replace(/[[\]!]/g, "");
      return {
        message: `Field must have selections (field '${fieldName}' returns ${typeName} but has no selections. Did you mean '${fieldName} { ... }'?)`,
        extensions: { code: "selectionMismatch", nodeName: `field '${fieldName}'`, typeName },
      };
    },
  ],
  [
    /^Field "(\w+)" must not have a selection since type "([^"]+)" has no subfields\./,
    ([, fieldName, type], _facts, error, schema) => {
      const typeName = (type ?? "").replace(/[[\]!]/g, "");
      const kind = isEnumType(schema.getType(typeName)) ? "enums" : "scalars";
      const node = error.nodes?.[0];
      const selectionSet =
        node?.kind === Kind.FIELD
          ? node.selectionSet
          : node?.kind === Kind.SELECTION_SET
            ? node
            : undefined;
      const selected = (selectionSet?.selections ?? []).map((selection) =>
        selection.kind === Kind.FIELD ? selection.name.value : print(selection),
      );
      return {
        message: `Selections can't be made on ${kind} (field '${fieldName}' returns ${typeName} but has selections [${selected.join(", ")}])`,
        extensions: { code: "selectionMismatch", nodeName: `field '${fieldName}'`, typeName },
      };
    },
  ],
  [
    /^Variable "\$(\w+)" is never used(?: in operation "(\w+)")?\./,
    ([, variableName, operation]) => ({
      message: `Variable $${variableName} is declared by ${operation ?? "anonymous query"} but not used`,
      extensions: { code: "variableNotUsed", variableName },
    }),
  ],
  [
    /^Variable "\$(\w+)" is not defined(?: by operation "(\w+)")?\./,
    ([, variableName, operation]) => ({
      message: `Variable $${variableName} is used by ${operation ?? "anonymous query"} but not declared`,
      extensions: { code: "variableNotDefined", variableName },
    }),
  ],
  [
    /^Variable "\$(\w+)" of type "([^"]+)" used in position expecting type "([^"]+)"\./,
    ([, variableName, variableType, expectedType], facts) => {
      const sameNamedType = variableType?.replace(/!/g, "") === expectedType?.replace(/!/g, "");
      const errorMessage = sameNamedType ? "Nullability mismatch" : "Type mismatch";
      const argumentName = facts?.argumentName ?? "unknown";
      return {
        message: `${errorMessage} on variable $${variableName} and argument ${argumentName} (${variableType} / ${expectedType})`,
        extensions: {
          code: "variableMismatch",
          variableName,
          typeName: variableType,
          argumentName,
          errorMessage,
        },
      };
    },
  ],
  [
    /^Unknown type "(\w+)"\./,
    ([, typeName], facts) => {
      const variable = /^\$(\w+)$/.exec(facts?.path.at(-1) ?? "")?.[1];
      return variable
        ? {
            message: `${typeName} isn't a defined input type (on $${variable})`,
            extensions: { code: "variableRequiresValidType", typeName, variableName: variable },
          }
        : {
            message: `No such type ${typeName}, so it can't be a fragment condition`,
            extensions: { code: "undefinedType", typeName },
          };
    },
  ],
  [
    /^Unknown directive "@(\w+)"\./,
    ([, directiveName]) => ({
      message: `Directive @${directiveName} is not defined`,
      extensions: { code: "undefinedDirective", directiveName },
    }),
  ],
  [
    /^Fragment "(\w+)" is never used\./,
    ([, fragmentName]) => ({
      message: `Fragment ${fragmentName} was defined, but not used`,
      extensions: { code: "useAndDefineFragment", fragmentName },
    }),
  ],
  [
    /^Unknown fragment "(\w+)"\./,
    ([, fragmentName]) => ({
      message: `Fragment ${fragmentName} was used, but not defined`,
      extensions: { code: "useAndDefineFragment", fragmentName },
    }),
  ],
  [
    /^Fragment (?:"(\w+)" )?cannot be spread here as objects of type "(\w+)" can never be of type "(\w+)"\./,
    ([, fragmentName, parentName, typeName]) => ({
      message: `Fragment ${fragmentName ? `${fragmentName} ` : ""}on ${typeName} can't be spread inside ${parentName}`,
      extensions: {
        code: "cannotSpreadFragment",
        typeName,
        fragmentName: fragmentName ?? "unknown",
        parentName,
      },
    }),
  ],
  [
    /^There can be only one operation named "(\w+)"\./,
    ([, operationName]) => ({
      message: `Operation name "${operationName}" must be unique`,
      extensions: { code: "operationNotUnique", operationName },
    }),
  ],
  [
    /^Field "(\w+)" is not defined by type "(\w+)"\./,
    ([, fieldName, typeName]) => ({
      message: `InputObject '${typeName}' doesn't accept argument '${fieldName}'`,
      extensions: {
        code: "argumentNotAccepted",
        name: typeName,
        typeName: "InputObject",
        argumentName: fieldName,
      },
    }),
  ],
  [
    /^Field "(\w+)\.(\w+)" of required type "([^"]+)" was not provided\./,
    ([, typeName, fieldName, type]) => ({
      message: `Argument '${fieldName}' on InputObject '${typeName}' is required. Expected type ${type}`,
      extensions: {
        code: "missingRequiredInputObjectAttribute",
        argumentName: fieldName,
        argumentType: type,
        inputObjectType: typeName,
      },
    }),
  ],
];

/** A literal of the wrong type (ValuesOfCorrectTypeRule's other messages). */
function invalidLiteral(
  facts: NodeFacts | undefined,
  node: ASTNode | undefined,
): { message: string; extensions: Record<string, unknown> } {
  const argumentName = facts?.argumentName ?? "unknown";
  const owner = `${facts?.ownerKind ?? "Field"} '${facts?.ownerName ?? "unknown"}'`;
  const value = node ? print(node) : "null";
  return {
    message: `Argument '${argumentName}' on ${owner} has an invalid value (${value}). Expected type '${typeText(facts?.inputType)}'.`,
    extensions: {
      code: "argumentLiteralsIncompatible",
      typeName: facts?.ownerKind === "InputObject" ? "InputObject" : "Field",
      argumentName,
    },
  };
}

const VALUE_KINDS = new Set<string>([
  Kind.INT,
  Kind.FLOAT,
  Kind.STRING,
  Kind.BOOLEAN,
  Kind.NULL,
  Kind.ENUM,
  Kind.LIST,
  Kind.OBJECT,
]);

/** graphql-js's validation errors as Shopify answers them. */
export function validationErrorsToShopify(
  schema: GraphQLSchema,
  document: DocumentNode,
  errors: readonly GraphQLErrorType[],
): ShopifyError[] {
  const facts = indexDocument(schema, document);
  return errors.map((error) => {
    const node = error.nodes?.[error.nodes.length - 1];
    const nodeFacts = node ? facts.get(node) : undefined;
    let rewritten: { message: string; extensions: Record<string, unknown> } | undefined;
    for (const [pattern, rewrite] of REWRITES) {
      const match = pattern.exec(error.message);
      if (match) {
        rewritten = rewrite(match, nodeFacts, error, schema);
        break;
      }
    }
    if (!rewritten && node && VALUE_KINDS.has(node.kind)) {
      rewritten = invalidLiteral(nodeFacts, node);
    }
    return {
      message: rewritten?.message ?? error.message,
      locations: locationsOf(error),
      ...(nodeFacts ? { path: nodeFacts.path } : {}),
      extensions: rewritten?.extensions ?? { code: "GRAPHQL_VALIDATION_FAILED" },
    };
  });
}

interface VariableProblem {
  path: (string | number)[];
  explanation: string;
}

/** graphql-js's coercion messages in graphql-ruby's words. */
function explanationOf(message: string, value: unknown): { explanation: string; field?: string } {
  const missingField = /^Field "(\w+)" of required type "[^"]+" was not provided\./.exec(message);
  if (missingField) return { explanation: "Expected value to not be null", field: missingField[1] };
  const extraField = /^Field "(\w+)" is not defined by type "(\w+)"\./.exec(message);
  if (extraField)
    return { explanation: `Field is not defined on ${extraField[2]}`, field: extraField[1] };
  if (/^Expected non-nullable type/.test(message)) {
    return { explanation: "Expected value to not be null" };
  }
  if (/^Expected type "\w+" to be an object\./.test(message)) {
    return { explanation: `Expected ${JSON.stringify(value)} to be a key-value object.` };
  }
  const builtIn = /^(Int|Float|String|Boolean|ID) cannot represent/.exec(message);
  if (builtIn)
    return { explanation: `Could not coerce value ${JSON.stringify(value)} to ${builtIn[1]}` };
  const enumValue = /^Value (".*") does not exist in "(\w+)" enum\./.exec(message);
  if (enumValue)
    return { explanation: `Expected ${enumValue[1]} to be one of the values of ${enumValue[2]}` };
  const notEnum = /^Enum "(\w+)" cannot represent non-string value/.exec(message);
  if (notEnum)
    return {
      explanation: `Expected ${JSON.stringify(value)} to be one of the values of ${notEnum[1]}`,
    };
  return { explanation: message };
}

/**
 * Coerces the variables as graphql-ruby does before running anything: a wrong or missing
 * variable is answered as `Variable $x of type T was provided invalid value`, with the
 * value and each problem's path in `extensions`.
 */
export function variableErrorsOf(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  inputs: Record<string, unknown>,
): ShopifyError[] {
  const errors: ShopifyError[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) continue;
    const provided = Object.hasOwn(inputs, name);
    const value = provided ? inputs[name] : undefined;
    const problems: VariableProblem[] = [];
    if ((!provided && !definition.defaultValue) || value === null) {
      if (isNonNullType(type)) {
        problems.push({ path: [], explanation: "Expected value to not be null" });
      }
    } else if (provided) {
      coerceInputValue(value, type, (path, invalidValue, error) => {
        const { explanation, field } = explanationOf(error.message, invalidValue);
        problems.push({ path: field ? [...path, field] : [...path], explanation });
      });
    }
    if (problems.length === 0) continue;
    const details = problems
      .filter((problem) => problem.path.length > 0)
      .map((problem) => `${problem.path.join(".")} (${problem.explanation})`);
    const loc = definition.loc?.startToken;
    errors.push({
      message: `Variable $${name} of type ${print(definition.type)} was provided invalid value${
        details.length > 0 ? ` for ${details.join(", ")}` : ""
      }`,
      locations: loc ? [{ line: loc.line, column: loc.column }] : undefined,
      extensions: { value: value ?? null, problems },
    });
  }
  return errors;
}
