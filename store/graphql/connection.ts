import { GraphQLError } from "./graphql-js";
import { notEmulatedInput } from "./errors";

/*
 * Relay connections as Shopify pages them: `first`/`after` forward, `last`/`before` backward,
 * at most 250 nodes, opaque cursors that hold the sort value and the ID of the last node. A
 * cursor points into the sort order, not at an index, so a page after it stays right when
 * nodes change between requests (an order updated while a reconciliation pages by
 * `updated_at` moves to the end, as on Shopify).
 */

export const MAX_PAGE_SIZE = 250;

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

export interface ConnectionView<V> {
  __typename: string;
  edges: { __typename: string; cursor: string; node: V }[];
  nodes: V[];
  pageInfo: {
    __typename: "PageInfo";
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

type SortValue = string | number;

interface SortKey<T> {
  value: (item: T) => SortValue;
  id: (item: T) => string;
}

interface Cursor {
  last_id: string;
  last_value: SortValue;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<Cursor>;
    if (
      typeof parsed.last_id === "string" &&
      (typeof parsed.last_value === "string" || typeof parsed.last_value === "number")
    ) {
      return { last_id: parsed.last_id, last_value: parsed.last_value };
    }
  } catch {
    // answered below
  }
  throw new GraphQLError(`Invalid cursor '${text}'`, { extensions: { code: "BAD_REQUEST" } });
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [left, right] = [String(a), String(b)];
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Numeric IDs as decimal strings, compared by value (they pass 2^53). */
function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function pageSize(args: PageArgs): { count: number; fromEnd: boolean } {
  const { first, last } = args;
  if (first == null && last == null) {
    throw new GraphQLError("you must provide one of first or last", {
      extensions: { code: "BAD_REQUEST" },
    });
  }
  const count = first ?? last ?? 0;
  if (count < 0 || count > MAX_PAGE_SIZE) {
    throw new GraphQLError(
      `The ${first != null ? "first" : "last"} argument must be between 0 and ${MAX_PAGE_SIZE}`,
      { extensions: { code: "BAD_REQUEST" } },
    );
  }
  return { count, fromEnd: first == null };
}

/** One page of `items` in the sort order, as a connection of `view(item)`. */
export function connectionOf<T, V>(
  typeName: string,
  items: readonly T[],
  args: PageArgs,
  sortKey: SortKey<T>,
  view: (item: T) => V,
): ConnectionView<V> {
  const { count, fromEnd } = pageSize(args);
  const direction = args.reverse ? -1 : 1;
  const compare = (a: { value: SortValue; id: string }, b: { value: SortValue; id: string }) =>
    direction * (compareValues(a.value, b.value) || compareIds(a.id, b.id));
  const keyed = items
    .map((item) => ({ item, value: sortKey.value(item), id: sortKey.id(item) }))
    .sort(compare);

  const after = args.after ? decodeCursor(args.after) : null;
  const before = args.before ? decodeCursor(args.before) : null;
  const inRange = keyed.filter(
    (entry) =>
      (!after || compare(entry, { value: after.last_value, id: after.last_id }) > 0) &&
      (!before || compare(entry, { value: before.last_value, id: before.last_id }) < 0),
  );
  const page = fromEnd
    ? inRange.slice(Math.max(0, inRange.length - count))
    : inRange.slice(0, count);

  const edges = page.map((entry) => ({
    __typename: `${typeName.replace(/Connection$/, "")}Edge`,
    cursor: encodeCursor({ last_id: entry.id, last_value: entry.value }),
    node: view(entry.item),
  }));
  const firstEntry = page[0];
  const lastEntry = page.at(-1);
  return {
    __typename: typeName,
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      __typename: "PageInfo",
      hasNextPage: lastEntry ? compare(keyed.at(-1) ?? lastEntry, lastEntry) > 0 : false,
      hasPreviousPage: firstEntry ? compare(keyed[0] ?? firstEntry, firstEntry) < 0 : false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** The first `first` items of a plain list field (`refunds(first:)`, `fulfillments(first:)`). */
export function firstOf<T>(items: readonly T[], first: number | null | undefined): T[] {
  return first == null ? [...items] : items.slice(0, Math.max(0, first));
}

export type SearchOperator = ":" | ">" | ">=" | "<" | "<=";

export interface SearchTerm {
  field: string | null;
  operator: SearchOperator;
  value: string;
  negated: boolean;
}

const TERM = /^(-)?(?:(\w+):(>=|<=|>|<)?)?(?:'([^']*)'|"([^"]*)"|(\S+))/;

/**
 * Shopify's search syntax, the part the store emulates: `field:value`, `field:>value` (and
 * `>=`, `<`, `<=`), quoted values, `-` to negate, terms joined by spaces or AND. OR and
 * parentheses are refused as not emulated rather than read wrongly.
 */
export function parseSearchQuery(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let rest = query.trim();
  while (rest.length > 0) {
    if (/^AND\b/.test(rest)) {
      rest = rest.slice(3).trimStart();
      continue;
    }
    if (/^(OR\b|\(|\))/.test(rest)) {
      throw notEmulatedInput(`The search syntax of ${JSON.stringify(query)} (OR, parentheses)`);
    }
    const match = TERM.exec(rest);
    if (!match) throw notEmulatedInput(`The search query ${JSON.stringify(query)}`);
    terms.push({
      negated: match[1] === "-",
      field: match[2] ?? null,
      operator: (match[3] as SearchOperator | undefined) ?? ":",
      value: match[4] ?? match[5] ?? match[6] ?? "",
    });
    rest = rest.slice(match[0].length).trimStart();
  }
  return terms;
}

/** A time term (`updated_at:>'2026-01-01T00:00:00Z'`) as a test of an ISO time. */
export function timeMatcher(term: SearchTerm): (time: string) => boolean {
  const bound = Date.parse(term.value);
  if (Number.isNaN(bound)) {
    throw new GraphQLError(`Invalid date in the search term ${term.field}:${term.value}`, {
      extensions: { code: "BAD_REQUEST" },
    });
  }
  const compare: Record<SearchOperator, (at: number) => boolean> = {
    ">": (at) => at > bound,
    ">=": (at) => at >= bound,
    "<": (at) => at < bound,
    "<=": (at) => at <= bound,
    ":": (at) => at === bound,
  };
  const test = compare[term.operator];
  return (time) => test(Date.parse(time)) !== term.negated;
}

/** A text term as a test of values: case-insensitive equality, or a prefix with a trailing `*`. */
export function textMatcher(term: SearchTerm): (values: readonly string[]) => boolean {
  const wanted = term.value.toLowerCase();
  const matches = wanted.endsWith("*")
    ? (text: string) => text.toLowerCase().startsWith(wanted.slice(0, -1))
    : (text: string) => text.toLowerCase() === wanted;
  return (values) => values.some(matches) !== term.negated;
}
