import type { DatabaseProvider } from "../../app/lib/database-url";

// The numbers every benchmark shares: its statistics, and the numbers it reads from its command
// line (a typo there must stop the run, not measure something else).

export class BenchmarkError extends Error {
  override name = "BenchmarkError";
}

/** Nearest-rank percentile of unsorted samples. */
export function percentile(samples: number[], fraction: number): number {
  if (!samples.length) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1]!;
}

/** The middle value; the mean of the two middle values for an even count. */
export function median(samples: number[]): number {
  if (!samples.length) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A whole-number option (`--runs 30`), at least `minimum`. */
export function positiveInteger(name: string, value: string | undefined, minimum = 0): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum) {
    throw new BenchmarkError(`--${name} must be a whole number ≥ ${minimum}, not ${value}`);
  }
  return parsed;
}

/** `--db sqlite|postgresql|both`. */
export function databasesOption(value: string | undefined): DatabaseProvider[] {
  switch (value) {
    case "sqlite":
    case "postgresql":
      return [value];
    case "both":
      return ["sqlite", "postgresql"];
    default:
      throw new BenchmarkError(`--db must be sqlite, postgresql or both, not ${value}`);
  }
}
