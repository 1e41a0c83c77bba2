import { randomInt } from "node:crypto";
import { toMinorUnits } from "../../../app/lib/money";
import type { GraphQLResolveInfo } from "../graphql-js";
import type { Metafield, MetafieldSetInput, Product, ProductSetInput } from "../../model";
import type { AdminContext, View } from "../context";
import { notEmulatedInput } from "../errors";
import { parseGid, toGid } from "../gid";
import { type MutationResolver, withoutIdempotency } from "../idempotency";
import {
  type MetafieldOwner,
  metafieldView,
  productView,
  resolveNamespace,
  shopView,
} from "../views/catalog";
import { refuseUnsupported, refused, userErrorsOf } from "./inputs";

interface OptionSetInput {
  name?: string | null;
  position?: number | null;
  values?: { name?: string | null }[] | null;
}

interface VariantSetInput {
  optionValues: { optionName?: string | null; name?: string | null }[];
  price?: string | null;
  sku?: string | null;
  taxable?: boolean | null;
  inventoryPolicy?: string | null;
  inventoryItem?: {
    requiresShipping?: boolean | null;
    tracked?: boolean | null;
    sku?: string | null;
  } | null;
  id?: string | null;
  position?: number | null;
}

interface MetafieldInput {
  namespace?: string | null;
  key?: string | null;
  type?: string | null;
  value?: string | null;
}

interface ProductSetArgs {
  input: {
    id?: string | null;
    title?: string | null;
    handle?: string | null;
    status?: Product["status"] | null;
    productType?: string | null;
    vendor?: string | null;
    tags?: string[] | null;
    productOptions?: OptionSetInput[] | null;
    variants?: VariantSetInput[] | null;
    metafields?: MetafieldInput[] | null;
  };
  synchronous?: boolean | null;
  identifier?: { id?: string | null; handle?: string | null; customId?: unknown } | null;
}

const DEFAULT_TITLE = "Default Title";

/** The option values a variant input names, in the order of the product's options. */
function selectedOptionsOf(
  options: readonly OptionSetInput[],
  variant: VariantSetInput,
  index: number,
): { name: string; value: string }[] {
  for (const value of variant.optionValues) {
    if (!options.some((option) => option.name === value.optionName)) {
      throw refused(
        `Option does not exist`,
        ["input", "variants", String(index), "optionValues"],
        "OPTION_DOES_NOT_EXIST",
      );
    }
  }
  return options.map((option) => {
    const value = variant.optionValues.find((given) => given.optionName === option.name)?.name;
    if (!value) {
      throw refused(
        `Variant is missing a value for the option ${option.name ?? ""}`,
        ["input", "variants", String(index), "optionValues"],
        "OPTION_VALUES_MISSING",
      );
    }
    if (!(option.values ?? []).some((known) => known.name === value)) {
      throw refused(
        `Option value ${value} does not exist on the option ${option.name ?? ""}`,
        ["input", "variants", String(index), "optionValues"],
        "OPTION_VALUE_DOES_NOT_EXIST",
      );
    }
    return { name: option.name ?? "", value };
  });
}

function priceOf(price: string | null | undefined, currency: string, index: number): number {
  if (price == null) return 0;
  try {
    return toMinorUnits(price, currency);
  } catch {
    throw refused(
      `Price is invalid`,
      ["input", "variants", String(index), "price"],
      "INVALID_VARIANT",
    );
  }
}

/** ProductSetInput (options, variants' option values, decimal prices) as the store's input. */
function toProductSetInput(
  context: AdminContext,
  info: GraphQLResolveInfo,
  args: ProductSetArgs,
  existing: Product | undefined,
): ProductSetInput {
  const { input } = args;
  const options = [...(input.productOptions ?? [])].sort(
    (a, b) => (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER),
  );
  const variants = input.variants ?? [];
  if (variants.some((variant) => variant.optionValues.length > 0) && options.length === 0) {
    throw refused(
      "Product options input is missing",
      ["input", "productOptions"],
      "PRODUCT_OPTIONS_INPUT_MISSING",
    );
  }
  const title = input.title ?? existing?.title;
  if (!title?.trim()) throw refused("Title can't be blank", ["input", "title"], "INVALID_PRODUCT");

  const variantInputs = variants.map((variant, index) => {
    refuseUnsupported(info, "ProductVariantSetInput", variant, [
      "optionValues",
      "price",
      "sku",
      "taxable",
      "inventoryPolicy",
      "inventoryItem",
      "id",
      "position",
    ]);
    if (variant.inventoryItem) {
      refuseUnsupported(info, "InventoryItemInput", variant.inventoryItem, [
        "requiresShipping",
        "tracked",
        "sku",
      ]);
    }
    const selectedOptions = options.length > 0 ? selectedOptionsOf(options, variant, index) : [];
    const variantId = variant.id ? parseGid(variant.id) : null;
    return {
      id: variantId?.type === "ProductVariant" ? variantId.id : undefined,
      title:
        selectedOptions.length > 0
          ? selectedOptions.map((o) => o.value).join(" / ")
          : DEFAULT_TITLE,
      sku: variant.sku ?? variant.inventoryItem?.sku ?? undefined,
      price: priceOf(variant.price, context.shop.currency, index),
      taxable: variant.taxable ?? undefined,
      requiresShipping: variant.inventoryItem?.requiresShipping ?? undefined,
      selectedOptions: selectedOptions.length > 0 ? selectedOptions : undefined,
    };
  });

  return {
    id: existing?.id,
    title,
    handle: input.handle ?? args.identifier?.handle ?? undefined,
    status: input.status ?? undefined,
    productType: input.productType ?? undefined,
    vendor: input.vendor ?? undefined,
    tags: input.tags ?? undefined,
    variants: variantInputs.length > 0 ? variantInputs : [{ title: DEFAULT_TITLE, price: 0 }],
  };
}

