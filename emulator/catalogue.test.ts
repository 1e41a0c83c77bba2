import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findCategory,
  findPlans,
  loadCatalogueFile,
  loadDefaultCatalogue,
  parseCatalogue,
} from "./catalogue";

const catalogue = loadDefaultCatalogue();

describe("default catalogue", () => {
  it("has electronics, furniture and bikes, each with three bands of plans titled in en and de", () => {
    expect(catalogue.currency).toBe("eur");
    expect(catalogue.categories.map((category) => category.id)).toEqual([
      "electronics",
      "furniture",
      "bikes",
    ]);
    for (const category of catalogue.categories) {
      expect(category.price_bands).toHaveLength(3);
      for (const plan of category.price_bands.flatMap((band) => band.plans)) {
        expect(plan.title.en).not.toBe("");
        expect(plan.title.de).not.toBe("");
      }
    }
  });

  it("gives every protection item its own id", () => {
    const ids = catalogue.categories.flatMap((category) =>
      category.price_bands.flatMap((band) => band.plans.map((plan) => plan.merchant_product_id)),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("findCategory", () => {
  const product = (title: string) => ({
    product_id: "8457293600001",
    title,
    price_amount: 50000,
    price_currency: "eur",
  });

  it("matches keywords as whole words, case-insensitively", () => {
    expect(findCategory(catalogue, product('Samsung 55" QLED TV'))?.id).toBe("electronics");
    expect(findCategory(catalogue, product("TVA travel adapter"))).toBeUndefined();
    expect(findCategory(catalogue, product("Cube Reaction Hybrid E-Bike"))?.id).toBe("bikes");
    expect(findCategory(catalogue, product("Urban Arrow Cargo Bike"))?.id).toBe("bikes");
  });

  it("prefers an explicit product id over the title", () => {
    expect(
      findCategory(catalogue, { ...product("Oak dining table"), product_id: "7982301839417" })?.id,
    ).toBe("electronics");
  });

  it("gives no plans without a title, id or category to go by", () => {
    expect(
      findPlans(catalogue, { product_id: "1", price_amount: 50000, price_currency: "eur" }),
    ).toEqual({
      category: undefined,
      plans: [],
    });
  });
});

describe("parseCatalogue and loadCatalogueFile", () => {
  it("names what is wrong with a catalogue", () => {
    expect(() =>
      parseCatalogue({ currency: "eur", categories: [{ id: "tools" }] }, "test input"),
    ).toThrow(
      /Invalid plan catalogue in test input: .*\/categories\/0 must have required property 'title_keywords'/,
    );
  });

  it("requires plan titles in en and de", () => {
    const broken = structuredClone(catalogue);
    const plan = broken.categories[0]?.price_bands[0]?.plans[0];
    if (!plan) throw new Error("default catalogue has no first plan");
    (plan.title as Record<string, string>) = { en: "2-year protection" };
    expect(() => parseCatalogue(broken)).toThrow(/must have required property 'de'/);
  });

  it("reads a catalogue file and reports a file that is not JSON", () => {
    const directory = mkdtempSync(join(tmpdir(), "svc-catalogue-"));
    const valid = join(directory, "valid.json");
    const invalid = join(directory, "invalid.json");
    writeFileSync(valid, JSON.stringify(catalogue));
    writeFileSync(invalid, "{ currency: eur");
    expect(loadCatalogueFile(valid)).toEqual(catalogue);
    expect(() => loadCatalogueFile(invalid)).toThrow(
      /Failed to read plan catalogue .*invalid\.json/,
    );
  });
});
