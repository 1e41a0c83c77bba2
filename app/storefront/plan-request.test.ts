import { describe, expect, it } from "vitest";
import { parsePlanOfferRequest, toPlanLookupQuery } from "./plan-request";
import { SESSION, refusedIssues } from "./storefront.test-support";

// As Shopify forwards the storefront's call: its own signed parameters plus ours.
function query(overrides: Record<string, string | undefined> = {}) {
  const values: Record<string, string | undefined> = {
    shop: "example.myshopify.com",
    logged_in_customer_id: "",
    path_prefix: "/apps/svc",
    timestamp: "1732200000",
    signature: "0".repeat(64),
    variant_id: "44590322893113",
    price: "129900",
    currency: "eur",
    user_session_id: SESSION,
    product_title: 'MacBook Air 13" Laptop M3',
    product_brand: "Apple",
    product_category: "electronics",
    ...overrides,
  };
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) params.append(name, value);
  }
  return params;
}

const issuesOf = (params: URLSearchParams) => refusedIssues(parsePlanOfferRequest(params));

describe("parsePlanOfferRequest", () => {
  it("reads the product ID the block sends, for the product's layout hint", () => {
    const parsed = parsePlanOfferRequest(query({ product_id: "8012345678901" }));
    expect(parsed.ok && parsed.value.productId).toBe("8012345678901");
    // A block script cached from before sends none: the request is still answered.
    const without = parsePlanOfferRequest(query());
    expect(without.ok && "productId" in without.value).toBe(false);
  });

  it("refuses a product ID that is not a Shopify ID", () => {
    for (const productId of ["gid://shopify/Product/1", "0", "", "12a"]) {
      expect(issuesOf(query({ product_id: productId }))).toEqual([
        { path: "product_id", message: "must be a Shopify product ID (digits only)" },
      ]);
    }
    expect(
      issuesOf(new URLSearchParams(`${query({ product_id: "1" })}&product_id=2`)),
    ).toContainEqual({ path: "product_id", message: "must be given once" });
  });

  it("reads an EUR request, keeping Shopify cents and the service's minor units apart", () => {
    const parsed = parsePlanOfferRequest(query());
    expect(parsed).toEqual({
      ok: true,
      value: {
        variantId: "44590322893113",
        priceCents: 129900,
        priceAmount: 129900,
        currency: "EUR",
        userSessionId: SESSION,
        productTitle: 'MacBook Air 13" Laptop M3',
        productBrand: "Apple",
        productCategory: "electronics",
      },
    });
  });

  it.each([
    ["JPY", "5800000", 58000],
    ["jpy", "100", 1],
    ["KWD", "12550", 125500],
    ["Eur", "1999", 1999],
  ])("converts a %s price of %s Shopify cents to %i minor units", (currency, price, amount) => {
    const parsed = parsePlanOfferRequest(query({ currency, price }));
    expect(parsed.ok && parsed.value).toMatchObject({
      currency: currency.toUpperCase(),
      priceCents: Number(price),
      priceAmount: amount,
    });
  });

  it("gives the service the variant as product_id and a lowercase currency", () => {
    const parsed = parsePlanOfferRequest(query({ currency: "JPY", price: "5800000" }));
    if (!parsed.ok) throw new Error("expected a valid request");
    expect(toPlanLookupQuery(parsed.value)).toEqual({
      product_id: "44590322893113",
      product_title: 'MacBook Air 13" Laptop M3',
      product_brand: "Apple",
      product_category: "electronics",
      price_amount: 58000,
      price_currency: "jpy",
      user_session_id: SESSION,
    });
  });

  it("leaves out an empty or missing category, and accepts an empty brand", () => {
    for (const category of ["", undefined]) {
      const parsed = parsePlanOfferRequest(
        query({ product_category: category, product_brand: "" }),
      );
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      expect(parsed.value.productBrand).toBe("");
      expect(toPlanLookupQuery(parsed.value)).not.toHaveProperty("product_category");
    }
  });

  it.each([
    [{ variant_id: undefined }, "variant_id", "is required"],
    [
      { variant_id: "gid://shopify/ProductVariant/1" },
      "variant_id",
      "must be a Shopify variant ID",
    ],
    [{ variant_id: "0" }, "variant_id", "must be a Shopify variant ID"],
    [{ price: "12.50" }, "price", "must be a non-negative whole number of Shopify cents"],
    [{ price: "-100" }, "price", "must be a non-negative whole number of Shopify cents"],
    [{ price: "99999999999999999" }, "price", "must be a non-negative whole number"],
    [{ currency: "EURO" }, "currency", "must be a three-letter ISO 4217 currency code"],
    [{ currency: undefined }, "currency", "is required"],
    [{ user_session_id: "session-1" }, "user_session_id", "must be a UUID"],
    [{ product_title: " " }, "product_title", "must not be empty"],
    [{ product_title: "x".repeat(1001) }, "product_title", "must be at most 1000 characters"],
    [{ product_brand: undefined }, "product_brand", "is required"],
    [{ price: "100050", currency: "JPY" }, "price", "must be a whole number of JPY minor units"],
  ])("refuses %j: %s %s", (overrides, path, message) => {
    const issues = issuesOf(query(overrides));
    expect(issues).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it("refuses a parameter given twice", () => {
    const params = query();
    params.append("variant_id", "44590322893114");
    expect(issuesOf(params)).toEqual([{ path: "variant_id", message: "must be given once" }]);
  });

  it("lists every problem at once", () => {
    const issues = issuesOf(query({ variant_id: "abc", currency: "EURO", user_session_id: "x" }));
    expect(issues.map((issue) => issue.path)).toEqual([
      "variant_id",
      "currency",
      "user_session_id",
    ]);
  });
});
