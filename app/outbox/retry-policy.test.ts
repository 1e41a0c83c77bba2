import { describe, expect, it } from "vitest";
import type { ValidationErrorResult } from "../protection/results";
import {
  decideDelivery,
  MAX_RETRY_DELAY_MS,
  RETRY_WINDOW_MS,
  retryDelayMs,
  scheduleRetry,
} from "./retry-policy";

const now = new Date("2026-11-21T10:00:00.000Z");
const context = { failedAttempts: 1, firstFailedAt: now, now, random: () => 1 };

describe("retryDelayMs", () => {
  it("starts at about a second and doubles", () => {
    expect(retryDelayMs(1, () => 1)).toBe(1_000);
    expect(retryDelayMs(2, () => 1)).toBe(2_000);
    expect(retryDelayMs(5, () => 1)).toBe(16_000);
  });

  it("never waits less than half the step (jitter)", () => {
    expect(retryDelayMs(1, () => 0)).toBe(500);
    expect(retryDelayMs(4, () => 0)).toBe(4_000);
  });

  it("caps at one hour", () => {
    expect(retryDelayMs(13, () => 1)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(500, () => 1)).toBe(MAX_RETRY_DELAY_MS);
  });

  it("keeps retrying for at least 72 hours before an event is dead", () => {
    let elapsed = 0;
    let attempts = 0;
    const firstFailedAt = new Date(0);
    for (;;) {
      attempts += 1;
      const decision = scheduleRetry(
        { failedAttempts: attempts, firstFailedAt, now: new Date(elapsed), random: () => 0 },
        "503",
      );
      if (decision.outcome !== "retry") break;
      elapsed = decision.nextAttemptAt.getTime();
    }
    expect(elapsed).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
    expect(attempts).toBeGreaterThan(70);
  });
});

describe("decideDelivery", () => {
  it("is delivered on success, with the service's event_id", () => {
    const result = { kind: "success", status: 200, data: { event_id: "evt_1" } } as const;
    expect(decideDelivery(result, "success", context)).toEqual({
      outcome: "delivered",
      serviceEventId: "evt_1",
    });
  });

  it("is dead at once on a 400", () => {
    const result: ValidationErrorResult = {
      kind: "validation_error",
      status: 400,
      errorCode: "validation_failed",
      validationErrors: [{ field: "payload.order_id", message: "is required" }],
    };
    expect(decideDelivery(result, "400 validation_failed", context)).toEqual({
      outcome: "dead",
      error: "400 validation_failed",
    });
  });

  it("pauses the shop on a 401", () => {
    const result = { kind: "unauthorized", status: 401 } as const;
    expect(decideDelivery(result, "401", context).outcome).toBe("pause_shop");
  });

  it("retries a 5xx with backoff and honours Retry-After", () => {
    const result = {
      kind: "retryable",
      reason: "rate_limited",
      status: 429,
      retryAfterMs: 30_000,
      message: "429",
    } as const;
    const decision = decideDelivery(result, "429", context);
    expect(decision).toEqual({
      outcome: "retry",
      nextAttemptAt: new Date(now.getTime() + 30_000),
      error: "429",
    });
  });

  it("is dead when a retryable failure comes after the 72-hour window", () => {
    const late = { ...context, now: new Date(now.getTime() + RETRY_WINDOW_MS) };
    const result = {
      kind: "retryable",
      reason: "server_error",
      status: 503,
      message: "503",
    } as const;
    expect(decideDelivery(result, "503", late)).toEqual({
      outcome: "dead",
      error: "Gave up after 72 hours of retries: 503",
    });
  });

  it("retries a 404 (the service catching up) and is dead on other 4xx", () => {
    expect(decideDelivery({ kind: "not_found", status: 404 }, "404", context).outcome).toBe(
      "retry",
    );
    const rejected = { kind: "rejected", status: 409, message: "409" } as const;
    expect(decideDelivery(rejected, "409", context).outcome).toBe("dead");
  });
});