/** The product `productSet` replaces: by `input.id`, or by the identifier's ID or handle. */
function targetOf(context: AdminContext, args: ProductSetArgs): Product | undefined | null {
  if (args.identifier?.customId != null) throw notEmulatedInput("ProductSetIdentifiers.customId");
  const gid = args.input.id ?? args.identifier?.id;
  const domain = context.shop.domain;
  if (gid) {
    const { type, id } = parseGid(gid);
    return type === "Product" ? (context.state.product(domain, id) ?? null) : null;
  }
  // A handle that names no product creates one, as productSet upserts by identifier.
  const handle = args.identifier?.handle;
  if (handle) return context.state.products(domain).find((p) => p.handle === handle);
  return undefined;
}

function metafieldInputsOf(
  context: AdminContext,
  info: GraphQLResolveInfo,
  inputs: readonly MetafieldInput[],
): Omit<MetafieldSetInput, "ownerId">[] {
  return inputs.map((input, index) => {
    refuseUnsupported(info, "MetafieldInput", input, ["namespace", "key", "type", "value"]);
    if (!input.key || input.value == null || !input.type) {
      throw refused(
        "Metafields need a key, a type and a value",
        ["input", "metafields", String(index)],
        "INVALID_METAFIELD",
      );
    }
    return {
      namespace: resolveNamespace(input.namespace, context.appId),
      key: input.key,
      type: input.type,
      value: input.value,
    };
  });
}

const productSet: MutationResolver = (_parent, rawArgs, context, info) => {
  const args = rawArgs as unknown as ProductSetArgs;
  refuseUnsupported(info, "ProductSetInput", args.input, [
    "id",
    "title",
    "handle",
    "status",
    "productType",
    "vendor",
    "tags",
    "productOptions",
    "variants",
    "metafields",
  ]);
  for (const option of args.input.productOptions ?? []) {
    refuseUnsupported(info, "OptionSetInput", option, ["name", "position", "values"]);
  }
  return userErrorsOf(
    "ProductSetUserError",
    info,
    () => {
      const existing = targetOf(context, args);
      if (existing === null) {
        throw refused("Product does not exist", ["input", "id"], "PRODUCT_DOES_NOT_EXIST");
      }
      const domain = context.shop.domain;
      const productInput = toProductSetInput(context, info, args, existing);
      const metafields = metafieldInputsOf(context, info, args.input.metafields ?? []);
      const saved = context.state.setProduct(domain, productInput, context.actor);
      if (metafields.length > 0) {
        const owned = metafields.map((metafield) => ({ ...metafield, ownerId: saved.id }));
        context.state.setMetafields(domain, owned, context.actor);
      }
      const product = productView(context, context.state.product(domain, saved.id) ?? saved);
      const synchronous = args.synchronous !== false;
      return {
        __typename: "ProductSetPayload",
        product: synchronous ? product : null,
        productSetOperation: synchronous
          ? null
          : {
              __typename: "ProductSetOperation",
              id: toGid("ProductSetOperation", String(randomInt(1, 2 ** 47))),
              status: "COMPLETE",
              product,
              userErrors: [],
            },
        userErrors: [],
      };
    },
    (userErrors) => ({
      __typename: "ProductSetPayload",
      product: null,
      productSetOperation: null,
      userErrors,
    }),
  );
};

interface PublishArgs {
  id: string;
  input: {
    publicationId?: string | null;
    channelId?: string | null;
    publishDate?: string | null;
  }[];
}

