import { type GraphQLResolveInfo, GraphQLError, getDirectiveValues } from "./graphql-js";
import type { AdminContext } from "./context";

/*
 * The `@idempotent(key:)` directive. graphql-js accepts it on any field and never acts on it, so
 * the mutations read it from their field node. From 2026-04 `refundCreate` requires a key: the
 * same key with the same arguments answers the first result again without acting, and the same
 * key with other arguments is refused. Keys are kept per shop for the life of the process.
 * The wording of the errors Shopify does not publish is ours (decision 020).
 */

const DOCUMENTATION = "https://shopify.dev/docs/api/usage/idempotent-requests";

interface Remembered {
  fingerprint: string;
  result: unknown;
}

export class IdempotencyKeys {
  private readonly entries = new Map<string, Remembered>();

  find(shop: string, key: string): Remembered | undefined {
    return this.entries.get(`${shop}\n${key}`);
  }

  remember(shop: string, key: string, fingerprint: string, result: unknown): void {
    this.entries.set(`${shop}\n${key}`, { fingerprint, result });
  }
}

/** The key of the field's `@idempotent` directive, or undefined when it has none. */
export function idempotencyKeyOf(info: GraphQLResolveInfo): string | undefined {
  const directive = info.schema.getDirective("idempotent");
  const node = info.fieldNodes[0];
  if (!directive || !node) return undefined;
  const values = getDirectiveValues(directive, node, info.variableValues);
  return typeof values?.key === "string" ? values.key : undefined;
}

/** JSON with object keys sorted, so equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

type MutationResolver = (
  parent: unknown,
  args: Record<string, unknown>,
  context: AdminContext,
  info: GraphQLResolveInfo,
) => unknown;

/** A mutation that requires `@idempotent(key:)`, as `refundCreate` does from 2026-04. */
export function idempotentMutation(resolve: MutationResolver): MutationResolver {
  return (parent, args, context, info) => {
    const key = idempotencyKeyOf(info);
    if (key === undefined || key.trim() === "") {
      throw new GraphQLError(
        key === undefined
          ? `The ${info.fieldName} mutation requires an idempotency key: add @idempotent(key: "<unique key>") to the field.`
          : "The idempotency key cannot be an empty string or whitespace only.",
        { extensions: { code: "IDEMPOTENCY_KEY_REQUIRED", documentation: DOCUMENTATION } },
      );
    }
    const fingerprint = canonicalJson({ mutation: info.fieldName, arguments: args });
    const previous = context.idempotency.find(context.shop.domain, key);
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        throw new GraphQLError(
          "The same idempotency key cannot be used with different operation parameters.",
          {
            extensions: {
              code: "IDEMPOTENCY_KEY_PARAMETER_MISMATCH",
              documentation: DOCUMENTATION,
            },
          },
        );
      }
      return previous.result;
    }
    const result = resolve(parent, args, context, info);
    context.idempotency.remember(context.shop.domain, key, fingerprint, result);
    return result;
  };
}

/** A mutation that does not support the directive refuses it rather than ignore it. */
export function withoutIdempotency(resolve: MutationResolver): MutationResolver {
  return (parent, args, context, info) => {
    if (idempotencyKeyOf(info) !== undefined) {
      throw new GraphQLError(
        `The @idempotent directive is not supported on the ${info.fieldName} mutation.`,
        { extensions: { code: "BAD_REQUEST", documentation: DOCUMENTATION } },
      );
    }
    return resolve(parent, args, context, info);
  };
}

export type { MutationResolver };
