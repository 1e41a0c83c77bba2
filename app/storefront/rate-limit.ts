/*
 * Token buckets by key (a shop, a visitor), in memory. Pure: the clock is injected. A key's
 * bucket starts full, refills at `ratePerSecond` up to `burst`, and one request takes one token.
 * The number of buckets is bounded; the least recently used goes first, which only ever forgives.
 */

export interface TokenBucketOptions {
  ratePerSecond: number;
  burst: number;
  maxKeys?: number;
  now?: () => number;
}

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export class TokenBuckets {
  readonly #ratePerMs: number;
  readonly #burst: number;
  readonly #maxKeys: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(options: TokenBucketOptions) {
    if (!(options.ratePerSecond > 0) || !(options.burst >= 1)) {
      throw new Error("TokenBuckets: ratePerSecond must be positive and burst at least 1");
    }
    this.#ratePerMs = options.ratePerSecond / 1000;
    this.#burst = options.burst;
    this.#maxKeys = options.maxKeys ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  take(key: string): TakeResult {
    const now = this.#now();
    const bucket = this.#buckets.get(key);
    let tokens = this.#burst;
    if (bucket) {
      this.#buckets.delete(key);
      tokens = Math.min(this.#burst, bucket.tokens + (now - bucket.at) * this.#ratePerMs);
    }
    const ok = tokens >= 1;
    if (ok) tokens -= 1;
    this.#buckets.set(key, { tokens, at: now });
    while (this.#buckets.size > this.#maxKeys) {
      const oldest = this.#buckets.keys().next();
      if (oldest.done) break;
      this.#buckets.delete(oldest.value);
    }
    if (ok) return { ok: true };
    return {
      ok: false,
      retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.#ratePerMs / 1000)),
    };
  }
}
