import { describe, expect, it } from "vitest";
import { waitForShareMs } from "./throttle-share";

const status = (currentlyAvailable: number) => ({
  requestedQueryCost: 500,
  throttleStatus: { maximumAvailable: 2_000, currentlyAvailable, restoreRate: 100 },
});

describe("reconciliation's share of the shop's bucket", () => {
  it("calls at once while the bucket holds the call above the reserve", () => {
    expect(waitForShareMs(status(2_000), 0.5, 500)).toBe(0);
    expect(waitForShareMs(status(1_500), 0.5, 500)).toBe(0);
  });

  it("waits until the bucket refills to the reserve plus the call's cost", () => {
    // Reserve 1,000 + 500 needed, 1,200 there: 300 points at 100 a second.
    expect(waitForShareMs(status(1_200), 0.5, 500)).toBe(3_000);
    expect(waitForShareMs(status(0), 0.5, 500)).toBe(15_000);
  });

  it("leaves a smaller reserve for a larger share", () => {
    expect(waitForShareMs(status(600), 0.9, 500)).toBe(1_000);
  });

  it("waits for a full share, no longer, for a call dearer than the share", () => {
    // Share 100 points, a call of 500: wait until 1,900 + 100 are there, the whole bucket.
    expect(waitForShareMs(status(1_900), 0.05, 500)).toBe(1_000);
    expect(waitForShareMs(status(2_000), 0.05, 500)).toBe(0);
  });

  it("does not wait when Shopify said nothing of the bucket", () => {
    expect(waitForShareMs(undefined, 0.5, 500)).toBe(0);
    expect(waitForShareMs({ requestedQueryCost: 10 }, 0.5, 500)).toBe(0);
  });
});
