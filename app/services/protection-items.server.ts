import type { AppPrismaClient } from "../db/client.server";
import { CREATE_PROTECTION_PRODUCT_MUTATION } from "../graphql/CreateProtectionProduct";
import { PROTECTION_ITEM_CANDIDATES_QUERY } from "../graphql/ProtectionItemCandidates";
import { SHOP_CURRENCY_QUERY } from "../graphql/ShopCurrency";
import {
  ONLINE_STORE_CATALOG_TITLE,
  ONLINE_STORE_PUBLICATION_QUERY,
} from "../graphql/OnlineStorePublication";
import { PROTECTION_PRODUCTS_PUBLISHED_QUERY } from "../graphql/ProtectionProductsPublished";
import { PUBLISH_PROTECTION_PRODUCT_MUTATION } from "../graphql/PublishProtectionProduct";
import type {
  CreateProtectionProductMutation,
  CreateProtectionProductMutationVariables,
} from "../../graphql/generated/admin.generated";
import { logger } from "../logger.server";
import { runAdminOperation, type AdminGraphql } from "./admin-api.server";
import { saveProtectionItems, type ProtectionItemInput } from "../models/ProtectionItem.server";
import { toMinorUnits } from "../lib/money";
import { numericIdOf, shopifyGid } from "../lib/shopify-id";
import { parsePricePoints, type PricePointIssue } from "../protection-items/price-points";
import type { MappingStrategy } from "../protection-items/strategies";

type ProductSetUserError = NonNullable<
  CreateProtectionProductMutation["productSet"]
>["userErrors"][number];

/** The one option of the protection product: each price point is one of its values. */
export const PLAN_OPTION_NAME = "Plan";
const PRODUCT_TYPE = "Product protection";
const PRODUCT_TAG = "svc-protection";
/** `seo.hidden` = 1 keeps a product out of storefront search, recommendations and sitemaps. */
const SEO_HIDDEN = { namespace: "seo", key: "hidden", type: "number_integer", value: "1" };

export interface CreateProtectionProductInput {
  title: string;
  category: string | null;
  /** The merchant's list of prices, in the shop's currency. */
  prices: string;
}

export type CreateProtectionProductResult =
  | {
      status: "created";
      productId: string;
      productTitle: string;
      itemCount: number;
      currency: string;
      /** Whether the product was made available on the Online Store; the items are kept either way. */
      onlineStore: OnlineStorePublishResult;
    }
  | { status: "invalid_prices"; currency: string; issues: PricePointIssue[] }
  | { status: "user_errors"; userErrors: ProductSetUserError[] }
  | { status: "shopify_error"; message: string }
  /** Shopify created the product, but the items could not be stored: the merchant must know. */
  | { status: "save_failed"; productId: string; message: string };

/** The protection product's option value, and so its variant, for one price point. */
function planOptionValue(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}

/** The variables of the productSet call: pure, so the test can compare them as they are. */
export function protectionProductVariables(
  title: string,
  currency: string,
  amounts: readonly string[],
): CreateProtectionProductMutationVariables {
  const optionValue = (amount: string) => planOptionValue(amount, currency);
  return {
    synchronous: true,
    productSet: {
      title,
      status: "UNLISTED",
      productType: PRODUCT_TYPE,
      tags: [PRODUCT_TAG],
      metafields: [SEO_HIDDEN],
      productOptions: [
        {
          name: PLAN_OPTION_NAME,
          position: 1,
          values: amounts.map((amount) => ({ name: optionValue(amount) })),
        },
      ],
      variants: amounts.map((amount) => ({
        optionValues: [{ optionName: PLAN_OPTION_NAME, name: optionValue(amount) }],
        price: amount,
        taxable: false,
        inventoryPolicy: "CONTINUE",
        inventoryItem: { tracked: false, requiresShipping: false },
      })),
    },
  };
}

