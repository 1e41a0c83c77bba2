import type { GraphQLResolveInfo } from "../graphql-js";
import type { Order, OrderSummary, Product } from "../../model";
import {
  connectionOf,
  parseSearchQuery,
  textMatcher,
  timeMatcher,
  type PageArgs,
  type SearchTerm,
} from "../connection";
import type { AdminContext, View } from "../context";
import { notEmulated, notEmulatedInput } from "../errors";
import { idOfType, parseGid, toGid } from "../gid";
import { productView, publicationView, shopView, variantView } from "../views/catalog";
import { bulkOperationView, findBulkOperation } from "./bulk";
import {
  fulfillmentOrderView,
  fulfillmentView,
  lineItemView,
  orderView,
  refundView,
  transactionView,
} from "../views/orders";

type RootResolver<Args> = (
  parent: unknown,
  args: Args,
  context: AdminContext,
  info: GraphQLResolveInfo,
) => unknown;

/** The order that holds a child (a refund, a fulfillment...), found by scanning the shop's orders. */
function findInOrders<T>(
  context: AdminContext,
  pick: (order: Order) => T | undefined,
): { order: Order; found: T } | undefined {
  for (const order of context.state.orders(context.shop.domain)) {
    const found = pick(order);
    if (found !== undefined) return { order, found };
  }
  return undefined;
}

/** `node(id:)`: the object a global ID names, null when the shop has none. */
export function resolveNode(
  context: AdminContext,
  gid: string,
  info: GraphQLResolveInfo,
): View | null {
  const { type, id } = parseGid(gid);
  const domain = context.shop.domain;
  switch (type) {
    case "Shop":
      return id === context.shop.id ? shopView(context.shop) : null;
    case "Product": {
      const product = context.state.product(domain, id);
      return product ? productView(context, product) : null;
    }
    case "ProductVariant": {
      const found = context.state.variant(domain, id);
      return found ? variantView(context, found.product, found.variant) : null;
    }
    case "Publication": {
      const publication = context.state.publications(domain).find((p) => p.id === id);
      return publication ? publicationView(publication) : null;
    }
    case "Order": {
      const order = context.state.order(domain, id);
      return order ? orderView(context, order) : null;
    }
    case "LineItem": {
      const hit = findInOrders(context, (order) => order.lineItems.find((line) => line.id === id));
      return hit ? lineItemView(context, hit.order, hit.found) : null;
    }
    case "Refund": {
      const hit = findInOrders(context, (order) =>
        order.refunds.find((refund) => refund.id === id),
      );
      return hit ? refundView(context, hit.order, hit.found) : null;
    }
    case "Fulfillment": {
      const hit = findInOrders(context, (order) => order.fulfillments.find((f) => f.id === id));
      return hit ? fulfillmentView(context, hit.order, hit.found) : null;
    }
    case "FulfillmentOrder": {
      const hit = findInOrders(context, (order) =>
        order.fulfillmentOrders.find((fo) => fo.id === id),
      );
      return hit ? fulfillmentOrderView(context, hit.order, hit.found) : null;
    }
    case "BulkOperation": {
      const operation = findBulkOperation(context, gid);
      return operation ? bulkOperationView(context, operation) : null;
    }
    case "OrderTransaction": {
      const hit = findInOrders(context, (order) => order.transactions.find((t) => t.id === id));
      return hit ? transactionView(context, hit.order, hit.found) : null;
    }
    default:
      if (info.schema.getType(type)) throw notEmulated("Node", type);
      return null;
  }
}

interface SearchArgs extends PageArgs {
  query?: string | null;
  sortKey?: string | null;
  savedSearchId?: string | null;
}

function termsOf(args: SearchArgs): SearchTerm[] {
  if (args.savedSearchId) throw notEmulatedInput("savedSearchId");
  return args.query ? parseSearchQuery(args.query) : [];
}

const PRODUCT_TEXT_FIELDS: Record<string, (product: Product) => readonly string[]> = {
  title: (product) => [product.title],
  handle: (product) => [product.handle],
  status: (product) => [product.status],
  product_type: (product) => [product.productType],
  vendor: (product) => [product.vendor],
  tag: (product) => product.tags,
};

/** A products search term as a test; an unemulated filter is refused before any product is read. */
function productMatcher(term: SearchTerm): (product: Product) => boolean {
  if (term.field === null) {
    const wanted = term.value.toLowerCase();
    return (product) => product.title.toLowerCase().includes(wanted) !== term.negated;
  }
  if (term.field === "created_at" || term.field === "updated_at") {
    const matches = timeMatcher(term);
    const field = term.field;
    return (product) => matches(field === "created_at" ? product.createdAt : product.updatedAt);
  }
  const values = PRODUCT_TEXT_FIELDS[term.field];
  if (!values || term.operator !== ":") {
    throw notEmulatedInput(
      `The products search filter ${term.field}:${term.operator === ":" ? "" : term.operator}`,
    );
  }
  const matches = textMatcher(term);
  return (product) => matches(values(product));
}

const PRODUCT_SORT: Record<string, (product: Product) => string | number> = {
  ID: (product) => Number(product.id),
  TITLE: (product) => product.title.toLowerCase(),
  CREATED_AT: (product) => Date.parse(product.createdAt),
  UPDATED_AT: (product) => Date.parse(product.updatedAt),
  PRODUCT_TYPE: (product) => product.productType.toLowerCase(),
  VENDOR: (product) => product.vendor.toLowerCase(),
};

