/*
 * The local Shopify store's data (the back office): what one process keeps per shop, in memory.
 * The GraphQL resolvers, the control API and the webhook payloads all read these shapes, so a
 * product the app creates is the product it later reads and an order the app refunds is the order
 * whose refunds/create it receives.
 *
 * IDs are decimal strings: Shopify's numeric IDs pass 2^53 (the store starts above it, so an app
 * that parses them as JS numbers fails here as it would in production). Money is an integer count
 * of the currency's minor units (cents; 0 decimals for JPY, 3 for KWD); `currencyDecimals` says
 * how to write it.
 */

export type Id = string;

/** Shopify's plan names that set the Admin API's restore rate (points per second). */
export type ShopPlan = "standard" | "advanced" | "plus";

export interface StoreShop {
  /** The myshopify domain, e.g. "demo.myshopify.com". */
  domain: string;
  id: Id;
  name: string;
  email: string;
  currency: string;
  currencyDecimals: number;
  ianaTimezone: string;
  plan: ShopPlan;
  /** The app this shop has (one app per shop, as a test store for one app). */
  app: { url: string; apiKey: string; apiSecret: string };
  installation: Installation | null;
  onlineStorePublicationId: Id;
  locationId: Id;
  createdAt: string;
}

export interface Installation {
  scopes: string[];
  /** The current offline access token: non-expiring until the app asks for expiring ones. */
  offlineAccessToken: string;
  /** When the current token expires (ISO 8601); null for a non-expiring token. */
  offlineAccessTokenExpiresAt: string | null;
  installedAt: string;
}

export interface Metafield {
  id: Id;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * A metafield's stored text as the value a reader gets: JSON and lists parsed (the text itself
 * if it does not parse), booleans and integers as such. A decimal stays text unless
 * `decimalAsNumber`: Liquid reads it as a number, the Admin API's `jsonValue` keeps its digits.
 */
export function metafieldTypedValue(
  metafield: Metafield,
  { decimalAsNumber }: { decimalAsNumber: boolean },
): unknown {
  if (metafield.type === "json" || metafield.type.startsWith("list.")) {
    try {
      return JSON.parse(metafield.value) as unknown;
    } catch {
      return metafield.value;
    }
  }
  if (metafield.type === "boolean") return metafield.value === "true";
  if (metafield.type === "number_integer") return Number.parseInt(metafield.value, 10);
  if (metafield.type === "number_decimal" && decimalAsNumber) return Number(metafield.value);
  return metafield.value;
}

export interface Product {
  id: Id;
  title: string;
  handle: string;
  status: "ACTIVE" | "ARCHIVED" | "DRAFT" | "UNLISTED";
  productType: string;
  vendor: string;
  tags: string[];
  /** Publication IDs the product is published to. */
  publicationIds: Id[];
  metafields: Metafield[];
  variants: Variant[];
  createdAt: string;
  updatedAt: string;
}

export interface Variant {
  id: Id;
  productId: Id;
  title: string;
  sku: string;
  /** Minor units of the shop's currency. */
  price: number;
  requiresShipping: boolean;
  taxable: boolean;
  grams: number;
  metafields: Metafield[];
  /** The option values that name the variant ("Plan" → "10.00 EUR"); none: Shopify's "Title". */
  selectedOptions?: { name: string; value: string }[];
}

export interface Customer {
  id: Id;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
}

export interface Order {
  id: Id;
  name: string;
  number: number;
  token: string;
  cartToken: string | null;
  checkoutToken: string | null;
  email: string;
  currency: string;
  presentmentCurrency: string;
  customer: Customer | null;
  /** Cart attributes, in order. */
  noteAttributes: { name: string; value: string }[];
  note: string | null;
  tags: string[];
  test: boolean;
  sourceName: string;
  lineItems: LineItem[];
  transactions: Transaction[];
  refunds: Refund[];
  fulfillments: Fulfillment[];
  fulfillmentOrders: FulfillmentOrder[];
  edits: OrderEdit[];
  cancelledAt: string | null;
  cancelReason: "customer" | "declined" | "fraud" | "inventory" | "other" | "staff" | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  processedAt: string;
}

/** The fields orders are searched and sorted by. */
export type OrderSummary = Pick<
  Order,
  "id" | "name" | "number" | "createdAt" | "updatedAt" | "processedAt"
>;

export interface LineItem {
  id: Id;
  variantId: Id | null;
  productId: Id | null;
  title: string;
  variantTitle: string | null;
  name: string;
  sku: string | null;
  vendor: string | null;
  /** Unit price, minor units. */
  price: number;
  /** As ordered; edits add line items or change `currentQuantity`, as on Shopify. */
  quantity: number;
  /** After edits and removals (refunds with restock and cancels lower it, as on Shopify). */
  currentQuantity: number;
  properties: { name: string; value: string }[];
  requiresShipping: boolean;
  taxable: boolean;
  grams: number;
  giftCard: boolean;
}

