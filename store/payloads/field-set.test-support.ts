// The field-set walker: the shape of Shopify's sample payloads (which keys each object has, what
// each array holds), and the fields a body of ours is missing or has in excess beside it. Paths
// are written without indices (".line_items[].properties[]") so that the allow-lists can name them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { shopifyFixturesDir } from "../../test/support/test-env";

/** What the samples hold at one path: every kind seen there, merged over array elements. */
export interface Shape {
  object: Map<string, Shape> | null;
  /** `element` null: the samples' arrays here are all empty. */
  array: { element: Shape | null } | null;
  scalar: boolean;
  null: boolean;
}

const emptyShape = (): Shape => ({ object: null, array: null, scalar: false, null: false });

function mergeInto(shape: Shape, value: unknown): Shape {
  if (value === null) {
    shape.null = true;
  } else if (Array.isArray(value)) {
    shape.array ??= { element: null };
    for (const element of value) {
      shape.array.element = mergeInto(shape.array.element ?? emptyShape(), element);
    }
  } else if (typeof value === "object") {
    shape.object ??= new Map();
    for (const [key, field] of Object.entries(value)) {
      shape.object.set(key, mergeInto(shape.object.get(key) ?? emptyShape(), field));
    }
  } else {
    shape.scalar = true;
  }
  return shape;
}

/** The shape of one or more sample values (arrays' elements merged into one union). */
export function shapeOf(...samples: unknown[]): Shape {
  return samples.reduce<Shape>((shape, sample) => mergeInto(shape, sample), emptyShape());
}

export function readSample(topicDir: string, file: string): unknown {
  return JSON.parse(readFileSync(path.join(shopifyFixturesDir, topicDir, file), "utf8"));
}

/** The value at a dotted path of a sample, taking arrays' first element at "[]" ("line_items[].properties[]"). */
export function sampleAt(sample: unknown, dottedPath: string): unknown {
  let value = sample;
  for (const segment of dottedPath.split(".")) {
    const isArray = segment.endsWith("[]");
    const key = isArray ? segment.slice(0, -2) : segment;
    value = (value as Record<string, unknown>)[key];
    if (isArray) value = (value as unknown[])[0];
    if (value === undefined) throw new Error(`sample has nothing at ${dottedPath}`);
  }
  return value;
}

export interface WalkRules {
  /** Paths where Shopify writes either an object or null (a customer, an address). */
  nullableObjects: ReadonlySet<string>;
  /** Arrays empty in the sample: the shape our elements must have there ("path[]" → shape). */
  elementsOfEmptyArrays: ReadonlyMap<string, Shape>;
}

const kindOf = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "object"
        ? "object"
        : "scalar";

function sampleKinds(shape: Shape): string {
  const kinds = [
    shape.object && "object",
    shape.array && "array",
    shape.scalar && "scalar",
    shape.null && "null",
  ].filter(Boolean);
  return kinds.join("|");
}

/**
 * What differs between our value and the samples' shape, as sorted, de-duplicated lines:
 * "missing .path", "extra .path", or a kind mismatch. Empty when the field sets are the same.
 */
export function fieldSetDifferences(ours: unknown, shape: Shape, rules: WalkRules): string[] {
  const problems = new Set<string>();
  walk(ours, shape, "", rules, problems);
  return [...problems].sort();
}

function walk(ours: unknown, shape: Shape, at: string, rules: WalkRules, problems: Set<string>) {
  const kind = kindOf(ours);
  const where = at === "" ? "(root)" : at;
  if (kind === "null") {
    const onlyStructured = !shape.null && !shape.scalar;
    if (onlyStructured && !(shape.object && rules.nullableObjects.has(at))) {
      problems.add(`null at ${where} where the sample has ${sampleKinds(shape)}`);
    }
    return;
  }
  if (kind === "scalar") {
    if (!shape.scalar && !shape.null) {
      problems.add(`scalar at ${where} where the sample has ${sampleKinds(shape)}`);
    }
    return;
  }
  if (kind === "object") {
    if (!shape.object) {
      if (!(shape.null && rules.nullableObjects.has(at))) {
        problems.add(`object at ${where} where the sample has ${sampleKinds(shape)}`);
      }
      return;
    }
    const fields = ours as Record<string, unknown>;
    for (const key of shape.object.keys()) {
      if (!Object.hasOwn(fields, key)) problems.add(`missing ${at}.${key}`);
    }
    for (const [key, value] of Object.entries(fields)) {
      const fieldShape = shape.object.get(key);
      if (fieldShape === undefined) problems.add(`extra ${at}.${key}`);
      else walk(value, fieldShape, `${at}.${key}`, rules, problems);
    }
    return;
  }
  const elements = ours as unknown[];
  if (!shape.array) {
    problems.add(`array at ${where} where the sample has ${sampleKinds(shape)}`);
    return;
  }
  const elementPath = `${at}[]`;
  const elementShape = shape.array.element ?? rules.elementsOfEmptyArrays.get(elementPath) ?? null;
  if (elementShape === null) {
    if (elements.length > 0) {
      problems.add(
        `elements at ${elementPath} where the sample's array is empty and no rule says their shape`,
      );
    }
    return;
  }
  for (const element of elements) walk(element, elementShape, elementPath, rules, problems);
}

/** A copy of a shape without some top-level fields. */
export function withoutFields(shape: Shape, ...keys: string[]): Shape {
  const object = new Map(shape.object ?? []);
  for (const key of keys) object.delete(key);
  return { ...shape, object };
}