/**
 * Creates the shop's one-to-many protection product: one unlisted product, hidden from search,
 * with one variant per price point (no shipping, no tax, no inventory), then stores each
 * variant as a protection item. The prices are checked against the shop's currency first, so
 * a bad price creates nothing.
 */
export async function createProtectionProduct(
  graphql: AdminGraphql,
  db: AppPrismaClient,
  shop: string,
  input: CreateProtectionProductInput,
): Promise<CreateProtectionProductResult> {
  const currencyResult = await runAdminOperation(
    graphql,
    shop,
    "ShopCurrency",
    SHOP_CURRENCY_QUERY,
    {},
  );
  if (!currencyResult.ok) return { status: "shopify_error", message: currencyResult.message };
  const currency = currencyResult.data.shop.currencyCode;

  const parsed = parsePricePoints(input.prices, currency);
  if (!parsed.ok) return { status: "invalid_prices", currency, issues: parsed.issues };

  const variables = protectionProductVariables(
    input.title,
    currency,
    parsed.pricePoints.map((point) => point.amount),
  );
  const created = await runAdminOperation(
    graphql,
    shop,
    "CreateProtectionProduct",
    CREATE_PROTECTION_PRODUCT_MUTATION,
    variables,
  );
  if (!created.ok) return { status: "shopify_error", message: created.message };
  const payload = created.data.productSet;
  if (payload && payload.userErrors.length > 0) {
    logger.warn({ shop, userErrors: payload.userErrors }, "CreateProtectionProduct user errors");
    return { status: "user_errors", userErrors: payload.userErrors };
  }
  const product = payload?.product;
  const productId = product ? numericIdOf(product.id, "Product") : null;
  if (!product || !productId) {
    return { status: "shopify_error", message: "CreateProtectionProduct returned no product" };
  }
  // The product exists from here on: a failure to publish it is reported, never undone.
  const onlineStore = await publishToOnlineStore(graphql, shop, product.id);

  const byOption = new Map(
    product.variants.nodes.map((variant) => [
      variant.selectedOptions.find((option) => option.name === PLAN_OPTION_NAME)?.value,
      variant,
    ]),
  );
  const items: ProtectionItemInput[] = [];
  for (const point of parsed.pricePoints) {
    const variant = byOption.get(planOptionValue(point.amount, currency));
    const variantId = variant ? numericIdOf(variant.id, "ProductVariant") : null;
    if (!variant || !variantId) {
      const message = `Shopify created product ${productId} without a variant for ${point.amount} ${currency}`;
      logger.error({ shop, productId }, message);
      return { status: "save_failed", productId, message };
    }
    items.push({
      strategy: "one_to_many",
      productId,
      variantId,
      title: `${product.title} - ${variant.title}`,
      priceAmount: point.minorUnits,
      currency,
      category: input.category,
      createdByApp: true,
    });
  }

  try {
    await saveProtectionItems(db, shop, items);
  } catch (error) {
    const message = `Failed to save the protection items of product ${productId}: ${
      error instanceof Error ? error.message : String(error)
    }`;
    logger.error({ shop, productId, err: error }, message);
    return { status: "save_failed", productId, message };
  }
  logger.info(
    { shop, productId, items: items.length, onlineStore: onlineStore.status },
    "Created the protection product",
  );
  return {
    status: "created",
    productId,
    productTitle: product.title,
    itemCount: items.length,
    currency,
    onlineStore,
  };
}

/** What became of making a product available on the Online Store sales channel. */
export type OnlineStorePublishResult =
  | { status: "published" }
  /** The shop has no Online Store sales channel (a headless or retail-only shop). */
  | { status: "no_online_store" }
  /** The app lacks `write_publications`: installed before it was asked for, not yet approved. */
  | { status: "access_denied" }
  | { status: "user_errors"; message: string }
  | { status: "failed"; message: string };

export type OnlineStorePublishStatus = OnlineStorePublishResult["status"];

