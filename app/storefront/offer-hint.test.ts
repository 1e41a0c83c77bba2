import { describe, expect, it } from "vitest";
import {
  MAX_HINTED_VARIANTS,
  nextHintedVariants,
  offerHintMetafield,
  readHintedVariants,
  serializeHintedVariants,
} from "./offer-hint";

describe("the offer block's layout hint", () => {
  it("adds a variant without plans, sorted, and takes out one that gains plans", () => {
    expect(nextHintedVariants([], "45190312001593", false)).toEqual(["45190312001593"]);
    expect(nextHintedVariants(["2", "9"], "5", false)).toEqual(["2", "5", "9"]);
    expect(nextHintedVariants(["2", "5", "9"], "5", true)).toEqual(["2", "9"]);
  });

  it("says nothing changed when the answer matches the list (every repeated page view)", () => {
    expect(nextHintedVariants(["5"], "5", false)).toBeUndefined();
    expect(nextHintedVariants(["5"], "6", true)).toBeUndefined();
    expect(nextHintedVariants([], "6", true)).toBeUndefined();
  });

  it("stops growing at Shopify's variant limit per product", () => {
    const full = Array.from({ length: MAX_HINTED_VARIANTS }, (_, i) => String(1000 + i));
    expect(nextHintedVariants(full, "99999", false)).toBeUndefined();
    expect(nextHintedVariants(full, "1000", true)).toHaveLength(MAX_HINTED_VARIANTS - 1);
  });

  it("reads a stored list back, and anything unreadable as an empty one", () => {
    expect(readHintedVariants(serializeHintedVariants(["9", "2", "2"]))).toEqual(["2", "9"]);
    for (const stored of [null, undefined, "", "{", '{"a":1}', '[1, "x", null]']) {
      expect(readHintedVariants(stored)).toEqual([]);
    }
    expect(readHintedVariants('["7", 8, "x7"]')).toEqual(["7"]);
  });

  it("writes the product's app-owned JSON metafield as the block's Liquid reads it", () => {
    const input = offerHintMetafield("8012345678902", ["5550001", "5550002"]);
    expect(input).toEqual({
      ownerId: "gid://shopify/Product/8012345678902",
      namespace: "$app",
      key: "plan_availability",
      type: "json",
      value: '{"without_plans":["5550001","5550002"]}',
    });
    // Strings, so that Liquid's `contains` finds the variant ID it appends '' to.
    expect((JSON.parse(input.value) as { without_plans: unknown[] }).without_plans).toEqual([
      "5550001",
      "5550002",
    ]);
  });
});
