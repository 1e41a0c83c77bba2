import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./rate-limit";

describe("TokenBuckets", () => {
  it("lets a burst through, refuses the next with the seconds until a token, then refills", () => {
    let now = 0;
    const buckets = new TokenBuckets({ ratePerSecond: 0.5, burst: 3, now: () => now });
    expect([1, 2, 3].map(() => buckets.take("shop").ok)).toEqual([true, true, true]);
    expect(buckets.take("shop")).toEqual({ ok: false, retryAfterSeconds: 2 });
    // Another key has its own bucket.
    expect(buckets.take("other").ok).toBe(true);
    now = 1_999;
    expect(buckets.take("shop").ok).toBe(false);
    now = 2_000;
    expect(buckets.take("shop").ok).toBe(true);
    expect(buckets.take("shop").ok).toBe(false);
  });

  it("keeps at most maxKeys buckets, forgetting the least recently used", () => {
    const buckets = new TokenBuckets({ ratePerSecond: 0.001, burst: 1, maxKeys: 2, now: () => 0 });
    expect(buckets.take("a").ok).toBe(true);
    expect(buckets.take("b").ok).toBe(true);
    expect(buckets.take("a").ok).toBe(false);
    expect(buckets.take("c").ok).toBe(true);
    // "b" was the least recently used: forgotten, so it starts full again.
    expect(buckets.take("b").ok).toBe(true);
    expect(buckets.take("c").ok).toBe(false);
  });
});
