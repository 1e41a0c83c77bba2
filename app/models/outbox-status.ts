/*
 * The statuses an OutboxEvent row holds. Pure, so that the outbox's delivery rules, the admin's
 * filters (in the browser too) and the CLI read them without importing the database layer.
 */

export const OUTBOX_STATUSES = [
  "pending",
  "delivering",
  "delivered",
  "failed",
  "dead",
  "unprocessable",
] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** Statuses of events that wait for a worker: due now or later, none claimed. */
export const WAITING_STATUSES = ["pending", "failed"] as const satisfies OutboxStatus[];

/** Statuses that still lead to a delivery. */
export const OPEN_STATUSES = [...WAITING_STATUSES, "delivering"] as const satisfies OutboxStatus[];
