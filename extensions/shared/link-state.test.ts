import { describe, expect, it } from "vitest";
import {
  MAX_RETRIES,
  RETRY_BUDGET_MS,
  linkAnswerOf,
  lowestPlanPrice,
  nextRetryDelayMs,
  parseLinkAnswer,
  type AvailablePlan,
} from "./link-state";

// The contract's bodies (decision 034, "The answers": the buyer routes).
const READY = {
  status: "ready",
  link: "https://svc.example/checkout/r/abc",
  available_plans: [
    {
      line_item_id: "1",
      product_reference: "laptop-2y",
      plan_price_amount: 1999,
      plan_price_currency: "eur",
    },
  ],
};

const plan = (amount: number, currency = "eur"): AvailablePlan => ({
  lineItemId: "1",
  productReference: "ref",
  planPriceAmount: amount,
  planPriceCurrency: currency,
});

describe("parseLinkAnswer", () => {
  it("reads a ready answer with its plans in camelCase", () => {
    expect(parseLinkAnswer(200, READY)).toEqual({
      status: "ready",
      link: "https://svc.example/checkout/r/abc",
      availablePlans: [plan(1999)].map((p) => ({ ...p, productReference: "laptop-2y" })),
    });
  });

  it("reads a ready answer without plans as one with an empty list", () => {
    expect(parseLinkAnswer(200, { status: "ready", link: READY.link })).toEqual({
      status: "ready",
      link: READY.link,
      availablePlans: [],
    });
  });

  it.each(["http://127.0.0.1:4010/sandbox/checkout/t", "http://localhost:4010/checkout/t"])(
    "reads a plain http link to this machine (the local emulator): %s",
    (link) => {
      expect(parseLinkAnswer(200, { ...READY, link })).toMatchObject({ status: "ready", link });
    },
  );

  it("reads none and not_yet", () => {
    expect(parseLinkAnswer(200, { status: "none" })).toEqual({ status: "none" });
    expect(parseLinkAnswer(202, { status: "not_yet", retry_after_ms: 1500 })).toEqual({
      status: "not_yet",
      retryAfterMs: 1500,
    });
  });

  it.each([
    ["a 400", 400, { error: { code: "invalid_order_id", message: "bad" } }, "HTTP 400"],
    ["a 401", 401, {}, "HTTP 401"],
    ["a 502", 502, { status: "error", error: { code: "service_unavailable" } }, "HTTP 502"],
    ["a 504", 504, { status: "error", error: { code: "service_timeout" } }, "HTTP 504"],
    ["a body that is not an object", 200, "ready", "the body is not a JSON object"],
    ["an array", 200, [READY], "the body is not a JSON object"],
    ["an unknown status", 200, { status: "maybe" }, "an unknown status"],
    ["a link that is not https", 200, { ...READY, link: "http://svc.example/x" }, "https"],
    ["a javascript: link", 200, { ...READY, link: "javascript:alert(1)" }, "https"],
    [
      "http to a host named like a loopback",
      200,
      { ...READY, link: "http://localhost.svc.example/x" },
      "https",
    ],
    ["no link", 200, { status: "ready" }, "https"],
    ["plans that are not a list", 200, { ...READY, available_plans: {} }, "not a list"],
    [
      "a plan with a price in euros",
      200,
      { ...READY, available_plans: [{ ...READY.available_plans[0], plan_price_amount: 19.99 }] },
      "malformed",
    ],
    [
      "a plan without a currency",
      200,
      { ...READY, available_plans: [{ ...READY.available_plans[0], plan_price_currency: "" }] },
      "malformed",
    ],
    ["not_yet without retry_after_ms", 202, { status: "not_yet" }, "retry_after_ms"],
    ["not_yet with a negative wait", 202, { status: "not_yet", retry_after_ms: -1 }, "retry"],
    ["ready on a 202", 202, READY, "HTTP 202 with status ready"],
    ["not_yet on a 200", 200, { status: "not_yet", retry_after_ms: 1 }, "HTTP 200 with status"],
  ])("reads %s as an error", (_name, httpStatus, body, reason) => {
    const answer = parseLinkAnswer(httpStatus, body);
    expect(answer.status).toBe("error");
    expect(answer).toMatchObject({ reason: expect.stringContaining(reason) });
  });
});

describe("linkAnswerOf", () => {
  it("keeps the code of an error body (the admin route's guided_checkout)", () => {
    expect(linkAnswerOf({ status: "error", error: { code: "service_timeout" } })).toEqual({
      status: "error",
      reason: "service_timeout",
    });
  });

  it("reads a missing guided_checkout as an error", () => {
    expect(linkAnswerOf(undefined).status).toBe("error");
  });
});

describe("nextRetryDelayMs", () => {
  it("waits as the route says", () => {
    expect(nextRetryDelayMs(1500, 0, 0)).toBe(1500);
  });

  it("keeps the wait within bounds", () => {
    expect(nextRetryDelayMs(0, 0, 0)).toBe(250);
    expect(nextRetryDelayMs(60_000, 0, 0)).toBe(5_000);
  });

  it("gives up after the last retry", () => {
    expect(nextRetryDelayMs(1500, MAX_RETRIES - 1, 0)).toBe(1500);
    expect(nextRetryDelayMs(1500, MAX_RETRIES, 0)).toBeNull();
  });

  it("gives up when the wait would pass the budget", () => {
    expect(nextRetryDelayMs(1500, 3, RETRY_BUDGET_MS - 1500)).toBe(1500);
    expect(nextRetryDelayMs(1500, 3, RETRY_BUDGET_MS - 1499)).toBeNull();
  });

  it("with the contract's 1.5 s asks for about 20 s in all", () => {
    let elapsed = 0;
    let retries = 0;
    for (let delay = nextRetryDelayMs(1500, 0, 0); delay !== null; retries++) {
      elapsed += delay;
      delay = nextRetryDelayMs(1500, retries + 1, elapsed);
    }
    expect(retries).toBe(MAX_RETRIES);
    expect(elapsed).toBeGreaterThanOrEqual(18_000);
    expect(elapsed).toBeLessThanOrEqual(RETRY_BUDGET_MS);
  });
});

describe("lowestPlanPrice", () => {
  it("is the lowest plan's price in the currency's major unit", () => {
    expect(lowestPlanPrice([plan(4999), plan(1999), plan(2999)])).toEqual({
      amount: 19.99,
      currency: "EUR",
    });
  });

  it("uses the currency's own minor unit", () => {
    expect(lowestPlanPrice([plan(1500, "jpy")])).toEqual({ amount: 1500, currency: "JPY" });
  });

  it("is null without plans, or with plans in two currencies", () => {
    expect(lowestPlanPrice([])).toBeNull();
    expect(lowestPlanPrice([plan(1999), plan(999, "usd")])).toBeNull();
  });
});