type PublicationLookup =
  | { ok: true; publicationId: string }
  | {
      ok: false;
      result: Exclude<OnlineStorePublishResult, { status: "published" | "user_errors" }>;
    };

/** The Online Store's publication: the sales channel's app catalog is titled "Online Store". */
async function findOnlineStorePublication(
  graphql: AdminGraphql,
  shop: string,
): Promise<PublicationLookup> {
  const found = await runAdminOperation(
    graphql,
    shop,
    "OnlineStorePublication",
    ONLINE_STORE_PUBLICATION_QUERY,
    {},
  );
  if (!found.ok) {
    return {
      ok: false,
      result: found.accessDenied
        ? { status: "access_denied" }
        : { status: "failed", message: found.message },
    };
  }
  const publication = found.data.publications.nodes.find(
    (node) => node.catalog?.title === ONLINE_STORE_CATALOG_TITLE,
  );
  if (!publication) {
    logger.warn({ shop }, "The shop has no Online Store publication");
    return { ok: false, result: { status: "no_online_store" } };
  }
  return { ok: true, publicationId: publication.id };
}

/**
 * Makes a product available on the Online Store sales channel, so that the storefront can add
 * its variants to carts. An `UNLISTED` product stays out of search, collections and
 * recommendations. Every failure comes back as a result for the merchant to act on.
 */
export async function publishToOnlineStore(
  graphql: AdminGraphql,
  shop: string,
  productGid: string,
): Promise<OnlineStorePublishResult> {
  const lookup = await findOnlineStorePublication(graphql, shop);
  if (!lookup.ok) return lookup.result;
  const published = await runAdminOperation(
    graphql,
    shop,
    "PublishProtectionProduct",
    PUBLISH_PROTECTION_PRODUCT_MUTATION,
    { id: productGid, input: [{ publicationId: lookup.publicationId }] },
  );
  if (!published.ok) {
    return published.accessDenied
      ? { status: "access_denied" }
      : { status: "failed", message: published.message };
  }
  const userErrors = published.data.publishablePublish?.userErrors ?? [];
  if (userErrors.length > 0) {
    logger.warn({ shop, productGid, userErrors }, "PublishProtectionProduct user errors");
    return { status: "user_errors", message: userErrors.map((error) => error.message).join(" ") };
  }
  if (!published.data.publishablePublish) {
    return { status: "failed", message: "PublishProtectionProduct returned no payload" };
  }
  return { status: "published" };
}

/** Whether each product is on the Online Store, as Shopify has it now. */
export type OnlineStoreCheck =
  | { status: "checked"; products: { productId: string; title: string; published: boolean }[] }
  | { status: "no_online_store" }
  | { status: "access_denied" }
  | { status: "failed" };

/** Products asked about at once: `nodes(ids:)` takes up to 250 IDs. */
const MAX_CHECKED_PRODUCTS = 250;

/**
 * Asks Shopify whether the given products (numeric IDs) are on the Online Store's publication.
 * A product Shopify no longer has is left out. Nothing is stored.
 */
export async function checkOnlineStore(
  graphql: AdminGraphql,
  shop: string,
  productIds: readonly string[],
): Promise<OnlineStoreCheck> {
  // Sorted, so that the same products make the same query whatever order the list had.
  const ids = [...new Set(productIds)].sort().slice(0, MAX_CHECKED_PRODUCTS);
  if (ids.length === 0) return { status: "checked", products: [] };
  const lookup = await findOnlineStorePublication(graphql, shop);
  if (!lookup.ok) {
    return lookup.result.status === "failed" ? { status: "failed" } : lookup.result;
  }
  const checked = await runAdminOperation(
    graphql,
    shop,
    "ProtectionProductsPublished",
    PROTECTION_PRODUCTS_PUBLISHED_QUERY,
    {
      ids: ids.map((id) => shopifyGid("Product", id)),
      publicationId: lookup.publicationId,
    },
  );
  if (!checked.ok) return checked.accessDenied ? { status: "access_denied" } : { status: "failed" };
  const asked = new Set(ids);
  // In the order of `ids`: null for a product that no longer exists.
  const products = checked.data.nodes.flatMap((product) => {
    if (product?.__typename !== "Product") return [];
    const productId = numericIdOf(product.id, "Product");
    if (!productId || !asked.has(productId)) return [];
    return [{ productId, title: product.title, published: product.publishedOnPublication }];
  });
  return { status: "checked", products };
}

