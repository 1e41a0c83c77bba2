/**
 * The spec's strategies for protection items (obligation 2). "Combination" is not a value of its
 * own: a shop that has items of several strategies combines them.
 */
export const STRATEGIES = ["one_to_one", "one_to_many", "one_to_all"] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** The strategies a merchant can give products it already sells (the app creates one_to_many). */
export const MAPPING_STRATEGIES = ["one_to_one", "one_to_all"] as const;
export type MappingStrategy = (typeof MAPPING_STRATEGIES)[number];

export function isStrategy(value: string): value is Strategy {
  return (STRATEGIES as readonly string[]).includes(value);
}