export interface Transaction {
  id: Id;
  kind: "SALE" | "REFUND" | "VOID" | "AUTHORIZATION" | "CAPTURE";
  status: "SUCCESS" | "FAILURE" | "PENDING";
  gateway: string;
  /** Minor units. */
  amount: number;
  parentId: Id | null;
  createdAt: string;
}

export interface RefundLine {
  id: Id;
  lineItemId: Id;
  quantity: number;
  restockType: "no_restock" | "cancel" | "return" | "legacy_restock";
  locationId: Id | null;
  /** Minor units. */
  subtotal: number;
  totalTax: number;
}

export interface Refund {
  id: Id;
  orderId: Id;
  note: string | null;
  restock: boolean;
  lines: RefundLine[];
  /** IDs of the REFUND transactions in `Order.transactions`. */
  transactionIds: Id[];
  /** Set when an app made it through the Admin API. */
  appId: Id | null;
  createdAt: string;
  processedAt: string;
}

export interface Fulfillment {
  id: Id;
  orderId: Id;
  name: string;
  status: "success" | "cancelled" | "error" | "failure" | "pending" | "open";
  shipmentStatus: string | null;
  locationId: Id;
  trackingCompany: string | null;
  trackingNumbers: string[];
  trackingUrls: string[];
  lines: { lineItemId: Id; quantity: number }[];
  /** Whether the customer was sent the shipping confirmation (fulfillmentCreate's notifyCustomer). */
  notifyCustomer?: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface FulfillmentOrder {
  id: Id;
  orderId: Id;
  status: "OPEN" | "IN_PROGRESS" | "CLOSED" | "CANCELLED";
  assignedLocationId: Id;
  /**
   * The third-party fulfilment service the fulfilment order is assigned to, by name; absent or
   * null for the merchant's own location. Only the service fulfils it: Shopify lists no
   * CREATE_FULFILLMENT among its supported actions.
   */
  fulfillmentService?: string | null;
  lines: { id: Id; lineItemId: Id; totalQuantity: number; remainingQuantity: number }[];
}

/** An order edit: begun (a CalculatedOrder), staged, then committed or left. */
export interface OrderEdit {
  /** The CalculatedOrder ID orderEditBegin returns. */
  id: Id;
  orderId: Id;
  /** Line item ID → the quantity staged for it. */
  stagedQuantities: Record<Id, number>;
  appId: Id | null;
  staffNote: string;
  notifyCustomer: boolean;
  committedAt: string | null;
  createdAt: string;
  /** Filled on commit: the net changes the orders/edited payload reports. */
  lineItemChanges: {
    additions: { id: Id; delta: number }[];
    removals: { id: Id; delta: number }[];
  };
}

/*
 * The contract between the store's parts. `StoreState` (store/state.ts) implements it; the
 * GraphQL resolvers (store/graphql/), the control API and OAuth (store/server/) call it; every
 * change that Shopify announces with a webhook is reported to the `WebhookSink` as a topic and
 * a body already in Shopify's shape (store/payloads/).
 */

/** A webhook body in Shopify's shape, ready to sign and post (IDs above 2^53 written exactly). */
export interface WebhookBody {
  /** The JSON text as Shopify would send it. */
  json: string;
  /** The subject's admin_graphql_api_id, e.g. "gid://shopify/Order/…", for logs and event IDs. */
  subjectGid: string;
}

export type WebhookTopic =
  | "app/uninstalled"
  | "app/scopes_update"
  | "orders/create"
  | "orders/updated"
  | "orders/paid"
  | "orders/fulfilled"
  | "orders/partially_fulfilled"
  | "orders/cancelled"
  | "orders/edited"
  | "refunds/create"
  | "fulfillments/create"
  | "fulfillments/update"
  | "products/create"
  | "products/update"
  | "bulk_operations/finish"
  | "customers/data_request"
  | "customers/redact"
  | "shop/redact";

/**
 * Shopify's mandatory compliance topics. Unlike every other topic they reach an app that has been
 * uninstalled: shop/redact comes 48 hours after the uninstall, a customer's redaction may come
 * months after the order.
 */
export const COMPLIANCE_TOPICS: readonly WebhookTopic[] = [
  "customers/data_request",
  "customers/redact",
  "shop/redact",
];

export function isComplianceTopic(topic: string): boolean {
  return (COMPLIANCE_TOPICS as readonly string[]).includes(topic);
}

export type WebhookSink = (shop: StoreShop, topic: WebhookTopic, body: WebhookBody) => void;

/** Who asked for a change: the merchant in the admin (control API) or the app (Admin API). */
export type Actor = { kind: "merchant" } | { kind: "app"; appId: Id };

/** A change Shopify refuses, with the field and message of its `userErrors`. */
export class StoreUserError extends Error {
  override name = "StoreUserError";
  constructor(
    message: string,
    readonly field: string[] | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** A customer's request to see their data (customers/data_request). */
export interface CustomerDataRequest {
  /** The request's own ID (`data_request.id`). */
  id: Id;
  customer: Customer;
  /** The customer's orders in this shop, oldest first. */
  orderIds: Id[];
}

/** The erasure of a customer's data (customers/redact). */
export interface CustomerRedaction {
  customer: Customer;
  /** The customer's orders in this shop, oldest first. */
  orderIds: Id[];
}

/** A change of the installed app's granted scopes (app/scopes_update). */
export interface ScopesChange {
  id: Id;
  previous: string[];
  current: string[];
  updatedAt: string;
}

export interface NewOrderInput {
  lineItems: {
    variantId?: Id;
    title?: string;
    /** Minor units; defaults to the variant's price. */
    price?: number;
    quantity: number;
    properties?: { name: string; value: string }[];
    requiresShipping?: boolean;
    /**
     * A third-party fulfilment service that stocks the item: the line goes to a fulfilment order
     * at the service's location, which only the service fulfils.
     */
    fulfillmentService?: string;
  }[];
  currency?: string;
  customer?: Partial<Omit<Customer, "id">>;
  noteAttributes?: { name: string; value: string }[];
  cartToken?: string | null;
  email?: string;
  sourceName?: string;
}

/** A line of the seed catalogue: a variant of the shop, or a custom line with its price. */
export interface SeedLine {
  variantId?: Id;
  title?: string;
  /** Minor units; the variant's own price when absent. */
  price?: number;
  requiresShipping?: boolean;
}

/** The share (0 to 1) of seeded orders that get each treatment. */
export interface SeedShares {
  /** A plan line protecting one of the order's variants. */
  protected: number;
  /** An edit that adds a unit to the first line. */
  edited: number;
  /** Every line that needs shipping shipped. */
  fulfilled: number;
  /** One unit of the first line refunded, without restock. */
  refunded: number;
}

/** Many orders at once, for benchmarks: no webhooks, times spread over a window of the past. */
export interface SeedOrdersInput {
  count: number;
  /** The catalogue orders pick 1 to 3 lines from; by default the first variant of each product. */
  lineItems?: SeedLine[];
  /** The plan line; by default a custom "Protection plan" at a tenth of what it protects. */
  plan?: SeedLine;
  shares?: Partial<SeedShares>;
  /** ISO 8601; by default the 30 days up to now. The window may not end after now. */
  createdFrom?: string;
  createdTo?: string;
  /** The random sequence's seed: the same input seeds the same orders. */
  seed?: number;
}

export interface SeedOrdersResult {
  count: number;
  firstOrderId: Id;
  lastOrderId: Id;
  createdFrom: string;
  createdTo: string;
  protected: number;
  edited: number;
  fulfilled: number;
  refunded: number;
}

export interface NewShopInput {
  domain: string;
  appUrl: string;
  apiKey: string;
  apiSecret: string;
  currency?: string;
  plan?: ShopPlan;
}

/** A shipment's tracking, as the admin and fulfillmentCreate's trackingInfo take it. */
export interface Tracking {
  company?: string;
  number?: string;
  url?: string;
}

/** What a fulfillments/update changes: tracking, or the carrier's shipment status. */
export interface FulfillmentUpdate {
  tracking?: Tracking;
  shipmentStatus?: string;
}

export interface StoreActions {
  createShop(input: NewShopInput): StoreShop;
  shop(domain: string): StoreShop | undefined;
  shops(): StoreShop[];
  /** Records the grant; returns the installation with its offline access token. */
  install(domain: string, scopes: string[]): Installation;
  /** Removes the installation and its token, and fires app/uninstalled. */
  uninstall(domain: string): void;
  /**
   * Makes `token` the installation's offline access token (expiring at `expiresAt`, or never
   * with null): the one it replaces no longer opens the Admin API.
   */
  replaceOfflineToken(domain: string, token: string, expiresAt: string | null): Installation;
  shopByAccessToken(token: string): StoreShop | undefined;

  products(domain: string): Product[];
  product(domain: string, id: Id): Product | undefined;
  variant(domain: string, id: Id): { product: Product; variant: Variant } | undefined;
  /** productSet: creates or (with `id`) replaces a product and its variants. */
  setProduct(domain: string, input: ProductSetInput, actor: Actor): Product;
  publish(domain: string, productId: Id, publicationIds: Id[], actor: Actor): Product;
  unpublish(domain: string, productId: Id, publicationIds: Id[], actor: Actor): Product;
  /** metafieldsSet: upserts by owner, namespace and key; all or nothing. */
  setMetafields(domain: string, inputs: MetafieldSetInput[], actor: Actor): Metafield[];
  publications(domain: string): { id: Id; name: string; catalogTitle: string }[];

  orders(domain: string): Order[];
  /**
   * What searching and sorting orders reads, without copying whole orders: a page of a large
   * shop then copies only its own orders (`order`).
   */
  orderSummaries(domain: string): OrderSummary[];
  order(domain: string, id: Id): Order | undefined;
  /** A paid order; fires orders/create (and orders/paid). */
  createOrder(domain: string, input: NewOrderInput): Order;
  /** Fires fulfillments/create, orders/fulfilled or orders/partially_fulfilled, orders/updated. */
  fulfil(
    domain: string,
    orderId: Id,
    lines: { lineItemId: Id; quantity: number }[],
    actor: Actor,
    tracking?: Tracking,
    /** notifyCustomer defaults to true, as the admin's checkbox; locationId to the shop's. */
    options?: { notifyCustomer?: boolean; locationId?: Id },
  ): Fulfillment;
  /**
   * A shipment's news on a fulfillment: tracking changed or the carrier's status (in_transit,
   * delivered, ...). Fires fulfillments/update and orders/updated; quantities do not change.
   */
  updateFulfillment(
    domain: string,
    orderId: Id,
    fulfillmentId: Id,
    input: FulfillmentUpdate,
    actor: Actor,
  ): Fulfillment;
  /**
   * Refunds line quantities (and their share of the payment) to the original payment method;
   * fires refunds/create and orders/updated. `amount` (minor units) overrides the computed one.
   */
  refund(
    domain: string,
    orderId: Id,
    input: {
      lines: { lineItemId: Id; quantity: number; restockType: RefundLine["restockType"] }[];
      note?: string | null;
      amount?: number;
    },
    actor: Actor,
  ): Refund;
  /** What refunding these quantities would return, as suggestedRefund answers. */
  suggestRefund(
    domain: string,
    orderId: Id,
    lines: { lineItemId: Id; quantity: number }[],
  ): { amount: number; lines: RefundLine[] };
  /** Fires orders/cancelled (after refunds/create when `refund` is true) and orders/updated. */
  cancel(
    domain: string,
    orderId: Id,
    input: { reason?: Order["cancelReason"]; refund?: boolean; restock?: boolean },
    actor: Actor,
  ): Order;
  beginEdit(domain: string, orderId: Id, actor: Actor): OrderEdit;
  stageQuantity(domain: string, editId: Id, lineItemId: Id, quantity: number): OrderEdit;
  /** Applies the staged quantities; fires orders/edited and orders/updated. */
  commitEdit(
    domain: string,
    editId: Id,
    input: { notifyCustomer?: boolean; staffNote?: string },
  ): Order;
  /**
   * Creates `count` orders through the same rules as the actions above (some edited, fulfilled
   * or refunded) without firing a webhook, their times spread over the window: a benchmark's shop.
   */
  seedOrders(domain: string, input: SeedOrdersInput): SeedOrdersResult;

  /** The shop's customers (created by its orders, one per e-mail address), oldest first. */
  customers(domain: string): Customer[];
  /** Fires customers/data_request with the customer's details and order IDs. */
  requestCustomerData(domain: string, customerId: Id): CustomerDataRequest;
  /** Fires customers/redact with the customer's details and order IDs. */
  redactCustomer(domain: string, customerId: Id): CustomerRedaction;
  /** Fires shop/redact; only once the app has been uninstalled, as Shopify sends it 48 h after. */
  redactShop(domain: string): void;
  /** Changes the installed app's granted scopes; fires app/scopes_update with both lists. */
  updateScopes(domain: string, scopes: string[]): ScopesChange;
  /** Wipes every shop, order and product. */
  reset(): void;
}

export interface ProductSetInput {
  id?: Id;
  title: string;
  handle?: string;
  status?: Product["status"];
  productType?: string;
  vendor?: string;
  tags?: string[];
  variants: {
    id?: Id;
    title: string;
    sku?: string;
    price: number;
    taxable?: boolean;
    requiresShipping?: boolean;
    /** Kept on the variant as `selectedOptions`; the title is their values joined by " / ". */
    selectedOptions?: { name: string; value: string }[];
  }[];
}

export interface MetafieldSetInput {
  ownerId: Id;
  /** As stored: the app's "$app" namespace already resolved to "app--<app id>". */
  namespace: string;
  key: string;
  type: string;
  value: string;
}
