import { describe, expect, it } from "vitest";
import { type PageDirection, keysetPage } from "./keyset-page";

// Pages of 2; rows as the query fetched them (3 means one more lies that way).
describe("keysetPage", () => {
  it.each<[string, number[], PageDirection | undefined, number[], boolean, boolean]>([
    ["first page, more below", [9, 8, 7], undefined, [9, 8], true, false],
    ["first page, all of it", [9, 8], undefined, [9, 8], false, false],
    ["older, more below", [6, 5, 4], "older", [6, 5], true, true],
    ["older, the last page", [2], "older", [2], false, true],
    ["newer, more above", [4, 5, 6], "newer", [5, 4], true, true],
    ["newer, the top", [4, 5], "newer", [5, 4], true, false],
    ["newer, nothing", [], "newer", [], false, false],
  ])("%s", (_name, rows, direction, items, hasOlder, hasNewer) => {
    const cursor = direction ? { direction } : undefined;
    expect(keysetPage(rows, 2, cursor)).toEqual({ items, hasOlder, hasNewer });
  });
});
