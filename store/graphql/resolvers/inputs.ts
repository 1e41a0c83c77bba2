import { type GraphQLResolveInfo, isInputObjectType } from "../graphql-js";
import { canonicalJson } from "../idempotency";
import { StoreUserError } from "../../model";
import type { View } from "../context";
import { notEmulatedInput } from "../errors";
import { userErrorView } from "../views/common";

/**
 * Refuses the input fields the store does not emulate, when they are given: a mutation that
 * silently dropped them would answer success for a change it never made. A field left at its
 * schema default (`allowOverRefunding: false`) was not asked for.
 */
export function refuseUnsupported(
  info: GraphQLResolveInfo,
  typeName: string,
  input: object,
  supported: readonly string[],
): void {
  const type = info.schema.getType(typeName);
  const fields = isInputObjectType(type) ? type.getFields() : {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined || supported.includes(key)) continue;
    const defaultValue = fields[key]?.defaultValue;
    if (defaultValue !== undefined && canonicalJson(defaultValue) === canonicalJson(value))
      continue;
    throw notEmulatedInput(`${typeName}.${key}`);
  }
}

/** Runs a change; a `StoreUserError` becomes the payload's `userErrors`, anything else throws. */
export function userErrorsOf(
  typeName: string,
  info: GraphQLResolveInfo,
  change: () => View,
  onError: (userErrors: View[]) => View,
): View {
  try {
    return change();
  } catch (error) {
    if (error instanceof StoreUserError) return onError([userErrorView(typeName, error, info)]);
    throw error;
  }
}

/** A refusal found by the resolver itself, before the store is asked. */
export function refused(message: string, field: string[] | null, code: string | null = null) {
  return new StoreUserError(message, field, code);
}
