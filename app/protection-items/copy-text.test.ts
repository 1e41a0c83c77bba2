import { describe, expect, it } from "vitest";
import { toCopyText } from "./copy-text";

describe("toCopyText", () => {
  it("gives a header row and one tab-separated line per item, the variant ID first", () => {
    const text = toCopyText([
      {
        variantId: "49872365410023",
        title: "Protection plan - 19.99 EUR",
        priceAmount: 1999,
        currency: "EUR",
        category: "smartphones",
        strategy: "one_to_many",
      },
      {
        variantId: "49872365410099",
        title: "Protection (any plan)",
        priceAmount: null,
        currency: null,
        category: null,
        strategy: "one_to_all",
      },
      {
        variantId: "49872365410100",
        title: "Warranty 2 years",
        priceAmount: 3000,
        currency: "jpy",
        category: "tv",
        strategy: "one_to_one",
      },
    ]);
    expect(text).toBe(
      [
        "merchant_product_id\ttitle\tprice\tcategory\tstrategy",
        "49872365410023\tProtection plan - 19.99 EUR\t19.99 EUR\tsmartphones\tone-to-many",
        "49872365410099\tProtection (any plan)\tdynamic\t\tone-to-all",
        "49872365410100\tWarranty 2 years\t3000 JPY\ttv\tone-to-one",
      ].join("\n"),
    );
  });

  it("keeps each item on one line when a title holds tabs or line breaks", () => {
    const text = toCopyText([
      {
        variantId: "1",
        title: "Plan\twith\r\nbreaks ",
        priceAmount: 100,
        currency: "EUR",
        category: "a\tb",
        strategy: "one_to_one",
      },
    ]);
    expect(text.split("\n")).toEqual([
      "merchant_product_id\ttitle\tprice\tcategory\tstrategy",
      "1\tPlan with breaks\t1.00 EUR\ta b\tone-to-one",
    ]);
  });

  it("is only the header when there are no items", () => {
    expect(toCopyText([])).toBe("merchant_product_id\ttitle\tprice\tcategory\tstrategy");
  });
});
