import { GraphQLError } from "./graphql-js";
import type { Id } from "../model";

/** A Shopify global ID, `gid://shopify/<Type>/<id>`, as the Admin API writes every `ID`. */
export function toGid(type: string, id: Id): string {
  return `gid://shopify/${type}/${id}`;
}

export interface ParsedGid {
  type: string;
  id: Id;
}

const GID = /^gid:\/\/shopify\/([A-Za-z]+)\/([0-9]+)(?:\?.*)?$/;

/** The type and numeric ID of a global ID, or an error as Shopify answers a malformed one. */
export function parseGid(value: string): ParsedGid {
  const match = GID.exec(value);
  if (!match?.[1] || !match[2]) {
    throw new GraphQLError(`Invalid global id '${value}'`, {
      extensions: { code: "argumentLiteralsIncompatible", typeName: "CoercionError" },
    });
  }
  return { type: match[1], id: match[2] };
}

/** The numeric ID of a global ID of `type`, or null when it names another type. */
export function idOfType(value: string, type: string): Id | null {
  const parsed = parseGid(value);
  return parsed.type === type ? parsed.id : null;
}
