import { describe, expect, it } from "vitest";
import {
  DEFAULT_OFFER_OPTIONS,
  MAX_HEADING_LENGTH,
  offerOptionsSchema,
  readOfferOptions,
  writeOfferOptions,
} from "./offer-options";

describe("offerOptionsSchema", () => {
  it("accepts the full options and trims the heading", () => {
    expect(
      offerOptionsSchema.parse({
        heading: "  Protect your laptop  ",
        showInsuranceLink: false,
        layout: "compact",
      }),
    ).toEqual({ heading: "Protect your laptop", showInsuranceLink: false, layout: "compact" });
  });

  it("turns an empty or blank heading into null (the block's own heading)", () => {
    for (const heading of ["", "   ", null]) {
      expect(
        offerOptionsSchema.parse({ heading, showInsuranceLink: true, layout: "list" }).heading,
      ).toBeNull();
    }
  });

  it.each([
    ["a heading that is too long", { heading: "x".repeat(MAX_HEADING_LENGTH + 1) }],
    ["a heading with a line break", { heading: "Protect\nit" }],
    ["an unknown layout", { layout: "grid" }],
    ["a string for a flag", { showInsuranceLink: "true" }],
    ["an unknown field", { colour: "red" }],
  ])("refuses %s", (_name, change) => {
    const options = { heading: null, showInsuranceLink: true, layout: "list", ...change };
    expect(offerOptionsSchema.safeParse(options).success).toBe(false);
  });

  it("accepts a heading of exactly the maximum length", () => {
    const heading = "x".repeat(MAX_HEADING_LENGTH);
    expect(
      offerOptionsSchema.parse({ heading, showInsuranceLink: true, layout: "list" }).heading,
    ).toBe(heading);
  });
});

describe("readOfferOptions", () => {
  it("gives the defaults for a shop that never saved options", () => {
    expect(DEFAULT_OFFER_OPTIONS).toEqual({
      heading: null,
      showInsuranceLink: true,
      layout: "list",
    });
    expect(readOfferOptions(null)).toEqual(DEFAULT_OFFER_OPTIONS);
    expect(readOfferOptions(undefined)).toEqual(DEFAULT_OFFER_OPTIONS);
    expect(readOfferOptions("")).toEqual(DEFAULT_OFFER_OPTIONS);
  });

  it("reads what writeOfferOptions wrote", () => {
    const options = {
      heading: "Schutz für dein Gerät",
      showInsuranceLink: false,
      layout: "compact",
    } as const;
    expect(readOfferOptions(writeOfferOptions(options))).toEqual(options);
  });

  it("gives the defaults for JSON that is malformed or not an object", () => {
    for (const stored of ["{", "[]", "42", "null", '"list"']) {
      expect(readOfferOptions(stored)).toEqual(DEFAULT_OFFER_OPTIONS);
    }
  });

  it("keeps the valid fields and defaults only the invalid or missing ones", () => {
    expect(
      readOfferOptions(JSON.stringify({ layout: "compact", showInsuranceLink: "yes" })),
    ).toEqual({ heading: null, showInsuranceLink: true, layout: "compact" });
    expect(readOfferOptions(JSON.stringify({ heading: "x".repeat(500), layout: "grid" }))).toEqual(
      DEFAULT_OFFER_OPTIONS,
    );
  });

  it("returns a fresh object: changing it does not change the defaults", () => {
    const options = readOfferOptions(null);
    options.layout = "compact";
    expect(DEFAULT_OFFER_OPTIONS.layout).toBe("list");
  });
});

describe("writeOfferOptions", () => {
  it("writes the three fields and nothing else", () => {
    expect(
      JSON.parse(writeOfferOptions({ heading: null, showInsuranceLink: true, layout: "list" })),
    ).toEqual({ heading: null, showInsuranceLink: true, layout: "list" });
  });

  it("refuses options that would not read back the same", () => {
    expect(() =>
      writeOfferOptions({ heading: "a\u0007b", showInsuranceLink: true, layout: "list" }),
    ).toThrow();
  });
});
