import { describe, expect, it } from "vitest";
import { USER_SESSION_ID_FORM, cartIdOf } from "./cart-session";

describe("cartIdOf", () => {
  it("keeps the token before a /cart.js token's ?key= part, and never the key", () => {
    expect(cartIdOf("Z2NwLXVzLWVhc3QxOjAxSktC?key=0123abcd")).toBe("Z2NwLXVzLWVhc3QxOjAxSktC");
    expect(cartIdOf("6475a6c35b7fd07fe832782fb341a83b")).toBe("6475a6c35b7fd07fe832782fb341a83b");
    expect(cartIdOf("?key=only")).toBe("");
  });
});

describe("USER_SESSION_ID_FORM", () => {
  it("takes the UUID form the embed makes, nothing else", () => {
    expect(USER_SESSION_ID_FORM.test("3f2b8c1e-9a4d-4e7b-b6c5-2d1e0f9a8b7c")).toBe(true);
    expect(USER_SESSION_ID_FORM.test("3f2b8c1e9a4d4e7bb6c52d1e0f9a8b7c")).toBe(false);
  });
});
