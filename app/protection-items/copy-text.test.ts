import { describe, expect, it } from "vitest";
import { toCopyText, type CopyableItem } from "./copy-text";

const HEADER = "merchant_product_id\ttitle\tprice\tcategory\tstrategy";

const SMARTPHONE_PLAN: CopyableItem = {
  variantId: "49872365410023",
  title: "Protection plan - 19.99 EUR",
  priceAmount: 1999,
  currency: "EUR",
  category: "smartphones",
  strategy: "one_to_many",
};
const ANY_PLAN: CopyableItem = {
  variantId: "49872365410099",
  title: "Protection (any plan)",
  priceAmount: null,
  currency: null,
  category: null,
  strategy: "one_to_all",
};
const WARRANTY: CopyableItem = {
  variantId: "49872365410100",
  title: "Warranty 2 years",
  priceAmount: 3000,
  currency: "jpy",
  category: "tv",
  strategy: "one_to_one",
};

describe("toCopyText", () => {
  it("gives a header row and one tab-separated line per item, the variant ID first", () => {
    expect(toCopyText([SMARTPHONE_PLAN, ANY_PLAN, WARRANTY])).toBe(
      [
        HEADER,
        "49872365410023\tProtection plan - 19.99 EUR\t19.99 EUR\tsmartphones\tone-to-many",
        "49872365410099\tProtection (any plan)\tdynamic\t\tone-to-all",
        "49872365410100\tWarranty 2 years\t3000 JPY\ttv\tone-to-one",
      ].join("\n"),
    );
  });

  it("keeps each item on one line when a title holds tabs or line breaks", () => {
    const text = toCopyText([{ ...WARRANTY, title: "Plan\twith\r\nbreaks ", category: "a\tb" }]);
    expect(text.split("\n")).toEqual([
      HEADER,
      "49872365410100\tPlan with breaks\t3000 JPY\ta b\tone-to-one",
    ]);
  });

  it("is only the header when there are no items", () => {
    expect(toCopyText([])).toBe(HEADER);
  });
});
