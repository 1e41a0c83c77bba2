/*
 * The store's time. Reconciliation pages orders by `updated_at:>…`, so two changes must never
 * share a timestamp, not even within one millisecond, and a clock set back must not make a
 * later change look older.
 */
export class MonotonicClock {
  private lastMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** The current time as ISO 8601, strictly later than every earlier reading. */
  tick(): string {
    const ms = Math.max(this.now().getTime(), this.lastMs + 1);
    this.lastMs = ms;
    return new Date(ms).toISOString();
  }
}