export interface MapProtectionItemsInput {
  /** Global IDs of products (all their variants) and variants, from the resource picker. */
  ids: string[];
  strategy: MappingStrategy;
  category: string | null;
}

export type MapProtectionItemsResult =
  | { status: "mapped"; itemCount: number }
  | { status: "not_found"; ids: string[] }
  | { status: "shopify_error"; message: string }
  | { status: "save_failed"; message: string };

function variantTitle(productTitle: string, variantTitle: string): string {
  return variantTitle === "Default Title" ? productTitle : `${productTitle} - ${variantTitle}`;
}

/**
 * Makes variants the shop already sells protection items. They are loaded from Shopify rather
 * than taken from the browser, so title, price and product are Shopify's own. A one-to-all
 * item has a dynamic price: none is stored.
 */
export async function mapExistingProtectionItems(
  graphql: AdminGraphql,
  db: AppPrismaClient,
  shop: string,
  input: MapProtectionItemsInput,
): Promise<MapProtectionItemsResult> {
  const loaded = await runAdminOperation(
    graphql,
    shop,
    "ProtectionItemCandidates",
    PROTECTION_ITEM_CANDIDATES_QUERY,
    { ids: input.ids },
  );
  if (!loaded.ok) return { status: "shopify_error", message: loaded.message };
  const currency = loaded.data.shop.currencyCode;

  const missing: string[] = [];
  const variants: {
    variant: { id: string; title: string; price: string };
    product: { id: string; title: string };
  }[] = [];
  // In the order of `ids`: null for an ID that names nothing, another __typename for another type.
  loaded.data.nodes.forEach((node, index) => {
    if (node?.__typename === "ProductVariant") {
      variants.push({ variant: node, product: node.product });
    } else if (node?.__typename === "Product") {
      for (const variant of node.variants.nodes) variants.push({ variant, product: node });
    } else {
      missing.push(input.ids[index] ?? "");
    }
  });
  if (missing.length > 0) return { status: "not_found", ids: missing };

  const items = new Map<string, ProtectionItemInput>();
  for (const { variant, product } of variants) {
    const variantId = numericIdOf(variant.id, "ProductVariant");
    const productId = numericIdOf(product.id, "Product");
    if (!variantId || !productId) return { status: "not_found", ids: [variant.id] };
    const dynamic = input.strategy === "one_to_all";
    items.set(variantId, {
      strategy: input.strategy,
      productId,
      variantId,
      title: variantTitle(product.title, variant.title),
      priceAmount: dynamic ? null : toMinorUnits(variant.price, currency),
      currency: dynamic ? null : currency,
      category: input.category,
      createdByApp: false,
    });
  }

  try {
    await saveProtectionItems(db, shop, [...items.values()]);
  } catch (error) {
    const message = `Failed to save ${items.size} mapped protection items: ${
      error instanceof Error ? error.message : String(error)
    }`;
    logger.error({ shop, err: error }, message);
    return { status: "save_failed", message };
  }
  return { status: "mapped", itemCount: items.size };
}

/** Where a productSet user error belongs in the create form. */
export function formFieldOfUserError(
  field: readonly string[] | null | undefined,
): "title" | "prices" | "form" {
  const path = field ?? [];
  if (path.includes("title") || path.includes("handle")) return "title";
  if (path.some((part) => ["variants", "productOptions", "price", "optionValues"].includes(part))) {
    return "prices";
  }
  return "form";
}
