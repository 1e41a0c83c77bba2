import type { AdminGraphql } from "../services/admin-api.server";
import type { ShopifyAnswer } from "./shopify-calls.server";

/*
 * What every kind of queued Shopify action shares (decision 022): the row it runs from, the
 * context the worker gives it, and the outcomes the worker records.
 */

/** The fields of a queued action that its kind reads. */
export interface ActionRow {
  shop: string;
  orderId: string;
  kind: string;
  triggerId: string;
  /** The plan line to act on, or "" for every plan line of the order. */
  planLineId: string;
  /** JSON: what the trigger changed (refunded lines, edited lines, fulfilled lines). */
  triggerLines: string;
  /** "merchant" when the merchant asked for this run from the admin. */
  requestedBy: string | null;
  /** The mutation a run recorded before sending it (JSON): where a run after a crash resumes. */
  request?: string | null;
}

/** What an action made in Shopify, recorded on its row. */
export interface ActionResult {
  refundId?: string;
  fulfillmentId?: string;
  quantity?: number;
  amount?: string | null;
  currency?: string | null;
}

export type ActionOutcome =
  | { kind: "done"; detail: string; result?: ActionResult }
  /** A row recorded before the plan lines were known: these are the ones to queue. */
  | { kind: "plan_lines_found"; planLineIds: string[] }
  /** Nothing done on its own: the merchant decides, from the admin (a button runs it). */
  | { kind: "flagged"; detail: string }
  | { kind: "retry"; detail: string }
  | { kind: "throttled"; detail: string; retryAfterMs: number }
  | { kind: "dead"; detail: string }
  /**
   * Shopify refused a mutation with user errors. The order may have changed between the run's
   * read and the mutation (the merchant cancelled it meanwhile), so the worker runs the action
   * once more from a fresh read; a second refusal is dead.
   */
  | { kind: "refused"; detail: string }
  /** Another worker took the row before the mutation was sent: this one did nothing. */
  | { kind: "lost_claim" };

/** An outcome the worker records: a refusal is settled first. */
export type SettledOutcome = Exclude<ActionOutcome, { kind: "refused" }>;

/**
 * Runs an action; when Shopify refuses one of its mutations, runs it once more, so that it reads
 * the order again and decides afresh (a cancelled order ends the action as done). A second
 * refusal is dead: the order did not change, and Shopify will refuse the action again.
 */
export async function runSettlingRefusal(
  run: () => Promise<ActionOutcome>,
): Promise<SettledOutcome> {
  const first = await run();
  if (first.kind !== "refused") return first;
  const again = await run();
  return again.kind === "refused" ? { kind: "dead", detail: again.detail } : again;
}

export interface ActionContext {
  graphql: AdminGraphql;
  /**
   * Renews this worker's claim and records the mutation about to be sent (or what Shopify's
   * answer to it settled, such as a refused commit); false when the row is no longer this
   * worker's, and then nothing is sent.
   */
  beforeMutation(request: string): Promise<boolean>;
}

/** An Admin API failure as the queue's outcome: throttled, retried, or dead with the reason. */
export function failureOutcome(
  answer: Exclude<ShopifyAnswer<unknown>, { kind: "ok" }>,
): ActionOutcome {
  switch (answer.kind) {
    case "throttled":
      return { kind: "throttled", detail: answer.detail, retryAfterMs: answer.retryAfterMs };
    case "retryable":
      return { kind: "retry", detail: answer.detail };
    case "refused":
      return { kind: "dead", detail: `Shopify refused ${answer.detail}` };
  }
}

/** Shopify's user errors in one sentence, each with the field it names. */
export function userErrorsDetail(
  userErrors: readonly { field?: readonly string[] | null; message: string }[],
): string {
  return userErrors
    .map((error) =>
      error.field?.length ? `${error.message} (${error.field.join(".")})` : error.message,
    )
    .join("; ");
}
