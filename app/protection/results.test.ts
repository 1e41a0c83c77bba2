import { describe, expect, it } from "vitest";
import { describeResult, errorCodeOf, isRetryable, isSuccess, parseRetryAfter } from "./results";
import type { ServiceResult } from "./results";

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-03-01T12:00:00.000Z");

  it("reads delta-seconds", () => {
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
  });

  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter("Sat, 01 Mar 2025 12:00:30 GMT", now)).toBe(30_000);
  });

  it("gives 0 for a date in the past", () => {
    expect(parseRetryAfter("Sat, 01 Mar 2025 11:00:00 GMT", now)).toBe(0);
  });

  it.each([null, undefined, "", "soon", "-5", "1.5", "2025-03-01"])("ignores %s", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe("describeResult", () => {
  it("describes each kind with its status and code", () => {
    const cases: [ServiceResult<unknown>, string][] = [
      [{ kind: "success", status: 200, data: {} }, "success (200)"],
      [
        {
          kind: "validation_error",
          status: 400,
          errorCode: "validation_failed",
          validationErrors: [{ field: "cart_id", message: "is required" }],
        },
        "validation error (400 validation_failed), 1 validation error: cart_id: is required",
      ],
      [
        { kind: "unauthorized", status: 401, errorCode: "invalid_api_key" },
        "unauthorized (401 invalid_api_key): the service refused the secret key; check that the key belongs to the configured environment",
      ],
      [
        { kind: "not_found", status: 404, errorCode: "order_not_found" },
        "not found (404 order_not_found)",
      ],
      [{ kind: "not_found", status: 404 }, "not found (404)"],
      [
        {
          kind: "retryable",
          reason: "rate_limited",
          status: 429,
          retryAfterMs: 2000,
          message: "POST /events answered 429: rate limited",
        },
        "retryable rate_limited 429: POST /events answered 429: rate limited; retry after 2000 ms",
      ],
      [
        {
          kind: "retryable",
          reason: "network",
          message: "POST /events: request failed (ECONNREFUSED)",
        },
        "retryable network: POST /events: request failed (ECONNREFUSED)",
      ],
      [
        {
          kind: "rejected",
          status: 409,
          errorCode: "duplicate",
          message: "POST /events answered 409 duplicate",
        },
        "rejected (409 duplicate): POST /events answered 409 duplicate",
      ],
    ];
    for (const [result, expected] of cases) expect(describeResult(result)).toBe(expected);
  });

  it("lists at most five validation errors and counts the rest", () => {
    const validationErrors = Array.from({ length: 7 }, (_, i) => ({
      field: `f${i}`,
      message: "bad",
    }));
    const text = describeResult({
      kind: "validation_error",
      status: 400,
      errorCode: "validation_failed",
      validationErrors,
    });
    expect(text).toContain("7 validation errors");
    expect(text).toContain("f4: bad");
    expect(text).not.toContain("f5");
    expect(text).toContain("and 2 more");
  });

  it("describes validation entries of unknown shape without failing", () => {
    const text = describeResult({
      kind: "validation_error",
      status: 400,
      errorCode: "bad_request",
      validationErrors: ["plain", { message: "only message" }, 42],
    });
    expect(text).toBe(
      "validation error (400 bad_request), 3 validation errors: plain; only message; 42",
    );
  });
});

describe("result helpers", () => {
  it("tells success, retryable and codes apart", () => {
    const ok: ServiceResult<number> = { kind: "success", status: 200, data: 1 };
    const retry: ServiceResult<number> = { kind: "retryable", reason: "timeout", message: "t" };
    const rejected: ServiceResult<number> = {
      kind: "rejected",
      status: 403,
      errorCode: "forbidden",
      message: "m",
    };
    expect(isSuccess(ok)).toBe(true);
    expect(isSuccess(retry)).toBe(false);
    expect(isRetryable(retry)).toBe(true);
    expect(isRetryable(rejected)).toBe(false);
    expect(errorCodeOf(rejected)).toBe("forbidden");
    expect(errorCodeOf(ok)).toBeUndefined();
  });
});
