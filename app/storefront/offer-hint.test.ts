import { describe, expect, it } from "vitest";
import { MAX_HINTED_VARIANTS, hintedVariants, offerHintMetafield } from "./offer-hint";

describe("the offer block's layout hint", () => {
  it("lists a product's variants without plans sorted, each once, whatever order they came in", () => {
    expect(hintedVariants([])).toEqual([]);
    expect(hintedVariants(["9", "45190312001593", "2", "9"])).toEqual(["2", "45190312001593", "9"]);
    expect(hintedVariants(["5", "2"])).toEqual(hintedVariants(["2", "5"]));
  });

  it("stops at Shopify's variant limit per product, keeping the same variants every time", () => {
    const ids = Array.from({ length: MAX_HINTED_VARIANTS + 5 }, (_, i) => String(100_000 + i));
    const listed = hintedVariants(ids.toReversed());
    expect(listed).toHaveLength(MAX_HINTED_VARIANTS);
    expect(listed).toEqual(ids.slice(0, MAX_HINTED_VARIANTS));
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
