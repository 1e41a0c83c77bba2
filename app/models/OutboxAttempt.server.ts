import type { AppPrismaClient } from "../db/client.server";

/** What the event log shows of a send: everything but the row's own ID and the shop. */
const ATTEMPT_FIELDS = {
  attempt: true,
  environment: true,
  workerId: true,
  idempotencyKey: true,
  startedAt: true,
  finishedAt: true,
  outcome: true,
  httpStatus: true,
  detail: true,
} as const;

/** How many of an event's sends the event page shows. */
const ATTEMPTS_SHOWN = 100;

/**
 * The logged sends of one of the shop's events, oldest first. An event retried for days has
 * more than ATTEMPTS_SHOWN: the latest ones are returned, as they explain where the event is
 * now. Another shop's event ID gives none.
 */
export async function listEventAttempts(db: AppPrismaClient, shop: string, eventId: number) {
  const latest = await db.outboxAttempt.findMany({
    where: { shop, eventId },
    orderBy: [{ attempt: "desc" }, { id: "desc" }],
    take: ATTEMPTS_SHOWN,
    select: ATTEMPT_FIELDS,
  });
  return latest.reverse();
}

/** How many sends of the event were logged, beyond the page `listEventAttempts` returns. */
export function countEventAttempts(db: AppPrismaClient, shop: string, eventId: number) {
  return db.outboxAttempt.count({ where: { shop, eventId } });
}
