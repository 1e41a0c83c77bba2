import {
  metafieldTypedValue,
  type Id,
  type Metafield,
  type Product,
  type StoreShop,
  type Variant,
} from "../../model";
import { connectionOf, type PageArgs } from "../connection";
import { type AdminContext, type View, withArgs } from "../context";
import { notEmulatedInput } from "../errors";
import { idOfType, toGid } from "../gid";
import { moneyAmount } from "./common";

const PLAN_NAMES: Record<StoreShop["plan"], string> = {
  standard: "Basic",
  advanced: "Advanced",
  plus: "Plus",
};

export function shopView(shop: StoreShop): View {
  return {
    __typename: "Shop",
    id: toGid("Shop", shop.id),
    name: shop.name,
    email: shop.email,
    contactEmail: shop.email,
    myshopifyDomain: shop.domain,
    currencyCode: shop.currency,
    ianaTimezone: shop.ianaTimezone,
    createdAt: shop.createdAt,
    plan: {
      __typename: "ShopPlan",
      displayName: PLAN_NAMES[shop.plan],
      publicDisplayName: PLAN_NAMES[shop.plan],
      partnerDevelopment: false,
      shopifyPlus: shop.plan === "plus",
    },
  };
}

/**
 * The namespace a metafield is stored under: the app's reserved "$app" (or "$app:sub") becomes
 * `app--<app id>` (`app--<app id>--sub`), and no namespace means the app's, as on Shopify.
 */
export function resolveNamespace(namespace: string | null | undefined, appId: Id): string {
  if (namespace == null || namespace === "$app") return `app--${appId}`;
  const sub = /^\$app:(.+)$/.exec(namespace)?.[1];
  return sub ? `app--${appId}--${sub}` : namespace;
}

export type MetafieldOwner =
  | { type: "Product"; product: Product }
  | { type: "ProductVariant"; product: Product; variant: Variant };

export function metafieldView(
  context: AdminContext,
  metafield: Metafield,
  owner: MetafieldOwner,
): View {
  return {
    __typename: "Metafield",
    id: toGid("Metafield", metafield.id),
    legacyResourceId: metafield.id,
    namespace: metafield.namespace,
    key: metafield.key,
    type: metafield.type,
    value: metafield.value,
    jsonValue: () => metafieldTypedValue(metafield, { decimalAsNumber: false }),
    createdAt: metafield.createdAt,
    updatedAt: metafield.updatedAt,
    ownerType: owner.type === "Product" ? "PRODUCT" : "PRODUCTVARIANT",
    owner: () =>
      owner.type === "Product"
        ? productView(context, owner.product)
        : variantView(context, owner.product, owner.variant),
  };
}

interface MetafieldArgs {
  namespace?: string | null;
  key: string;
}

interface MetafieldsArgs extends PageArgs {
  namespace?: string | null;
  keys?: string[] | null;
}

/** `metafield(namespace:, key:)` and `metafields(...)` of an owner. */
function metafieldFields(metafields: readonly Metafield[], owner: MetafieldOwner) {
  return {
    metafield: withArgs<MetafieldArgs>((args, context) => {
      const namespace = resolveNamespace(args.namespace, context.appId);
      const found = metafields.find((m) => m.namespace === namespace && m.key === args.key);
      return found ? metafieldView(context, found, owner) : null;
    }),
    metafields: withArgs<MetafieldsArgs>((args, context) => {
      const namespace =
        args.namespace == null ? null : resolveNamespace(args.namespace, context.appId);
      const selected = metafields.filter(
        (m) =>
          (namespace === null || m.namespace === namespace) &&
          (!args.keys || args.keys.includes(`${m.namespace}.${m.key}`)),
      );
      return connectionOf(
        "MetafieldConnection",
        selected,
        args,
        { value: (m) => Number(m.id), id: (m) => m.id },
        (m) => metafieldView(context, m, owner),
      );
    }),
  };
}

/** The product's publication check, by a `Publication` global ID. */
function publishedOn(product: Product) {
  return withArgs<{ publicationId: string }>((args) => {
    const publicationId = idOfType(args.publicationId, "Publication");
    return publicationId !== null && product.publicationIds.includes(publicationId);
  });
}

function selectedOptionsOf(variant: Variant): { name: string; value: string }[] {
  return variant.selectedOptions ?? [{ name: "Title", value: variant.title }];
}

/** The product's options, as its variants' selected options name them. */
function optionsOf(product: Product): View[] {
  const names: string[] = [];
  const values = new Map<string, string[]>();
  for (const variant of product.variants) {
    for (const option of selectedOptionsOf(variant)) {
      if (!values.has(option.name)) {
        names.push(option.name);
        values.set(option.name, []);
      }
      const known = values.get(option.name) ?? [];
      if (!known.includes(option.value)) known.push(option.value);
    }
  }
  return names.map((name, index) => ({
    __typename: "ProductOption",
    name,
    position: index + 1,
    values: values.get(name) ?? [],
  }));
}

export function variantView(context: AdminContext, product: Product, variant: Variant): View {
  const owner: MetafieldOwner = { type: "ProductVariant", product, variant };
  return {
    __typename: "ProductVariant",
    id: toGid("ProductVariant", variant.id),
    legacyResourceId: variant.id,
    title: variant.title,
    displayName: `${product.title} - ${variant.title}`,
    price: moneyAmount(variant.price, context.shop.currency),
    sku: variant.sku,
    taxable: variant.taxable,
    position: product.variants.indexOf(variant) + 1,
    selectedOptions: selectedOptionsOf(variant).map((option) => ({
      __typename: "SelectedOption",
      ...option,
    })),
    inventoryItem: { __typename: "InventoryItem", requiresShipping: variant.requiresShipping },
    product: () => productView(context, product),
    publishedOnPublication: publishedOn(product),
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
    ...metafieldFields(variant.metafields, owner),
  };
}

interface VariantsArgs extends PageArgs {
  sortKey?: string | null;
}

export function productView(context: AdminContext, product: Product): View {
  const owner: MetafieldOwner = { type: "Product", product };
  return {
    __typename: "Product",
    id: toGid("Product", product.id),
    legacyResourceId: product.id,
    title: product.title,
    handle: product.handle,
    status: product.status,
    productType: product.productType,
    vendor: product.vendor,
    tags: product.tags,
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
    hasOnlyDefaultVariant:
      product.variants.length === 1 && product.variants[0]?.title === "Default Title",
    options: () => optionsOf(product),
    variantsCount: { __typename: "Count", count: product.variants.length, precision: "EXACT" },
    variants: withArgs<VariantsArgs>((args) => {
      if (args.sortKey && args.sortKey !== "POSITION") {
        throw notEmulatedInput(`Product.variants(sortKey: ${args.sortKey})`);
      }
      return connectionOf(
        "ProductVariantConnection",
        product.variants,
        args,
        { value: (variant) => product.variants.indexOf(variant), id: (variant) => variant.id },
        (variant) => variantView(context, product, variant),
      );
    }),
    publishedOnPublication: publishedOn(product),
    ...metafieldFields(product.metafields, owner),
  };
}

export interface PublicationRecord {
  id: Id;
  name: string;
  catalogTitle: string;
}

export function publicationView(publication: PublicationRecord): View {
  const view: View = {
    __typename: "Publication",
    id: toGid("Publication", publication.id),
    name: publication.name,
    catalog: () => ({
      __typename: "AppCatalog",
      id: toGid("AppCatalog", publication.id),
      title: publication.catalogTitle,
      status: "ACTIVE",
      publication: view,
    }),
  };
  return view;
}
