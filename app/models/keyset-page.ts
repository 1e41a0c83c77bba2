/** Which way a keyset page moves from its cursor: older goes down the newest-first list. */
export type PageDirection = "older" | "newer";

/**
 * Cuts one newest-first page out of `rows`, which were fetched with `take: pageSize + 1` in the
 * cursor's direction: the extra row only says whether there is more that way. Rows fetched
 * towards newer ones come oldest first and are turned around.
 */
export function keysetPage<T>(
  rows: T[],
  pageSize: number,
  cursor: { direction: PageDirection } | undefined,
) {
  const newer = cursor?.direction === "newer";
  const more = rows.length > pageSize;
  const items = rows.slice(0, pageSize);
  if (newer) items.reverse();
  return {
    items,
    hasOlder: newer ? items.length > 0 : more,
    hasNewer: newer ? more : cursor !== undefined,
  };
}