/** An orders search term as a test; an unemulated filter is refused before any order is read. */
function orderMatcher(term: SearchTerm): (order: OrderSummary) => boolean {
  switch (term.field) {
    case "updated_at":
    case "created_at":
    case "processed_at": {
      const matches = timeMatcher(term);
      const read = {
        updated_at: "updatedAt",
        created_at: "createdAt",
        processed_at: "processedAt",
      } as const;
      const key = read[term.field];
      return (order) => matches(order[key]);
    }
    case "name": {
      const matches = textMatcher({
        ...term,
        value: term.value.startsWith("#") ? term.value : `#${term.value}`,
      });
      return (order) => matches([order.name]);
    }
    default:
      throw notEmulatedInput(`The orders search filter ${term.field ?? `"${term.value}"`}`);
  }
}

const ORDER_SORT: Record<string, (order: OrderSummary) => string | number> = {
  ID: (order) => Number(order.id),
  CREATED_AT: (order) => Date.parse(order.createdAt),
  UPDATED_AT: (order) => Date.parse(order.updatedAt),
  PROCESSED_AT: (order) => Date.parse(order.processedAt),
  ORDER_NUMBER: (order) => order.number,
};

function sortOf<T>(
  sorts: Record<string, (item: T) => string | number>,
  field: string,
  sortKey: string,
) {
  const sort = sorts[sortKey];
  if (!sort) throw notEmulatedInput(`${field}(sortKey: ${sortKey})`);
  return sort;
}

const shop: RootResolver<Record<string, never>> = (_parent, _args, context) =>
  shopView(context.shop);

/**
 * `app` without an ID: the calling app, with its scopes as shopify-app-remix's scopes API reads
 * them (requested, optional, and those the installation holds).
 */
const app: RootResolver<{ id?: string | null }> = (_parent, args, context) => {
  if (args.id) throw notEmulatedInput("QueryRoot.app(id:)");
  const scopes = (handles: readonly string[]) =>
    handles.map((handle) => ({ __typename: "AccessScope", handle, description: handle }));
  return {
    __typename: "App",
    id: toGid("App", context.appId),
    apiKey: context.shop.app.apiKey,
    requestedAccessScopes: scopes(context.appScopes.required),
    optionalAccessScopes: scopes(context.appScopes.optional),
    installation: {
      __typename: "AppInstallation",
      accessScopes: scopes(context.shop.installation?.scopes ?? []),
    },
  };
};

const node: RootResolver<{ id: string }> = (_parent, args, context, info) =>
  resolveNode(context, args.id, info);

/** Each ID on its own: a malformed or unemulated one is an error at its index, not the list's. */
const nodes: RootResolver<{ ids: string[] }> = (_parent, args, context, info) =>
  args.ids.map((id) => {
    try {
      return resolveNode(context, id, info);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  });

const products: RootResolver<SearchArgs> = (_parent, args, context) => {
  const matchers = termsOf(args).map(productMatcher);
  const sort = sortOf(PRODUCT_SORT, "products", args.sortKey ?? "ID");
  const selected = context.state
    .products(context.shop.domain)
    .filter((product) => matchers.every((matches) => matches(product)));
  return connectionOf(
    "ProductConnection",
    selected,
    args,
    { value: sort, id: (product) => product.id },
    (product) => productView(context, product),
  );
};

const product: RootResolver<{ id: string }> = (_parent, args, context) => {
  const id = idOfType(args.id, "Product");
  const found = id ? context.state.product(context.shop.domain, id) : undefined;
  return found ? productView(context, found) : null;
};

const productVariant: RootResolver<{ id: string }> = (_parent, args, context) => {
  const id = idOfType(args.id, "ProductVariant");
  const found = id ? context.state.variant(context.shop.domain, id) : undefined;
  return found ? variantView(context, found.product, found.variant) : null;
};

/** Every publication of the store is a sales channel's, whose catalog is an app catalog. */
const publications: RootResolver<PageArgs & { catalogType?: string | null }> = (
  _parent,
  args,
  context,
) => {
  const all = context.state.publications(context.shop.domain);
  const selected = args.catalogType == null || args.catalogType === "APP" ? all : [];
  return connectionOf(
    "PublicationConnection",
    selected,
    args,
    { value: (publication) => Number(publication.id), id: (publication) => publication.id },
    publicationView,
  );
};

function requireOrder(context: AdminContext, id: string): Order {
  const order = context.state.order(context.shop.domain, id);
  if (!order) throw new Error(`Order ${id} of ${context.shop.domain} disappeared while paging`);
  return order;
}

const orders: RootResolver<SearchArgs> = (_parent, args, context) => {
  const matchers = termsOf(args).map(orderMatcher);
  const sort = sortOf(ORDER_SORT, "orders", args.sortKey ?? "ID");
  const domain = context.shop.domain;
  const selected = context.state
    .orderSummaries(domain)
    .filter((order) => matchers.every((matches) => matches(order)));
  // Only the page's orders are read whole.
  return connectionOf(
    "OrderConnection",
    selected,
    args,
    { value: sort, id: (order) => order.id },
    (summary) => orderView(context, requireOrder(context, summary.id)),
  );
};

const order: RootResolver<{ id: string }> = (_parent, args, context) => {
  const id = idOfType(args.id, "Order");
  const found = id ? context.state.order(context.shop.domain, id) : undefined;
  return found ? orderView(context, found) : null;
};

export const queryResolvers = {
  shop,
  app,
  node,
  nodes,
  products,
  product,
  productVariant,
  publications,
  orders,
  order,
};
