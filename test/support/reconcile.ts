import type { ReconcileSettings } from "../../app/reconcile/run.server";

/**
 * Reconciliation's settings in tests: orders are read as soon as they change (no settle time,
 * edits at once), the rest as the app's defaults.
 */
export const RECONCILE_TEST_SETTINGS: ReconcileSettings = {
  intervalMs: 15 * 60_000,
  overlapMs: 60_000,
  settleMs: 0,
  editSettleMs: 0,
  bucketShare: 0.5,
  warnAfterRuns: 3,
  pageSize: 50,
};
