/** The shape of a translation: the same keys as the English strings, any string values. */
export type Translation<T> = {
  [K in keyof T]: T[K] extends string ? string : Translation<T[K]>;
};