function publishing(direction: "publish" | "unpublish"): MutationResolver {
  const payloadType =
    direction === "publish" ? "PublishablePublishPayload" : "PublishableUnpublishPayload";
  return (_parent, rawArgs, context, info) => {
    const args = rawArgs as unknown as PublishArgs;
    const { type, id } = parseGid(args.id);
    if (type !== "Product") throw notEmulatedInput(`Publishing a ${type}`);
    const publicationIds = args.input.map((entry, index) => {
      refuseUnsupported(info, "PublicationInput", entry, ["publicationId"]);
      return entry.publicationId ? { gid: entry.publicationId, index } : { gid: null, index };
    });
    return userErrorsOf(
      "UserError",
      info,
      () => {
        const domain = context.shop.domain;
        if (!context.state.product(domain, id)) throw refused("Product does not exist", ["id"]);
        const ids = publicationIds.map(({ gid, index }) => {
          const parsed = gid ? parseGid(gid) : null;
          if (parsed?.type !== "Publication") {
            throw refused("Publication does not exist", ["input", String(index), "publicationId"]);
          }
          return parsed.id;
        });
        const product =
          direction === "publish"
            ? context.state.publish(domain, id, ids, context.actor)
            : context.state.unpublish(domain, id, ids, context.actor);
        return {
          __typename: payloadType,
          publishable: productView(context, product),
          shop: shopView(context.shop),
          userErrors: [],
        };
      },
      (userErrors) => ({
        __typename: payloadType,
        publishable: null,
        shop: shopView(context.shop),
        userErrors,
      }),
    );
  };
}

interface MetafieldsSetArgs {
  metafields: {
    ownerId: string;
    namespace?: string | null;
    key: string;
    type?: string | null;
    value: string;
    compareDigest?: string | null;
  }[];
}

const METAFIELDS_SET_LIMIT = 25;

interface Owner {
  id: string;
  metafields: readonly Metafield[];
  view: MetafieldOwner;
}

/** The product or variant a metafield input names; a refusal when the shop has none. */
function ownerOf(context: AdminContext, ownerGid: string, index: number): Owner {
  const { type, id } = parseGid(ownerGid);
  const domain = context.shop.domain;
  if (type === "Product") {
    const product = context.state.product(domain, id);
    if (product) return { id, metafields: product.metafields, view: { type, product } };
  } else if (type === "ProductVariant") {
    const found = context.state.variant(domain, id);
    if (found) {
      return {
        id,
        metafields: found.variant.metafields,
        view: { type, product: found.product, variant: found.variant },
      };
    }
  }
  throw refused("Owner does not exist.", ["metafields", String(index), "ownerId"], "INVALID");
}

const metafieldsSet: MutationResolver = (_parent, rawArgs, context, info) => {
  const args = rawArgs as unknown as MetafieldsSetArgs;
  for (const input of args.metafields) {
    if (input.compareDigest != null) throw notEmulatedInput("MetafieldsSetInput.compareDigest");
  }
  const domain = context.shop.domain;
  const payload = (metafields: View[] | null, userErrors: View[]): View => ({
    __typename: "MetafieldsSetPayload",
    metafields,
    userErrors,
  });
  return userErrorsOf(
    "MetafieldsSetUserError",
    info,
    () => {
      if (args.metafields.length > METAFIELDS_SET_LIMIT) {
        throw refused(
          `Exceeded the maximum metafields input limit of ${METAFIELDS_SET_LIMIT}.`,
          ["metafields"],
          "LESS_THAN_OR_EQUAL_TO",
        );
      }
      const owners = args.metafields.map((input, index) => ownerOf(context, input.ownerId, index));
      const inputs: MetafieldSetInput[] = args.metafields.map((input, index) => {
        const namespace = resolveNamespace(input.namespace, context.appId);
        const owner = owners[index];
        const stored = owner?.metafields.find(
          (m) => m.namespace === namespace && m.key === input.key,
        );
        const type = input.type ?? stored?.type;
        if (!type)
          throw refused("Type can't be blank", ["metafields", String(index), "type"], "BLANK");
        return { ownerId: owner?.id ?? "", namespace, key: input.key, type, value: input.value };
      });
      const saved = context.state.setMetafields(domain, inputs, context.actor);
      const views = saved.flatMap((metafield, index) => {
        const owner = owners[index];
        return owner ? [metafieldView(context, metafield, owner.view)] : [];
      });
      return payload(views, []);
    },
    (userErrors) =>
      payload(
        [],
        userErrors.map((error) => {
          const index = Array.isArray(error.field) ? Number(error.field[1]) : Number.NaN;
          return { ...error, elementIndex: Number.isInteger(index) ? index : null };
        }),
      ),
  );
};

export const catalogMutations = {
  productSet: withoutIdempotency(productSet),
  publishablePublish: withoutIdempotency(publishing("publish")),
  publishableUnpublish: withoutIdempotency(publishing("unpublish")),
  metafieldsSet: withoutIdempotency(metafieldsSet),
};
