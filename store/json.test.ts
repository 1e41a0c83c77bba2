import { describe, expect, it } from "vitest";
import { parseWebhookJson } from "../app/lib/json";
import { JsonInteger, jsonId, toShopifyJson } from "./json";

describe("toShopifyJson", () => {
  it("writes an ID above 2^53 as a bare number that the app's parser reads back exactly", () => {
    const json = toShopifyJson({
      id: jsonId("9007199254740993"),
      line_items: [{ id: jsonId("18446744073709551615") }],
    });
    expect(json).toBe('{"id":9007199254740993,"line_items":[{"id":18446744073709551615}]}');
    expect(parseWebhookJson(json)).toEqual({
      id: "9007199254740993",
      line_items: [{ id: "18446744073709551615" }],
    });
    // JSON.stringify of the same ID as a JS number would have written another ID.
    expect(JSON.stringify({ id: Number("9007199254740993") })).toBe('{"id":9007199254740992}');
  });

  it("writes the other values as JSON.stringify does, keys in insertion order", () => {
    const value = { b: 'tab\t"quoted" €', a: [1, 19.99, -0.5, true, false, null], c: {} };
    expect(toShopifyJson(value)).toBe(JSON.stringify(value));
  });

  it("refuses numbers that are not exact: NaN, Infinity, integers beyond 2^53", () => {
    expect(() => toShopifyJson({ total: Number.NaN })).toThrow("$.total");
    expect(() => toShopifyJson([Infinity])).toThrow("$[0]");
    expect(() => toShopifyJson({ id: 2 ** 53 + 2 })).toThrow("not an exact number");
  });

  it("takes only integer digits as a JsonInteger", () => {
    expect(new JsonInteger(42n).digits).toBe("42");
    expect(new JsonInteger(-7).digits).toBe("-7");
    for (const bad of ["", "01", "1.5", "1e3", " 1", "gid://shopify/Order/1"]) {
      expect(() => new JsonInteger(bad), bad).toThrow("not an exact integer");
    }
    expect(() => new JsonInteger(2 ** 53 + 2)).toThrow("not an exact integer");
  });
});
