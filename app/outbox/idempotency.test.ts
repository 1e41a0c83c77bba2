import { describe, expect, it } from "vitest";
import { idempotencyKeyFor } from "./idempotency";

describe("idempotencyKeyFor", () => {
  it("is the same for the same shop and action, and UUID-shaped", () => {
    const key = idempotencyKeyFor("a.myshopify.com", "order_placed:1001");
    expect(key).toBe(idempotencyKeyFor("a.myshopify.com", "order_placed:1001"));
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("differs between actions and between shops", () => {
    const keys = new Set([
      idempotencyKeyFor("a.myshopify.com", "order_placed:1001"),
      idempotencyKeyFor("a.myshopify.com", "order_placed:1002"),
      idempotencyKeyFor("b.myshopify.com", "order_placed:1001"),
      idempotencyKeyFor("a.myshopify.com\norder_placed:1001", ""),
    ]);
    expect(keys.size).toBe(4);
  });
});
