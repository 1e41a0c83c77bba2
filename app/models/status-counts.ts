/** The `groupBy` arguments that count one shop's rows per status. */
export function statusGroupsOf(shop: string) {
  return { by: ["status"] as ["status"], where: { shop }, _count: { _all: true as const } };
}

/** The groups of `statusGroupsOf` as a count per status; a status with no rows is left out. */
export function countsByStatus<Status extends string>(
  groups: readonly { status: string; _count: { _all: number } }[],
): Partial<Record<Status, number>> {
  return Object.fromEntries(groups.map((group) => [group.status, group._count._all])) as Partial<
    Record<Status, number>
  >;
}
