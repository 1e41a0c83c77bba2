import { z } from "zod";
import prisma from "../db.server";
import { logger } from "../logger.server";
import {
  findOutboxEventForShop,
  retryDeadEvents,
  retryOutboxEvent,
} from "../models/OutboxEvent.server";
import { requestActionRun } from "../models/ShopifyAction.server";
import { notifyOutbox } from "../outbox/signal.server";
import { eventIdSchema } from "./event-filters";
import type { EventLogActionResult } from "./event-log";

// The event log's two writes, for the list (app.events) and the detail (app.events.$id).

const actionForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("retry"), id: eventIdSchema }),
  z.object({ intent: z.literal("retry_dead") }),
  z.object({ intent: z.literal("run_action"), actionId: eventIdSchema }),
]);

export type EventLogAction = z.infer<typeof actionForm>;

/** The posted form, or a thrown 400: only the event log's own forms post here. */
export function parseEventLogAction(form: FormData): EventLogAction {
  const parsed = actionForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    throw new Response("Unknown event log action", { status: 400 });
  }
  return parsed.data;
}

/**
 * Sends one of the shop's events again (dead, failed or unprocessable → pending now), through
 * the same model function as `npm run svc -- events:retry`. Another shop's event is a 404 and
 * nothing changes.
 */
export async function retryEventOfShop(shop: string, id: number): Promise<EventLogActionResult> {
  const result = await retryOutboxEvent(prisma, id, shop);
  if (result.status === "not_found") throw new Response("Event not found", { status: 404 });
  if (result.status === "not_retryable") {
    return { intent: "retry", outcome: "not_retryable", id, status: result.current };
  }
  logger.info({ shop, eventId: id, from: result.event.status }, "Event retried from the admin");
  notifyOutbox();
  // A worker in this process may already have claimed it: show what it is now.
  const now = await findOutboxEventForShop(prisma, shop, id);
  return { intent: "retry", outcome: "retried", id, status: now?.status ?? "pending" };
}

export async function retryDeadEventsOfShop(shop: string): Promise<EventLogActionResult> {
  const count = await retryDeadEvents(prisma, shop);
  logger.info({ shop, count }, "Dead events retried from the admin");
  if (count > 0) notifyOutbox();
  return { intent: "retry_dead", outcome: "retried", count };
}

/**
 * Runs one of the app's actions on an order at the merchant's request ("Run now" on a skipped
 * action, "Retry" on a dead one). Another shop's action is a 404 and nothing changes; an action
 * already pending, running or done is left as it is and the answer says so.
 */
export async function requestActionRunOfShop(
  shop: string,
  actionId: number,
): Promise<EventLogActionResult> {
  const result = await requestActionRun(prisma, shop, actionId);
  if (result.status === "not_found") throw new Response("Action not found", { status: 404 });
  if (result.status === "not_runnable") {
    return { intent: "run_action", outcome: "not_runnable", id: actionId, status: result.current };
  }
  logger.info({ shop, actionId, from: result.from }, "Action run at the merchant's request");
  // The outbox's signal wakes the action worker of this process too.
  notifyOutbox();
  return { intent: "run_action", outcome: "requested", id: actionId, status: "pending" };
}
