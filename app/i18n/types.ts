/** The shape of a translation: the same keys as the English strings, any string values. */
export type Translation<T> = {
  [K in keyof T]: T[K] extends string ? string : Translation<T[K]>;
};

/** Every dotted path to a string in T, e.g. "home.checklist.title". */
export type MessagePath<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K}`
    : MessagePath<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The value at a dotted path of T (never when the path does not exist). */
export type MessageAt<T, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? MessageAt<T[Head], Rest>
    : never
  : Path extends keyof T
    ? T[Path]
    : never;

/** The {name} placeholders of a string literal type: "{count} of {total}" gives "count" | "total". */
export type Placeholders<S> = S extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;
