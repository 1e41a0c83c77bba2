import type { QueryCost } from "../plan-actions/shopify-calls.server";

/*
 * Reconciliation's share of the shop's Admin API bucket (issue 17): it never takes the bucket
 * below what the other share leaves to the merchant's other apps and to the app's own actions.
 */

/**
 * How long to wait before a call of `nextCost` points, after a call that left the bucket as
 * `last` shows: until the bucket holds the call's cost above the reserve of `1 - share`. A
 * call dearer than the whole share waits for the share to be full, no longer.
 */
export function waitForShareMs(last: QueryCost | undefined, share: number, nextCost: number) {
  const status = last?.throttleStatus;
  const maximum = status?.maximumAvailable;
  const available = status?.currentlyAvailable;
  const rate = status?.restoreRate;
  if (maximum === undefined || available === undefined || !rate) return 0;
  const reserve = maximum * (1 - share);
  const missing = reserve + Math.min(nextCost, maximum * share) - available;
  return missing <= 0 ? 0 : Math.ceil((missing / rate) * 1_000);
}
