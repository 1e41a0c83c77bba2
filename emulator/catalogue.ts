import { readFileSync } from "node:fs";
import { Ajv } from "ajv";

/*
 * The plan catalogue stands in for the service's plan matching, which the spec does not
 * describe. A category is matched by explicit product id, then by the asked category, then by
 * a keyword in the product title; a price band of that category then gives the plans.
 */

export interface CataloguePlan {
  merchant_product_id: string;
  price_amount: number;
  title: { en: string; de: string; [language: string]: string };
  insurance_details_url: string;
}

export interface CataloguePriceBand {
  /** Inclusive, in cents of the catalogue currency. */
  min_price_amount: number;
  /** Inclusive; absent means no upper bound. */
  max_price_amount?: number;
  plans: CataloguePlan[];
}

export interface CatalogueCategory {
  id: string;
  title?: string;
  title_keywords: string[];
  product_ids: string[];
  price_bands: CataloguePriceBand[];
}

export interface Catalogue {
  currency: string;
  categories: CatalogueCategory[];
}

const planSchema = {
  type: "object",
  additionalProperties: false,
  required: ["merchant_product_id", "price_amount", "title", "insurance_details_url"],
  properties: {
    merchant_product_id: { type: "string", minLength: 1 },
    price_amount: { type: "integer", minimum: 0 },
    title: {
      type: "object",
      required: ["en", "de"],
      additionalProperties: false,
      patternProperties: { "^[a-z]{2}$": { type: "string", minLength: 1 } },
    },
    insurance_details_url: { type: "string", pattern: "^https?://" },
  },
} as const;

export const catalogueSchema = {
  type: "object",
  additionalProperties: false,
  required: ["currency", "categories"],
  properties: {
    currency: { type: "string", pattern: "^[a-z]{3}$" },
    categories: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "title_keywords", "product_ids", "price_bands"],
        properties: {
          id: { type: "string", minLength: 1 },
          title: { type: "string" },
          title_keywords: { type: "array", items: { type: "string", minLength: 1 } },
          product_ids: { type: "array", items: { type: "string", minLength: 1 } },
          price_bands: {
            type: "array",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["min_price_amount", "plans"],
              properties: {
                min_price_amount: { type: "integer", minimum: 0 },
                max_price_amount: { type: "integer", minimum: 0 },
                plans: { type: "array", minItems: 1, items: planSchema },
              },
            },
          },
        },
      },
    },
  },
} as const;

const validateCatalogue = new Ajv({ allErrors: true }).compile<Catalogue>(catalogueSchema);

/** Checks a parsed catalogue document; throws an Error naming every problem. */
export function parseCatalogue(document: unknown, source = "catalogue"): Catalogue {
  if (validateCatalogue(document)) return structuredClone(document);
  const problems = (validateCatalogue.errors ?? []).map(
    (error) => `${error.instancePath || "/"} ${error.message ?? error.keyword}`,
  );
  throw new Error(`Invalid plan catalogue in ${source}: ${problems.join("; ")}`);
}

export function loadCatalogueFile(path: string | URL): Catalogue {
  const source = String(path);
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(
      `Failed to read plan catalogue ${source}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return parseCatalogue(document, source);
}

export const DEFAULT_CATALOGUE_URL = new URL("./catalogue.json", import.meta.url);

export function loadDefaultCatalogue(): Catalogue {
  return loadCatalogueFile(DEFAULT_CATALOGUE_URL);
}

export interface ProductToMatch {
  product_id: string;
  title?: string;
  category?: string;
  price_amount: number;
  price_currency: string;
}

function toWords(value: string): string {
  return ` ${
    value
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.join(" ") ?? ""
  } `;
}

export function findCategory(
  catalogue: Catalogue,
  product: ProductToMatch,
): CatalogueCategory | undefined {
  const byProductId = catalogue.categories.find((category) =>
    category.product_ids.includes(product.product_id),
  );
  if (byProductId) return byProductId;
  const askedCategory = product.category?.trim().toLowerCase();
  if (askedCategory) {
    const byCategory = catalogue.categories.find(
      (category) => category.id.toLowerCase() === askedCategory,
    );
    if (byCategory) return byCategory;
  }
  if (!product.title) return undefined;
  // Whole-word match, so "tv" matches "Samsung 55\" TV" but not "TVA adapter".
  const titleWords = toWords(product.title);
  return catalogue.categories.find((category) =>
    category.title_keywords.some((keyword) => titleWords.includes(toWords(keyword))),
  );
}

function bandCovers(band: CataloguePriceBand, priceAmount: number): boolean {
  return (
    priceAmount >= band.min_price_amount &&
    (band.max_price_amount === undefined || priceAmount <= band.max_price_amount)
  );
}

export interface PlanMatch {
  category: CatalogueCategory | undefined;
  plans: CataloguePlan[];
}

/** Plans for one unit of a product. A currency other than the catalogue's gets no plans. */
export function findPlans(catalogue: Catalogue, product: ProductToMatch): PlanMatch {
  const category = findCategory(catalogue, product);
  if (!category || product.price_currency !== catalogue.currency) return { category, plans: [] };
  const band = category.price_bands.find((candidate) =>
    bandCovers(candidate, product.price_amount),
  );
  return { category, plans: band?.plans ?? [] };
}

export function isProtectionItem(catalogue: Catalogue, productId: string): boolean {
  return catalogue.categories.some((category) =>
    category.price_bands.some((band) =>
      band.plans.some((plan) => plan.merchant_product_id === productId),
    ),
  );
}
