import type { ServiceResult } from "../protection/results";

// Pure delivery rules: what a service answer means for an outbox event, and when to try again.

export const FIRST_RETRY_DELAY_MS = 1_000;
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1_000;
/** An event keeps being retried for this long after its first failure; then it is dead. */
export const RETRY_WINDOW_MS = 72 * 60 * 60 * 1_000;

/**
 * Exponential backoff with jitter: attempt 1 waits about 1 s, doubling up to 1 h. The delay
 * is drawn from [half, full] of the step so that many failing events spread out without
 * ever retrying sooner than half the step.
 */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(failedAttempts - 1, 32));
  const step = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** exponent);
  return Math.round(step / 2 + (step / 2) * random());
}

export type DeliveryDecision =
  | { outcome: "delivered"; serviceEventId: string | null }
  | { outcome: "retry"; nextAttemptAt: Date; error: string }
  | { outcome: "dead"; error: string }
  | { outcome: "pause_shop"; error: string };

export interface FailureContext {
  /** Failed attempts so far, including this one. */
  failedAttempts: number;
  /** When the event first failed; the retry window counts from here. */
  firstFailedAt: Date;
  now: Date;
  random?: () => number;
}

/** When to try again after a retryable failure, or dead once the retry window is over. */
export function scheduleRetry(
  context: FailureContext,
  error: string,
  retryAfterMs?: number,
): DeliveryDecision {
  const { now, firstFailedAt } = context;
  if (now.getTime() - firstFailedAt.getTime() >= RETRY_WINDOW_MS) {
    return { outcome: "dead", error: `Gave up after 72 hours of retries: ${error}` };
  }
  const delay = Math.max(retryDelayMs(context.failedAttempts, context.random), retryAfterMs ?? 0);
  return { outcome: "retry", nextAttemptAt: new Date(now.getTime() + delay), error };
}

/**
 * What the service's answer to an order event means:
 * - 2xx: delivered, with or without an `event_id` (the service has it: never sent again);
 * - 400: dead at once (sending the same body again cannot pass validation);
 * - 401: the key was rejected, so the whole shop pauses until the key changes;
 * - 404: the service does not know the order yet (we only send after order_placed was
 *   accepted, so this is the service catching up): retried;
 * - other 4xx: dead; 5xx, 429, time-outs and network errors: retried with backoff.
 */
export function decideDelivery(
  result: ServiceResult<{ event_id: string | null }>,
  describe: string,
  context: FailureContext,
): DeliveryDecision {
  switch (result.kind) {
    case "success":
      return { outcome: "delivered", serviceEventId: result.data.event_id };
    case "validation_error":
    case "rejected":
      return { outcome: "dead", error: describe };
    case "unauthorized":
      return { outcome: "pause_shop", error: describe };
    case "not_found":
      return scheduleRetry(context, describe);
    case "retryable":
      return scheduleRetry(context, describe, result.retryAfterMs);
  }
}
