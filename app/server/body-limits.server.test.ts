import { describe, expect, it } from "vitest";
import { admitBody, ByteBudget, maxBodyBytesFor } from "./body-limits.server";

const limits = { maxBodyBytes: 1_000_000, orderWebhookMaxBodyBytes: 8_000_000 };

describe("maxBodyBytesFor", () => {
  it("gives order webhooks their own cap, small routes smaller ones, the rest the general one", () => {
    expect(maxBodyBytesFor("/webhooks/orders/create", true, limits)).toBe(8_000_000);
    expect(maxBodyBytesFor("/proxy/cart_updates", false, limits)).toBe(256 * 1024);
    expect(maxBodyBytesFor("/auth/login", false, limits)).toBe(16 * 1024);
    expect(maxBodyBytesFor("/webhooks/customers/redact", false, limits)).toBe(1_000_000);
  });
});

describe("admitBody", () => {
  it("refuses a body over its cap (413) and a chunked one (411) before reading it", () => {
    const budget = new ByteBudget(10_000);
    expect(admitBody({ "content-length": "1001" }, 1000, budget)).toMatchObject({ status: 413 });
    expect(admitBody({ "transfer-encoding": "chunked" }, 1000, budget)).toMatchObject({
      status: 411,
    });
    expect(admitBody({ "content-length": "-1" }, 1000, budget)).toMatchObject({ status: 411 });
    expect(budget.used).toBe(0);
  });

  it("reserves bodies in one budget, answers 503 once it is spent, and takes more on release", () => {
    const budget = new ByteBudget(2_000);
    expect(admitBody({ "content-length": "1000" }, 1000, budget)).toEqual({
      kind: "admit",
      bytes: 1000,
    });
    expect(admitBody({ "content-length": "1000" }, 1000, budget)).toMatchObject({ kind: "admit" });
    expect(admitBody({ "content-length": "1" }, 1000, budget)).toMatchObject({ status: 503 });
    // A request without a body costs nothing.
    expect(admitBody({}, 1000, budget)).toEqual({ kind: "admit", bytes: 0 });
    budget.release(1000);
    expect(admitBody({ "content-length": "1000" }, 1000, budget)).toMatchObject({ kind: "admit" });
  });
});
