import { randomBytes } from "node:crypto";
import { currencyExponent } from "../app/lib/money";
import { MonotonicClock } from "./clock";
import { IdSequence } from "./ids";
import {
  StoreUserError,
  isComplianceTopic,
  type Actor,
  type Customer,
  type CustomerDataRequest,
  type CustomerRedaction,
  type Fulfillment,
  type FulfillmentOrder,
  type FulfillmentUpdate,
  type Id,
  type Installation,
  type LineItem,
  type Metafield,
  type MetafieldSetInput,
  type NewOrderInput,
  type NewShopInput,
  type Order,
  type OrderEdit,
  type OrderSummary,
  type Product,
  type ProductSetInput,
  type Refund,
  type RefundLine,
  type ScopesChange,
  type SeedLine,
  type SeedOrdersInput,
  type SeedOrdersResult,
  type ShopPlan,
  type StoreActions,
  type StoreShop,
  type Tracking,
  type Transaction,
  type Variant,
  type WebhookBody,
  type WebhookSink,
  type WebhookTopic,
} from "./model";
import {
  DEFAULT_SEED_PLAN,
  PROTECTED_PRODUCT_REF,
  planSeededOrder,
  seedOrderInput,
  seededRandom,
  seedShares,
  seedWindow,
  type SeedCatalogueEntry,
  type SeedPlanEntry,
} from "./seed-orders";
import {
  appScopesUpdateWebhookBody,
  appUninstalledWebhookBody,
  customersDataRequestWebhookBody,
  customersRedactWebhookBody,
  fulfillmentWebhookBody,
  orderEditWebhookBody,
  orderWebhookBody,
  refundWebhookBody,
  shopRedactWebhookBody,
} from "./payloads";

/*
 * The store's back office in memory: shops, their catalog and orders, and the rules Shopify
 * applies when the merchant or the app changes them. Every accepted change is reported to the
 * webhook sink after the state has changed, in the order Shopify sends the topics; a refused one
 * throws a StoreUserError and changes nothing. Callers get copies: only these methods change
 * the state.
 */

export interface StoreStateOptions {
  onWebhook?: WebhookSink;
  now?: () => Date;
}

export interface Publication {
  id: Id;
  name: string;
  catalogTitle: string;
}

interface ShopRecord {
  shop: StoreShop;
  publications: Publication[];
  products: Map<Id, Product>;
  orders: Map<Id, Order>;
  /** By email, so a returning customer keeps one ID. */
  customers: Map<string, Customer>;
  nextOrderNumber: number;
  /** Whether the app has ever been installed: Shopify's compliance webhooks outlive the install. */
  hadApp: boolean;
  /** The locations of the fulfilment services orders named, by service name. */
  serviceLocations: Map<string, Id>;
}

const PLANS: readonly ShopPlan[] = ["standard", "advanced", "plus"];
const PRODUCT_STATUSES: readonly Product["status"][] = ["ACTIVE", "ARCHIVED", "DRAFT", "UNLISTED"];
const CANCEL_REASONS: readonly NonNullable<Order["cancelReason"]>[] = [
  "customer",
  "declined",
  "fraud",
  "inventory",
  "other",
  "staff",
];
const RESTOCK_TYPES: readonly RefundLine["restockType"][] = [
  "no_restock",
  "cancel",
  "return",
  "legacy_restock",
];
const FIRST_ORDER_NUMBER = 1001;
const DEFAULT_VARIANT_TITLE = "Default Title";
const DEFAULT_TIMEZONE = "America/New_York";
/** A development store pays with Shopify's test gateway, and its orders are test orders. */
const PAYMENT_GATEWAY = "bogus";
const METAFIELDS_PER_CALL = 25;

function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

function copy<T>(value: T): T {
  return structuredClone(value);
}

function isCount(value: number, minimum: number): boolean {
  return Number.isSafeInteger(value) && value >= minimum;
}

/** Shopify's handle: the title in lower case, accents dropped, anything else between words a dash. */
function handleOf(text: string): string {
  const handle = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return handle === "" ? "product" : handle;
}

/** "my-demo-shop" → "My Demo Shop". */
function shopNameOf(subdomain: string): string {
  return subdomain
    .split("-")
    .filter((word) => word !== "")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/*
 * Quantities of one line item, as Shopify derives them from the order's history. Which units a
 * refund takes (still to ship, or already shipped) depends on what was fulfilled when it was
 * made, so the history is replayed in time order: the store's clock never repeats a timestamp.
 */

export interface LineItemQuantities {
  /** The ordered quantity after committed edits. */
  ordered: number;
  fulfilled: number;
  refunded: number;
  /** What a refund can still take: ordered − refunded (edits' removals are out of `ordered`). */
  refundable: number;
  /** Units neither fulfilled nor refunded (a cancelled order's removed units included). */
  unfulfilledUnrefunded: number;
  /** Fulfilled units not refunded yet: what a "return" can take back. */
  fulfilledUnrefunded: number;
  /** What is left to fulfil: 0 once the order is cancelled. */
  fulfillable: number;
  /** Shopify's currentQuantity: without units removed by edits, restocking refunds or cancelling. */
  current: number;
}

interface LinePools {
  ordered: number;
  fulfilled: number;
  refundedFromUnfulfilled: number;
  refundedFromFulfilled: number;
  restockedFromUnfulfilled: number;
  restockedFromFulfilled: number;
}

interface RefundSplit {
  fromUnfulfilled: number;
  fromFulfilled: number;
}

/*
 * "cancel" takes units not shipped yet and "return" shipped ones. Without a restock, a refund
 * counts against shipped units first, as Shopify's fulfillable quantity does
 * (quantity − max(refunded, fulfilled)); the old "legacy_restock" restocks unshipped units first.
 */
function splitRefund(
  pools: LinePools,
  quantity: number,
  restockType: RefundLine["restockType"],
): RefundSplit {
  const unfulfilled = Math.max(0, pools.ordered - pools.fulfilled - pools.refundedFromUnfulfilled);
  const fulfilled = Math.max(0, pools.fulfilled - pools.refundedFromFulfilled);
  switch (restockType) {
    case "cancel":
      return { fromUnfulfilled: quantity, fromFulfilled: 0 };
    case "return":
      return { fromUnfulfilled: 0, fromFulfilled: quantity };
    case "no_restock": {
      const fromFulfilled = Math.min(quantity, fulfilled);
      return { fromUnfulfilled: quantity - fromFulfilled, fromFulfilled };
    }
    case "legacy_restock": {
      const fromUnfulfilled = Math.min(quantity, unfulfilled);
      return { fromUnfulfilled, fromFulfilled: quantity - fromUnfulfilled };
    }
  }
}

function applyRefundLine(
  pools: LinePools,
  quantity: number,
  restockType: RefundLine["restockType"],
): void {
  const split = splitRefund(pools, quantity, restockType);
  pools.refundedFromUnfulfilled += split.fromUnfulfilled;
  pools.refundedFromFulfilled += split.fromFulfilled;
  if (restockType !== "no_restock") {
    pools.restockedFromUnfulfilled += split.fromUnfulfilled;
    pools.restockedFromFulfilled += split.fromFulfilled;
  }
}

function quantitiesOf(pools: LinePools, cancelled: boolean): LineItemQuantities {
  const refunded = pools.refundedFromUnfulfilled + pools.refundedFromFulfilled;
  const unfulfilledUnrefunded = Math.max(
    0,
    pools.ordered - pools.fulfilled - pools.refundedFromUnfulfilled,
  );
  return {
    ordered: pools.ordered,
    fulfilled: pools.fulfilled,
    refunded,
    refundable: Math.max(0, pools.ordered - refunded),
    unfulfilledUnrefunded,
    fulfilledUnrefunded: Math.max(0, pools.fulfilled - pools.refundedFromFulfilled),
    fulfillable: cancelled ? 0 : unfulfilledUnrefunded,
    // Cancelling removes every unit that was not shipped; what stays is what the customer has.
    current: cancelled
      ? Math.max(0, pools.fulfilled - pools.restockedFromFulfilled)
      : Math.max(0, pools.ordered - pools.restockedFromUnfulfilled - pools.restockedFromFulfilled),
  };
}

type OrderHistoryEntry =
  | { at: number; kind: "fulfillment"; fulfillment: Fulfillment }
  | { at: number; kind: "edit"; edit: OrderEdit }
  | { at: number; kind: "refund"; refund: Refund };

function historyOf(order: Order): OrderHistoryEntry[] {
  const entries: OrderHistoryEntry[] = [
    ...order.fulfillments
      .filter((fulfillment) => fulfillment.status === "success")
      .map((fulfillment) => ({
        at: Date.parse(fulfillment.createdAt),
        kind: "fulfillment" as const,
        fulfillment,
      })),
    ...order.edits.flatMap((edit) =>
      edit.committedAt === null
        ? []
        : [{ at: Date.parse(edit.committedAt), kind: "edit" as const, edit }],
    ),
    ...order.refunds.map((refund) => ({
      at: Date.parse(refund.createdAt),
      kind: "refund" as const,
      refund,
    })),
  ];
  // A stable sort keeps each kind in its own order where timestamps tie.
  return entries.sort((a, b) => a.at - b.at);
}

function poolsOf(order: Order, lineItem: LineItem): LinePools {
  const pools: LinePools = {
    ordered: lineItem.quantity,
    fulfilled: 0,
    refundedFromUnfulfilled: 0,
    refundedFromFulfilled: 0,
    restockedFromUnfulfilled: 0,
    restockedFromFulfilled: 0,
  };
  for (const entry of historyOf(order)) {
    if (entry.kind === "fulfillment") {
      for (const line of entry.fulfillment.lines) {
        if (line.lineItemId === lineItem.id) pools.fulfilled += line.quantity;
      }
    } else if (entry.kind === "edit") {
      const { additions, removals } = entry.edit.lineItemChanges;
      for (const change of additions) if (change.id === lineItem.id) pools.ordered += change.delta;
      for (const change of removals) if (change.id === lineItem.id) pools.ordered -= change.delta;
    } else {
      for (const line of entry.refund.lines) {
        if (line.lineItemId === lineItem.id)
          applyRefundLine(pools, line.quantity, line.restockType);
      }
    }
  }
  return pools;
}

/** The line item's quantities as Shopify reports them (refundable, fulfillable, current). */
export function lineItemQuantities(order: Order, lineItemId: Id): LineItemQuantities | undefined {
  const lineItem = order.lineItems.find((line) => line.id === lineItemId);
  if (!lineItem) return undefined;
  return quantitiesOf(poolsOf(order, lineItem), order.cancelledAt !== null);
}

/** What can still be refunded to the payment method: successful sales less refunds. */
export function refundableAmount(order: Order): number {
  let amount = 0;
  for (const transaction of order.transactions) {
    if (transaction.status !== "SUCCESS") continue;
    if (transaction.kind === "SALE" || transaction.kind === "CAPTURE") amount += transaction.amount;
    if (transaction.kind === "REFUND") amount -= transaction.amount;
  }
  return Math.max(0, amount);
}

interface RefundLineRequest {
  lineItemId: Id;
  quantity: number;
  restockType: RefundLine["restockType"];
}

interface RefundRequest {
  lines: RefundLineRequest[];
  note?: string | null;
  amount?: number;
}

interface PlannedRefund {
  lines: Omit<RefundLine, "id">[];
  /** The line subtotals, before the cap by what the payment can still return. */
  linesSubtotal: number;
}

export class StoreState implements StoreActions {
  private readonly ids = new IdSequence();
  /** Replaced only while seeding, whose changes happen at planned times of the past. */
  private clock: MonotonicClock;
  private webhookSink: WebhookSink | undefined;
  /** While seeding: changes fire no webhooks. */
  private silent = false;
  private readonly shopRecords = new Map<string, ShopRecord>();

  constructor(options: StoreStateOptions = {}) {
    this.clock = new MonotonicClock(options.now);
    this.webhookSink = options.onWebhook;
  }

  setWebhookSink(sink: WebhookSink | undefined): void {
    this.webhookSink = sink;
  }

  /** Wipes every shop. IDs and the clock keep counting, so nothing from before is reused. */
  reset(): void {
    this.shopRecords.clear();
  }

  // Shops and installation

  createShop(input: NewShopInput): StoreShop {
    const domain = input.domain.trim().toLowerCase();
    const subdomain = /^([a-z0-9][a-z0-9-]*)\.myshopify\.com$/.exec(domain)?.[1];
    if (subdomain === undefined) {
      throw new StoreUserError(
        `Shop domain ${JSON.stringify(input.domain)} must look like <name>.myshopify.com`,
        ["domain"],
        "INVALID",
      );
    }
    if (this.shopRecords.has(domain)) {
      throw new StoreUserError(`Shop ${domain} already exists`, ["domain"], "TAKEN");
    }
    const currency = (input.currency ?? "EUR").toUpperCase();
    let currencyDecimals: number;
    try {
      currencyDecimals = currencyExponent(currency);
    } catch {
      throw new StoreUserError(
        `Currency ${JSON.stringify(input.currency)} is not an ISO 4217 code`,
        ["currency"],
        "INVALID",
      );
    }
    const plan = input.plan ?? "standard";
    if (!PLANS.includes(plan)) {
      throw new StoreUserError(
        `Plan ${JSON.stringify(plan)} is not one of ${PLANS.join(", ")}`,
        ["plan"],
        "INVALID",
      );
    }
    if (!isHttpUrl(input.appUrl)) {
      throw new StoreUserError(
        `App URL ${JSON.stringify(input.appUrl)} is not an http(s) URL`,
        ["appUrl"],
        "INVALID",
      );
    }
    if (input.apiKey.trim() === "" || input.apiSecret.trim() === "") {
      throw new StoreUserError("The app's API key and secret are required", ["apiKey"], "BLANK");
    }

    const onlineStore: Publication = {
      id: this.ids.nextId(),
      name: "Online Store",
      catalogTitle: "Online Store",
    };
    const pointOfSale: Publication = {
      id: this.ids.nextId(),
      name: "Point of Sale",
      catalogTitle: "Point of Sale",
    };
    const shop: StoreShop = {
      domain,
      id: this.ids.nextId(),
      name: shopNameOf(subdomain),
      email: `${subdomain}@example.com`,
      currency,
      currencyDecimals,
      ianaTimezone: DEFAULT_TIMEZONE,
      plan,
      app: { url: input.appUrl, apiKey: input.apiKey, apiSecret: input.apiSecret },
      installation: null,
      onlineStorePublicationId: onlineStore.id,
      locationId: this.ids.nextId(),
      createdAt: this.clock.tick(),
    };
    this.shopRecords.set(domain, {
      shop,
      publications: [onlineStore, pointOfSale],
      products: new Map(),
      orders: new Map(),
      customers: new Map(),
      nextOrderNumber: FIRST_ORDER_NUMBER,
      hadApp: false,
      serviceLocations: new Map(),
    });
    return copy(shop);
  }

  shop(domain: string): StoreShop | undefined {
    const record = this.shopRecords.get(domain.toLowerCase());
    return record && copy(record.shop);
  }

  shops(): StoreShop[] {
    return [...this.shopRecords.values()].map((record) => copy(record.shop));
  }

  /** A grant while installed changes the scopes and keeps the token, as Shopify's offline token. */
  install(domain: string, scopes: string[]): Installation {
    const record = this.requireShop(domain);
    const { shop } = record;
    const grantedScopes = scopeList(scopes);
    shop.installation = shop.installation
      ? { ...shop.installation, scopes: grantedScopes }
      : {
          scopes: grantedScopes,
          offlineAccessToken: `shpat_${randomHex(16)}`,
          offlineAccessTokenExpiresAt: null,
          installedAt: this.clock.tick(),
        };
    record.hadApp = true;
    return copy(shop.installation);
  }

  updateScopes(domain: string, scopes: string[]): ScopesChange {
    const record = this.requireShop(domain);
    const { shop } = record;
    if (!shop.installation) {
      throw new StoreUserError(`The app is not installed on ${shop.domain}`, null, "INVALID");
    }
    const previous = shop.installation.scopes;
    const current = scopeList(scopes);
    // Shopify announces a modification only: the same scopes in another order are no change.
    if ([...previous].sort().join(",") === [...current].sort().join(",")) {
      throw new StoreUserError(
        `The app already has exactly these scopes on ${shop.domain}`,
        ["scopes"],
        "UNCHANGED",
      );
    }
    const change: ScopesChange = {
      id: this.ids.nextId(),
      previous: [...previous],
      current,
      updatedAt: this.clock.tick(),
    };
    shop.installation.scopes = [...current];
    this.announce(record, "app/scopes_update", () => appScopesUpdateWebhookBody(shop, change));
    return copy(change);
  }

  uninstall(domain: string): void {
    const record = this.requireShop(domain);
    if (!record.shop.installation) {
      throw new StoreUserError(
        `The app is not installed on ${record.shop.domain}`,
        null,
        "INVALID",
      );
    }
    record.shop.installation = null;
    this.announce(record, "app/uninstalled", () => appUninstalledWebhookBody(record.shop));
  }

  /** Sent 48 hours after an uninstall on Shopify; here when asked, and only after one. */
  redactShop(domain: string): void {
    const record = this.requireShop(domain);
    const { shop } = record;
    if (shop.installation) {
      throw new StoreUserError(
        `The app is still installed on ${shop.domain}: Shopify sends shop/redact only after an uninstall`,
        null,
        "INVALID",
      );
    }
    if (!record.hadApp) {
      throw new StoreUserError(
        `The app was never installed on ${shop.domain}: there is nothing to redact`,
        null,
        "INVALID",
      );
    }
    this.announce(record, "shop/redact", () => shopRedactWebhookBody(shop));
  }

  replaceOfflineToken(domain: string, token: string, expiresAt: string | null): Installation {
    const { shop } = this.requireShop(domain);
    if (!shop.installation) {
      throw new StoreUserError(`The app is not installed on ${shop.domain}`, null, "INVALID");
    }
    shop.installation.offlineAccessToken = token;
    shop.installation.offlineAccessTokenExpiresAt = expiresAt;
    return copy(shop.installation);
  }

  shopByAccessToken(token: string): StoreShop | undefined {
    for (const record of this.shopRecords.values()) {
      if (token !== "" && record.shop.installation?.offlineAccessToken === token) {
        return copy(record.shop);
      }
    }
    return undefined;
  }

  // Catalog

  products(domain: string): Product[] {
    const record = this.shopRecords.get(domain.toLowerCase());
    return record ? [...record.products.values()].map(copy) : [];
  }

  product(domain: string, id: Id): Product | undefined {
    const product = this.shopRecords.get(domain.toLowerCase())?.products.get(id);
    return product && copy(product);
  }

  variant(domain: string, id: Id): { product: Product; variant: Variant } | undefined {
    const record = this.shopRecords.get(domain.toLowerCase());
    const found = record && findVariant(record, id);
    if (!found) return undefined;
    const product = copy(found.product);
    const variant = product.variants.find((candidate) => candidate.id === id);
    return variant && { product, variant };
  }

  publications(domain: string): Publication[] {
    return copy(this.shopRecords.get(domain.toLowerCase())?.publications ?? []);
  }

  setProduct(domain: string, input: ProductSetInput, _actor: Actor): Product {
    const record = this.requireShop(domain);
    const existing = input.id === undefined ? undefined : record.products.get(input.id);
    if (input.id !== undefined && !existing) {
      throw new StoreUserError("Product does not exist", ["input", "id"], "PRODUCT_DOES_NOT_EXIST");
    }
    const title = input.title.trim();
    if (title === "") {
      throw new StoreUserError("Title can't be blank", ["input", "title"], "BLANK");
    }
    if (input.status !== undefined && !PRODUCT_STATUSES.includes(input.status)) {
      throw new StoreUserError(
        `Status ${JSON.stringify(input.status)} is not valid`,
        ["input", "status"],
        "INVALID",
      );
    }
    const handle = this.productHandle(record, input, existing);
    const variants = this.productVariants(input, existing);

    const at = this.clock.tick();
    const productId = existing?.id ?? this.ids.nextId();
    const product: Product = {
      id: productId,
      title,
      handle,
      status: input.status ?? existing?.status ?? "ACTIVE",
      productType: input.productType ?? existing?.productType ?? "",
      vendor: input.vendor ?? existing?.vendor ?? record.shop.name,
      tags: input.tags ? [...input.tags] : (existing?.tags ?? []),
      publicationIds: existing?.publicationIds ?? [],
      metafields: existing?.metafields ?? [],
      variants: variants.map((variant) => ({
        id: variant.id ?? this.ids.nextId(),
        productId,
        title: variant.title,
        sku: variant.sku,
        price: variant.price,
        requiresShipping: variant.requiresShipping,
        taxable: variant.taxable,
        grams: variant.grams,
        metafields: variant.metafields,
        ...optionsOf(variant.selectedOptions),
      })),
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    record.products.set(productId, product);
    return copy(product);
  }

  /** The given handle if free, else the title's, made unique as Shopify does ("-1", "-2"). */
  private productHandle(
    record: ShopRecord,
    input: ProductSetInput,
    existing: Product | undefined,
  ): string {
    const takenByOthers = new Set(
      [...record.products.values()]
        .filter((product) => product.id !== existing?.id)
        .map((product) => product.handle),
    );
    if (input.handle !== undefined) {
      const handle = handleOf(input.handle);
      if (takenByOthers.has(handle)) {
        throw new StoreUserError(
          `Handle '${handle}' already in use. Please provide a new handle.`,
          ["input", "handle"],
          "HANDLE_NOT_UNIQUE",
        );
      }
      return handle;
    }
    if (existing) return existing.handle;
    const base = handleOf(input.title);
    let handle = base;
    for (let suffix = 1; takenByOthers.has(handle); suffix += 1) handle = `${base}-${suffix}`;
    return handle;
  }

  /** productSet's variants replace the product's: listed IDs are kept, the others deleted. */
  private productVariants(
    input: ProductSetInput,
    existing: Product | undefined,
  ): (Omit<Variant, "id" | "productId"> & { id: Id | undefined })[] {
    const requested =
      input.variants.length > 0 ? input.variants : [{ title: DEFAULT_VARIANT_TITLE, price: 0 }];
    const titles = new Set<string>();
    return requested.map((variant, index) => {
      const field = ["input", "variants", String(index)];
      const kept =
        variant.id === undefined
          ? undefined
          : existing?.variants.find((candidate) => candidate.id === variant.id);
      if (variant.id !== undefined && !kept) {
        throw new StoreUserError(
          `Variant ${variant.id} does not exist on this product`,
          [...field, "id"],
          "PRODUCT_VARIANT_DOES_NOT_EXIST",
        );
      }
      const title = variant.title.trim();
      if (title === "") {
        throw new StoreUserError("Variant title can't be blank", [...field, "title"], "BLANK");
      }
      if (titles.has(title.toLowerCase())) {
        throw new StoreUserError(
          `The variant '${title}' already exists.`,
          [...field, "title"],
          "DUPLICATED_OPTION_VALUE",
        );
      }
      titles.add(title.toLowerCase());
      if (!isCount(variant.price, 0)) {
        throw new StoreUserError(
          "Price must be a whole number of minor units, 0 or more",
          [...field, "price"],
          "INVALID_VARIANT",
        );
      }
      return {
        id: kept?.id,
        title,
        sku: variant.sku ?? kept?.sku ?? "",
        price: variant.price,
        requiresShipping: variant.requiresShipping ?? kept?.requiresShipping ?? true,
        taxable: variant.taxable ?? kept?.taxable ?? true,
        ...optionsOf(variant.selectedOptions ?? kept?.selectedOptions),
        grams: kept?.grams ?? 0,
        metafields: kept?.metafields ?? [],
      };
    });
  }

  publish(domain: string, productId: Id, publicationIds: Id[], _actor: Actor): Product {
    return this.changePublications(domain, productId, publicationIds, (product, ids) => {
      for (const id of ids)
        if (!product.publicationIds.includes(id)) product.publicationIds.push(id);
    });
  }

  unpublish(domain: string, productId: Id, publicationIds: Id[], _actor: Actor): Product {
    return this.changePublications(domain, productId, publicationIds, (product, ids) => {
      product.publicationIds = product.publicationIds.filter((id) => !ids.includes(id));
    });
  }

  private changePublications(
    domain: string,
    productId: Id,
    publicationIds: Id[],
    change: (product: Product, publicationIds: Id[]) => void,
  ): Product {
    const record = this.requireShop(domain);
    const product = record.products.get(productId);
    if (!product) throw new StoreUserError("Product does not exist", ["id"], "NOT_FOUND");
    publicationIds.forEach((publicationId, index) => {
      if (!record.publications.some((publication) => publication.id === publicationId)) {
        throw new StoreUserError(
          `Publication ${publicationId} does not exist`,
          ["input", String(index), "publicationId"],
          "NOT_FOUND",
        );
      }
    });
    change(product, publicationIds);
    product.updatedAt = this.clock.tick();
    return copy(product);
  }

  setMetafields(domain: string, inputs: MetafieldSetInput[], _actor: Actor): Metafield[] {
    const record = this.requireShop(domain);
    if (inputs.length > METAFIELDS_PER_CALL) {
      throw new StoreUserError(
        `Exceeded the maximum metafields input limit of ${METAFIELDS_PER_CALL}.`,
        ["metafields"],
        "LESS_THAN_OR_EQUAL_TO",
      );
    }
    // Every input is checked before any is written: metafieldsSet is all or nothing.
    const writes = inputs.map((input, index) => {
      const owner = metafieldOwner(record, input.ownerId);
      const problem = owner
        ? metafieldProblem(input)
        : { field: "ownerId", message: "Owner does not exist.", code: "INVALID" };
      if (!owner || problem) {
        throw new StoreUserError(
          problem?.message ?? "Owner does not exist.",
          ["metafields", String(index), problem?.field ?? "ownerId"],
          problem?.code ?? "INVALID",
        );
      }
      return { input, owner };
    });
    return writes.map(({ input, owner }) => {
      const at = this.clock.tick();
      const existing = owner.metafields.find(
        (metafield) => metafield.namespace === input.namespace && metafield.key === input.key,
      );
      if (existing) {
        existing.type = input.type;
        existing.value = input.value;
        existing.updatedAt = at;
        return copy(existing);
      }
      const created: Metafield = {
        id: this.ids.nextId(),
        namespace: input.namespace,
        key: input.key,
        type: input.type,
        value: input.value,
        createdAt: at,
        updatedAt: at,
      };
      owner.metafields.push(created);
      return copy(created);
    });
  }

  // Customers and their privacy requests

  customers(domain: string): Customer[] {
    const record = this.shopRecords.get(domain.toLowerCase());
    return record ? customersOf(record).map(copy) : [];
  }

  requestCustomerData(domain: string, customerId: Id): CustomerDataRequest {
    const record = this.requireShop(domain);
    const request: CustomerDataRequest = {
      id: this.ids.nextId(),
      ...requireCustomerWithOrders(record, customerId),
    };
    const { shop } = record;
    this.announce(record, "customers/data_request", () =>
      customersDataRequestWebhookBody(shop, request),
    );
    return copy(request);
  }

  /** The store keeps its own copy: only the app is asked to erase what it holds. */
  redactCustomer(domain: string, customerId: Id): CustomerRedaction {
    const record = this.requireShop(domain);
    const redaction = requireCustomerWithOrders(record, customerId);
    const { shop } = record;
    this.announce(record, "customers/redact", () => customersRedactWebhookBody(shop, redaction));
    return copy(redaction);
  }

  // Orders

  orders(domain: string): Order[] {
    const record = this.shopRecords.get(domain.toLowerCase());
    return record ? [...record.orders.values()].map(copy) : [];
  }

  orderSummaries(domain: string): OrderSummary[] {
    const record = this.shopRecords.get(domain.toLowerCase());
    if (!record) return [];
    return [...record.orders.values()].map(
      ({ id, name, number, createdAt, updatedAt, processedAt }) => ({
        id,
        name,
        number,
        createdAt,
        updatedAt,
        processedAt,
      }),
    );
  }

  order(domain: string, id: Id): Order | undefined {
    const order = this.shopRecords.get(domain.toLowerCase())?.orders.get(id);
    return order && copy(order);
  }

  createOrder(domain: string, input: NewOrderInput): Order {
    const record = this.requireShop(domain);
    const { shop } = record;
    if (input.currency !== undefined && input.currency.toUpperCase() !== shop.currency) {
      throw new StoreUserError(
        `This store sells in ${shop.currency} only; the order asked for ${input.currency}`,
        ["currency"],
        "INVALID",
      );
    }
    if (input.lineItems.length === 0) {
      throw new StoreUserError("An order needs at least one line item", ["lineItems"], "BLANK");
    }
    const lineItems = input.lineItems.map((line, index) => this.newLineItem(record, line, index));
    const total = lineItems.reduce((sum, line) => sum + line.price * line.quantity, 0);
    if (!Number.isSafeInteger(total)) {
      throw new StoreUserError("The order's total is too large", ["lineItems"], "INVALID");
    }

    const at = this.clock.tick();
    const orderId = this.ids.nextId();
    const number = record.nextOrderNumber;
    record.nextOrderNumber += 1;
    const transactions: Transaction[] =
      total > 0
        ? [
            {
              id: this.ids.nextId(),
              kind: "SALE",
              status: "SUCCESS",
              gateway: PAYMENT_GATEWAY,
              amount: total,
              parentId: null,
              createdAt: at,
            },
          ]
        : [];
    const customer = input.customer ? this.customerFor(record, input.customer, input.email) : null;
    const order: Order = {
      id: orderId,
      name: `#${number}`,
      number,
      token: randomHex(16),
      cartToken: input.cartToken ?? null,
      checkoutToken: randomHex(16),
      email: input.email ?? customer?.email ?? "",
      currency: shop.currency,
      presentmentCurrency: shop.currency,
      customer,
      noteAttributes: (input.noteAttributes ?? []).map(({ name, value }) => ({ name, value })),
      note: null,
      tags: [],
      test: true,
      sourceName: input.sourceName ?? "web",
      lineItems,
      transactions,
      refunds: [],
      fulfillments: [],
      fulfillmentOrders: this.newFulfillmentOrders(
        record,
        orderId,
        lineItems.map((line, index) => ({
          line,
          service: input.lineItems[index]?.fulfillmentService ?? null,
        })),
      ),
      edits: [],
      cancelledAt: null,
      cancelReason: null,
      closedAt: null,
      createdAt: at,
      updatedAt: at,
      processedAt: at,
    };
    record.orders.set(orderId, order);
    this.announce(record, "orders/create", () => orderWebhookBody(shop, order));
    this.announce(record, "orders/paid", () => orderWebhookBody(shop, order));
    return copy(order);
  }

  private newLineItem(
    record: ShopRecord,
    input: NewOrderInput["lineItems"][number],
    index: number,
  ): LineItem {
    const field = ["lineItems", String(index)];
    if (!isCount(input.quantity, 1)) {
      throw new StoreUserError(
        "Quantity must be a whole number of at least 1",
        [...field, "quantity"],
        "GREATER_THAN_OR_EQUAL_TO",
      );
    }
    if (input.price !== undefined && !isCount(input.price, 0)) {
      throw new StoreUserError(
        "Price must be a whole number of minor units, 0 or more",
        [...field, "price"],
        "INVALID",
      );
    }
    const base = {
      id: this.ids.nextId(),
      quantity: input.quantity,
      currentQuantity: input.quantity,
      properties: (input.properties ?? []).map(({ name, value }) => ({ name, value })),
      giftCard: false,
    };
    if (input.variantId !== undefined) {
      const found = findVariant(record, input.variantId);
      if (!found) {
        throw new StoreUserError(
          `Variant ${input.variantId} does not exist`,
          [...field, "variantId"],
          "NOT_FOUND",
        );
      }
      const { product, variant } = found;
      const hasOwnTitle = variant.title !== DEFAULT_VARIANT_TITLE;
      return {
        ...base,
        variantId: variant.id,
        productId: product.id,
        title: input.title ?? product.title,
        variantTitle: hasOwnTitle ? variant.title : null,
        name: hasOwnTitle ? `${product.title} - ${variant.title}` : product.title,
        sku: variant.sku === "" ? null : variant.sku,
        vendor: product.vendor,
        price: input.price ?? variant.price,
        requiresShipping: input.requiresShipping ?? variant.requiresShipping,
        taxable: variant.taxable,
        grams: variant.grams,
      };
    }
    const title = input.title?.trim() ?? "";
    if (title === "") {
      throw new StoreUserError(
        "A custom line item needs a title (or give a variant ID)",
        [...field, "title"],
        "BLANK",
      );
    }
    if (input.price === undefined) {
      throw new StoreUserError("A custom line item needs a price", [...field, "price"], "BLANK");
    }
    return {
      ...base,
      variantId: null,
      productId: null,
      title,
      variantTitle: null,
      name: title,
      sku: null,
      vendor: null,
      price: input.price,
      requiresShipping: input.requiresShipping ?? true,
      taxable: true,
      grams: 0,
    };
  }

  private customerFor(
    record: ShopRecord,
    input: Partial<Omit<Customer, "id">>,
    orderEmail: string | undefined,
  ): Customer {
    const email = input.email ?? orderEmail ?? "";
    const known = email === "" ? undefined : record.customers.get(email.toLowerCase());
    if (known) return copy(known);
    const customer: Customer = {
      id: this.ids.nextId(),
      email,
      firstName: input.firstName ?? "",
      lastName: input.lastName ?? "",
      phone: input.phone ?? null,
    };
    if (email !== "") record.customers.set(email.toLowerCase(), customer);
    return copy(customer);
  }

  /**
   * Shipped and unshipped (digital) items get separate fulfillment orders, at the shop's location;
   * items a fulfilment service stocks get one at the service's location.
   */
  private newFulfillmentOrders(
    record: ShopRecord,
    orderId: Id,
    lineItems: { line: LineItem; service: string | null }[],
  ): FulfillmentOrder[] {
    const groups = new Map<string, { rank: number; service: string | null; lines: LineItem[] }>();
    for (const { line, service } of lineItems) {
      const rank = service !== null ? 2 : line.requiresShipping ? 0 : 1;
      const key = service === null ? `shop:${rank}` : `service:${service}`;
      const group = groups.get(key) ?? { rank, service, lines: [] };
      group.lines.push(line);
      groups.set(key, group);
    }
    return [...groups.values()]
      .sort((a, b) => a.rank - b.rank)
      .map(({ service, lines: group }) => ({
        id: this.ids.nextId(),
        orderId,
        status: "OPEN" as const,
        assignedLocationId:
          service === null ? record.shop.locationId : this.serviceLocation(record, service),
        fulfillmentService: service,
        lines: group.map((line) => ({
          id: this.ids.nextId(),
          lineItemId: line.id,
          totalQuantity: line.quantity,
          remainingQuantity: line.quantity,
        })),
      }));
  }

  /** A fulfilment service's location in the shop, made when an order first names the service. */
  private serviceLocation(record: ShopRecord, service: string): Id {
    let id = record.serviceLocations.get(service);
    if (id === undefined) {
      id = this.ids.nextId();
      record.serviceLocations.set(service, id);
    }
    return id;
  }

  fulfil(
    domain: string,
    orderId: Id,
    lines: { lineItemId: Id; quantity: number }[],
    _actor: Actor,
    tracking?: Tracking,
    options: { notifyCustomer?: boolean; locationId?: Id } = {},
  ): Fulfillment {
    const record = this.requireShop(domain);
    const order = requireOrder(record, orderId);
    if (order.cancelledAt !== null) {
      throw new StoreUserError(`Order ${order.name} is cancelled`, ["orderId"], "INVALID");
    }
    // No lines means everything still to fulfil, as fulfillmentCreate without line items.
    const requested =
      lines.length > 0
        ? lines
        : order.lineItems.map((line) => ({
            lineItemId: line.id,
            quantity: lineItemQuantities(order, line.id)?.fulfillable ?? 0,
          }));
    const quantities = new Map<Id, number>();
    lines.forEach((line, index) => {
      if (!isCount(line.quantity, 1)) {
        throw new StoreUserError(
          "Quantity must be a whole number of at least 1",
          ["lineItems", String(index), "quantity"],
          "GREATER_THAN_OR_EQUAL_TO",
        );
      }
    });
    requested.forEach((line, index) => {
      const quantity = (quantities.get(line.lineItemId) ?? 0) + line.quantity;
      const available = lineItemQuantities(order, line.lineItemId);
      if (!available) {
        throw new StoreUserError(
          `Line item ${line.lineItemId} is not on order ${order.name}`,
          ["lineItems", String(index), "id"],
          "NOT_FOUND",
        );
      }
      if (quantity > available.fulfillable) {
        throw new StoreUserError(
          `Can't fulfil ${quantity} of line item ${line.lineItemId}: ${available.fulfillable} left to fulfil`,
          ["lineItems", String(index), "quantity"],
          "INVALID",
        );
      }
      quantities.set(line.lineItemId, quantity);
    });
    const fulfilledLines = [...quantities]
      .filter(([, quantity]) => quantity > 0)
      .map(([lineItemId, quantity]) => ({ lineItemId, quantity }));
    if (fulfilledLines.length === 0) {
      throw new StoreUserError(`Order ${order.name} has nothing left to fulfil`, null, "INVALID");
    }

    const at = this.clock.tick();
    const fulfillment: Fulfillment = {
      id: this.ids.nextId(),
      orderId,
      name: `${order.name}.${order.fulfillments.length + 1}`,
      status: "success",
      shipmentStatus: null,
      locationId: options.locationId ?? record.shop.locationId,
      trackingCompany: tracking?.company ?? null,
      trackingNumbers: tracking?.number ? [tracking.number] : [],
      trackingUrls: tracking?.url ? [tracking.url] : [],
      lines: fulfilledLines,
      // The admin's "send a notification" is ticked by default; fulfillmentCreate's is not.
      notifyCustomer: options.notifyCustomer ?? true,
      createdAt: at,
      updatedAt: at,
    };
    order.fulfillments.push(fulfillment);
    refreshQuantities(order);
    order.updatedAt = at;

    const { shop } = record;
    this.announce(record, "fulfillments/create", () =>
      fulfillmentWebhookBody(shop, order, fulfillment),
    );
    const fulfilledTopic = hasNothingToFulfil(order)
      ? "orders/fulfilled"
      : "orders/partially_fulfilled";
    this.announce(record, fulfilledTopic, () => orderWebhookBody(shop, order));
    this.announce(record, "orders/updated", () => orderWebhookBody(shop, order));
    return copy(fulfillment);
  }

  updateFulfillment(
    domain: string,
    orderId: Id,
    fulfillmentId: Id,
    input: FulfillmentUpdate,
    _actor: Actor,
  ): Fulfillment {
    const record = this.requireShop(domain);
    const order = requireOrder(record, orderId);
    const fulfillment = order.fulfillments.find((candidate) => candidate.id === fulfillmentId);
    if (!fulfillment) {
      throw new StoreUserError(
        `Fulfillment ${fulfillmentId} is not on order ${order.name}`,
        ["fulfillmentId"],
        "NOT_FOUND",
      );
    }
    const { tracking, shipmentStatus } = input;
    if (!tracking && shipmentStatus === undefined) {
      throw new StoreUserError(
        "Nothing to update: give tracking or a shipment status",
        null,
        "BLANK",
      );
    }
    if (tracking?.company !== undefined) fulfillment.trackingCompany = tracking.company;
    if (tracking?.number !== undefined) fulfillment.trackingNumbers = [tracking.number];
    if (tracking?.url !== undefined) fulfillment.trackingUrls = [tracking.url];
    if (shipmentStatus !== undefined) fulfillment.shipmentStatus = shipmentStatus;
    const at = this.clock.tick();
    fulfillment.updatedAt = at;
    order.updatedAt = at;

    const { shop } = record;
    this.announce(record, "fulfillments/update", () =>
      fulfillmentWebhookBody(shop, order, fulfillment),
    );
    this.announce(record, "orders/updated", () => orderWebhookBody(shop, order));
    return copy(fulfillment);
  }

  refund(domain: string, orderId: Id, input: RefundRequest, actor: Actor): Refund {
    const record = this.requireShop(domain);
    const order = requireOrder(record, orderId);
    const refund = this.applyRefund(record, order, input, actor);
    order.updatedAt = this.clock.tick();
    const { shop } = record;
    this.announce(record, "refunds/create", () => refundWebhookBody(shop, order, refund));
    this.announce(record, "orders/updated", () => orderWebhookBody(shop, order));
    return copy(refund);
  }

  suggestRefund(
    domain: string,
    orderId: Id,
    lines: { lineItemId: Id; quantity: number }[],
  ): { amount: number; lines: RefundLine[] } {
    const record = this.requireShop(domain);
    const order = requireOrder(record, orderId);
    const planned = planRefund(
      record.shop,
      order,
      lines.map((line) => ({ ...line, restockType: "no_restock" as const })),
    );
    return {
      amount: Math.min(planned.linesSubtotal, refundableAmount(order)),
      // Suggested lines are not stored, so they have no ID yet (RefundLineItem.id is nullable).
      lines: planned.lines.map((line) => ({ ...line, id: "" })),
    };
  }

  /** Validates and records a refund and its transaction; the caller bumps and announces. */
  private applyRefund(
    record: ShopRecord,
    order: Order,
    input: RefundRequest,
    actor: Actor,
  ): Refund {
    const planned = planRefund(record.shop, order, input.lines);
    const maximum = refundableAmount(order);
    if (input.amount !== undefined) {
      if (!isCount(input.amount, 0)) {
        throw new StoreUserError(
          "The refund amount must be a whole number of minor units, 0 or more",
          ["amount"],
          "INVALID",
        );
      }
      if (input.amount > maximum) {
        throw new StoreUserError(
          `Refund amount ${input.amount} exceeds the ${maximum} that can still be refunded`,
          ["amount"],
          "INVALID",
        );
      }
    }
    const amount = input.amount ?? Math.min(planned.linesSubtotal, maximum);
    if (planned.lines.length === 0 && amount === 0) {
      throw new StoreUserError("The refund has no line items and no amount", ["lines"], "BLANK");
    }

    const at = this.clock.tick();
    const transactionIds: Id[] = [];
    const sale = order.transactions.find(
      (transaction) =>
        (transaction.kind === "SALE" || transaction.kind === "CAPTURE") &&
        transaction.status === "SUCCESS",
    );
    if (amount > 0 && sale) {
      const transaction: Transaction = {
        id: this.ids.nextId(),
        kind: "REFUND",
        status: "SUCCESS",
        gateway: sale.gateway,
        amount,
        parentId: sale.id,
        createdAt: at,
      };
      order.transactions.push(transaction);
      transactionIds.push(transaction.id);
    }
    const refund: Refund = {
      id: this.ids.nextId(),
      orderId: order.id,
      note: input.note ?? null,
      restock: planned.lines.some((line) => line.restockType !== "no_restock"),
      lines: planned.lines.map((line) => ({ ...line, id: this.ids.nextId() })),
      transactionIds,
      appId: actor.kind === "app" ? actor.appId : null,
      createdAt: at,
      processedAt: at,
    };
    order.refunds.push(refund);
    refreshQuantities(order);
    return refund;
  }

  cancel(
    domain: string,
    orderId: Id,
    input: { reason?: Order["cancelReason"]; refund?: boolean; restock?: boolean },
    actor: Actor,
  ): Order {
    const record = this.requireShop(domain);
    const order = requireOrder(record, orderId);
    if (order.cancelledAt !== null) {
      throw new StoreUserError(`Order ${order.name} is already cancelled`, ["orderId"], "INVALID");
    }
    if (order.fulfillments.length > 0 && hasNothingToFulfil(order)) {
      throw new StoreUserError(
        `Order ${order.name} is fulfilled: refund it instead of cancelling it`,
        ["orderId"],
        "INVALID",
      );
    }
    const reason = input.reason ?? "other";
    if (!CANCEL_REASONS.includes(reason)) {
      throw new StoreUserError(
        `Cancel reason ${JSON.stringify(reason)} is not one of ${CANCEL_REASONS.join(", ")}`,
        ["reason"],
        "INVALID",
      );
    }

    let refund: Refund | undefined;
    if (input.refund) {
      const lines = order.lineItems.flatMap((line) => {
        const quantities = lineItemQuantities(order, line.id);
        if (!quantities) return [];
        // Only unshipped units go back to stock when an order is cancelled.
        const refundLines: RefundLineRequest[] = [
          {
            lineItemId: line.id,
            quantity: quantities.unfulfilledUnrefunded,
            restockType: input.restock ? "cancel" : "no_restock",
          },
          {
            lineItemId: line.id,
            quantity: quantities.fulfilledUnrefunded,
            restockType: "no_restock",
          },
        ];
        return refundLines.filter((refundLine) => refundLine.quantity > 0);
      });
      const amount = refundableAmount(order);
      if (lines.length > 0 || amount > 0) {
        refund = this.applyRefund(record, order, { lines, amount }, actor);
      }
    }

    const at = this.clock.tick();
    order.cancelledAt = at;
    order.cancelReason = reason;
    refreshQuantities(order);
    order.updatedAt = at;

    const { shop } = record;
    if (refund) {
      const created = refund;
      this.announce(record, "refunds/create", () => refundWebhookBody(shop, order, created));
    }
    this.announce(record, "orders/cancelled", () => orderWebhookBody(shop, order));
    this.announce(record, "orders/updated", () => orderWebhookBody(shop, order));
    return copy(order);
  }

  // Order edits

  beginEdit(domain: string, orderId: Id, actor: Actor): OrderEdit {
    const record = this.requireShop(domain);
    const order = requireOrder(record, orderId);
    if (order.cancelledAt !== null) {
      throw new StoreUserError(
        `Order ${order.name} is cancelled and can't be edited`,
        ["id"],
        "INVALID",
      );
    }
    const edit: OrderEdit = {
      id: this.ids.nextId(),
      orderId,
      stagedQuantities: {},
      appId: actor.kind === "app" ? actor.appId : null,
      staffNote: "",
      notifyCustomer: false,
      committedAt: null,
      createdAt: this.clock.tick(),
      lineItemChanges: { additions: [], removals: [] },
    };
    order.edits.push(edit);
    return copy(edit);
  }

  stageQuantity(domain: string, editId: Id, lineItemId: Id, quantity: number): OrderEdit {
    const record = this.requireShop(domain);
    const { order, edit } = requireOpenEdit(record, editId);
    if (!isCount(quantity, 0)) {
      throw new StoreUserError(
        "Quantity must be a whole number, 0 or more",
        ["quantity"],
        "INVALID",
      );
    }
    checkEditedQuantity(order, lineItemId, quantity);
    edit.stagedQuantities[lineItemId] = quantity;
    return copy(edit);
  }

  commitEdit(
    domain: string,
    editId: Id,
    input: { notifyCustomer?: boolean; staffNote?: string },
  ): Order {
    const record = this.requireShop(domain);
    const { order, edit } = requireOpenEdit(record, editId);
    // The order may have changed since the quantities were staged.
    const changes = Object.entries(edit.stagedQuantities).map(([lineItemId, quantity]) => ({
      id: lineItemId,
      delta: quantity - checkEditedQuantity(order, lineItemId, quantity).current,
    }));

    const at = this.clock.tick();
    edit.lineItemChanges = {
      additions: changes.filter((change) => change.delta > 0),
      removals: changes
        .filter((change) => change.delta < 0)
        .map((change) => ({ id: change.id, delta: -change.delta })),
    };
    edit.committedAt = at;
    edit.notifyCustomer = input.notifyCustomer ?? false;
    edit.staffNote = input.staffNote ?? "";
    refreshQuantities(order);
    order.updatedAt = at;

    const { shop } = record;
    this.announce(record, "orders/edited", () => orderEditWebhookBody(shop, order, edit));
    this.announce(record, "orders/updated", () => orderWebhookBody(shop, order));
    return copy(order);
  }

  // Seeding

  seedOrders(domain: string, input: SeedOrdersInput): SeedOrdersResult {
    const record = this.requireShop(domain);
    const catalogue = seedCatalogue(record, input.lineItems);
    const plan = input.plan ? seedPlanEntry(record, input.plan) : DEFAULT_SEED_PLAN;
    const shares = seedShares(input.shares);
    const window = seedWindow(input, this.clock.tick());
    const random = seededRandom(input.seed ?? 1);
    const step = (window.to - window.from) / input.count;
    const counts = { protected: 0, edited: 0, fulfilled: 0, refunded: 0 };
    const orderIds: Id[] = [];

    let planned = window.from;
    const realClock = this.clock;
    this.clock = new MonotonicClock(() => new Date(Math.floor(planned)));
    this.silent = true;
    try {
      for (let index = 0; index < input.count; index += 1) {
        const start = window.from + index * step;
        const order = planSeededOrder(random, catalogue.length, shares);
        planned = start;
        const created = this.createOrder(domain, seedOrderInput(order, catalogue, plan, index));
        orderIds.push(created.id);
        if (created.lineItems.some(isPlanLine)) counts.protected += 1;
        if (order.edited) {
          planned = start + step / 4;
          this.seedEdit(domain, created);
          counts.edited += 1;
        }
        if (order.fulfilled) {
          planned = start + step / 2;
          if (this.seedFulfilment(domain, created.id)) counts.fulfilled += 1;
        }
        if (order.refunded) {
          planned = start + (3 * step) / 4;
          const first = created.lineItems[0] as LineItem;
          const line = { lineItemId: first.id, quantity: 1, restockType: "no_restock" as const };
          this.refund(domain, created.id, { lines: [line] }, { kind: "merchant" });
          counts.refunded += 1;
        }
      }
    } finally {
      this.clock = realClock;
      this.silent = false;
    }
    return {
      count: input.count,
      firstOrderId: orderIds[0] as Id,
      lastOrderId: orderIds.at(-1) as Id,
      createdFrom: new Date(window.from).toISOString(),
      createdTo: new Date(window.to).toISOString(),
      ...counts,
    };
  }

  /** A merchant's edit of the first line by a unit: down from 2 or more, else up. */
  private seedEdit(domain: string, order: Order): void {
    const first = order.lineItems[0] as LineItem;
    const edit = this.beginEdit(domain, order.id, { kind: "merchant" });
    const quantity = first.quantity >= 2 ? first.quantity - 1 : first.quantity + 1;
    this.stageQuantity(domain, edit.id, first.id, quantity);
    this.commitEdit(domain, edit.id, { staffNote: "Seeded edit" });
  }

  /** Ships every line that needs shipping; false when none does. */
  private seedFulfilment(domain: string, orderId: Id): boolean {
    const order = requireOrder(this.requireShop(domain), orderId);
    const lines = order.lineItems
      .filter((line) => line.requiresShipping)
      .map((line) => ({
        lineItemId: line.id,
        quantity: lineItemQuantities(order, line.id)?.fulfillable ?? 0,
      }))
      .filter((line) => line.quantity > 0);
    if (lines.length === 0) return false;
    this.fulfil(domain, orderId, lines, { kind: "merchant" }, undefined, { notifyCustomer: false });
    return true;
  }

  // Internals

  private requireShop(domain: string): ShopRecord {
    const record = this.shopRecords.get(domain.toLowerCase());
    if (!record) throw new StoreUserError(`Shop ${domain} does not exist`, ["shop"], "NOT_FOUND");
    return record;
  }

  /**
   * Reports a webhook to the sink. Shopify sends an app its shop's webhooks only while the app is
   * installed; app/uninstalled is the last, sent as the installation goes. The compliance topics
   * are the exception: they reach any app that has had the shop's data, installed or not.
   */
  private announce(record: ShopRecord, topic: WebhookTopic, body: () => WebhookBody): void {
    if (!this.webhookSink || this.silent) return;
    const appHasShop =
      record.shop.installation !== null ||
      topic === "app/uninstalled" ||
      (isComplianceTopic(topic) && record.hadApp);
    if (!appHasShop) return;
    this.webhookSink(copy(record.shop), topic, body());
  }
}

/** A seed line with its unit price: a variant's own unless the request gave one. */
function seedEntry(record: ShopRecord, line: SeedLine, field: string[]): SeedPlanEntry {
  const requiresShipping =
    line.requiresShipping === undefined ? {} : { requiresShipping: line.requiresShipping };
  if (line.variantId !== undefined) {
    const found = findVariant(record, line.variantId);
    if (!found) {
      throw new StoreUserError(
        `Variant ${line.variantId} does not exist`,
        [...field, "variantId"],
        "NOT_FOUND",
      );
    }
    return {
      variantId: found.variant.id,
      unitPrice: line.price ?? found.variant.price,
      ...requiresShipping,
    };
  }
  if (!line.title?.trim()) {
    throw new StoreUserError("A custom seed line needs a title", [...field, "title"], "BLANK");
  }
  return {
    variantId: null,
    title: line.title,
    ...(line.price === undefined ? {} : { unitPrice: line.price }),
    ...requiresShipping,
  };
}

/** The lines seeded orders pick from: those requested, or the first variant of each product. */
function seedCatalogue(record: ShopRecord, lines: SeedLine[] | undefined): SeedCatalogueEntry[] {
  const requested =
    lines ??
    [...record.products.values()].flatMap((product) =>
      product.variants[0] ? [{ variantId: product.variants[0].id }] : [],
    );
  if (requested.length === 0) {
    throw new StoreUserError(
      `Shop ${record.shop.domain} has no products to seed orders with: give line items`,
      ["lineItems"],
      "BLANK",
    );
  }
  return requested.map((line, index) => {
    const entry = seedEntry(record, line, ["lineItems", String(index)]);
    if (entry.unitPrice === undefined) {
      throw new StoreUserError(
        "A custom seed line needs a price",
        ["lineItems", String(index), "price"],
        "BLANK",
      );
    }
    return { ...entry, unitPrice: entry.unitPrice };
  });
}

function seedPlanEntry(record: ShopRecord, plan: SeedLine): SeedPlanEntry {
  return { requiresShipping: false, ...seedEntry(record, plan, ["plan"]) };
}

function isPlanLine(line: LineItem): boolean {
  return line.properties.some((property) => property.name === PROTECTED_PRODUCT_REF);
}

/** Granted scopes as a list: trimmed, without blanks or repeats. */
function scopeList(scopes: string[]): string[] {
  return [...new Set(scopes.map((scope) => scope.trim()).filter(Boolean))];
}

/** Customers come with orders (a returning e-mail address keeps its ID), oldest first. */
function customersOf(record: ShopRecord): Customer[] {
  const byId = new Map<Id, Customer>();
  for (const order of record.orders.values()) {
    if (order.customer && !byId.has(order.customer.id)) byId.set(order.customer.id, order.customer);
  }
  return [...byId.values()];
}

function requireCustomerWithOrders(
  record: ShopRecord,
  customerId: Id,
): { customer: Customer; orderIds: Id[] } {
  const customer = customersOf(record).find((candidate) => candidate.id === customerId);
  if (!customer) {
    throw new StoreUserError(`Customer ${customerId} does not exist`, ["customerId"], "NOT_FOUND");
  }
  const orderIds = [...record.orders.values()]
    .filter((order) => order.customer?.id === customerId)
    .map((order) => order.id);
  return { customer: copy(customer), orderIds };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function findVariant(
  record: ShopRecord,
  variantId: Id,
): { product: Product; variant: Variant } | undefined {
  for (const product of record.products.values()) {
    const variant = product.variants.find((candidate) => candidate.id === variantId);
    if (variant) return { product, variant };
  }
  return undefined;
}

function requireOrder(record: ShopRecord, orderId: Id): Order {
  const order = record.orders.get(orderId);
  if (!order) throw new StoreUserError(`Order ${orderId} does not exist`, ["id"], "NOT_FOUND");
  return order;
}

function requireOpenEdit(record: ShopRecord, editId: Id): { order: Order; edit: OrderEdit } {
  for (const order of record.orders.values()) {
    const edit = order.edits.find((candidate) => candidate.id === editId);
    if (!edit) continue;
    if (edit.committedAt !== null) {
      throw new StoreUserError("The order edit has already been committed", ["id"], "INVALID");
    }
    if (order.cancelledAt !== null) {
      throw new StoreUserError(
        `Order ${order.name} is cancelled and can't be edited`,
        ["id"],
        "INVALID",
      );
    }
    return { order, edit };
  }
  throw new StoreUserError(`Order edit ${editId} does not exist`, ["id"], "NOT_FOUND");
}

/**
 * An edit can raise a quantity freely but can only remove units still to fulfil: shipped or
 * refunded units stay. Returns the line's quantities before the edit.
 */
function checkEditedQuantity(order: Order, lineItemId: Id, quantity: number): LineItemQuantities {
  const quantities = lineItemQuantities(order, lineItemId);
  if (!quantities) {
    throw new StoreUserError(
      `Line item ${lineItemId} is not on order ${order.name}`,
      ["lineItemId"],
      "NOT_FOUND",
    );
  }
  const minimum = quantities.current - quantities.fulfillable;
  if (quantity < minimum) {
    throw new StoreUserError(
      `Can't lower line item ${lineItemId} to ${quantity}: ${minimum} are fulfilled or refunded`,
      ["quantity"],
      "INVALID",
    );
  }
  return quantities;
}

/**
 * Checks a refund's lines against what each line item can still give back (all or nothing) and
 * prices them: unit price × quantity, no tax model.
 */
function planRefund(shop: StoreShop, order: Order, lines: RefundLineRequest[]): PlannedRefund {
  const pools = new Map<Id, LinePools>();
  const cancelled = order.cancelledAt !== null;
  const planned: Omit<RefundLine, "id">[] = [];
  lines.forEach((line, index) => {
    const field = ["refundLineItems", String(index)];
    const lineItem = order.lineItems.find((candidate) => candidate.id === line.lineItemId);
    if (!lineItem) {
      throw new StoreUserError(
        `Line item ${line.lineItemId} is not on order ${order.name}`,
        [...field, "lineItemId"],
        "NOT_FOUND",
      );
    }
    if (!RESTOCK_TYPES.includes(line.restockType)) {
      throw new StoreUserError(
        `Restock type ${JSON.stringify(line.restockType)} is not one of ${RESTOCK_TYPES.join(", ")}`,
        [...field, "restockType"],
        "INVALID",
      );
    }
    if (!isCount(line.quantity, 1)) {
      throw new StoreUserError(
        "Quantity must be a whole number of at least 1",
        [...field, "quantity"],
        "INVALID",
      );
    }
    const linePools = pools.get(lineItem.id) ?? poolsOf(order, lineItem);
    pools.set(lineItem.id, linePools);
    const available = quantitiesOf(linePools, cancelled);
    if (line.quantity > available.refundable) {
      throw new StoreUserError(
        `Can't refund ${line.quantity} of line item ${lineItem.id}: only ${available.refundable} can be refunded`,
        [...field, "quantity"],
        "INVALID",
      );
    }
    if (line.restockType === "cancel" && line.quantity > available.unfulfilledUnrefunded) {
      throw new StoreUserError(
        `Can't cancel ${line.quantity} of line item ${lineItem.id}: only ${available.unfulfilledUnrefunded} are unfulfilled`,
        [...field, "restockType"],
        "INVALID",
      );
    }
    if (line.restockType === "return" && line.quantity > available.fulfilledUnrefunded) {
      throw new StoreUserError(
        `Can't return ${line.quantity} of line item ${lineItem.id}: only ${available.fulfilledUnrefunded} are fulfilled`,
        [...field, "restockType"],
        "INVALID",
      );
    }
    applyRefundLine(linePools, line.quantity, line.restockType);
    planned.push({
      lineItemId: lineItem.id,
      quantity: line.quantity,
      restockType: line.restockType,
      locationId: line.restockType === "no_restock" ? null : shop.locationId,
      subtotal: lineItem.price * line.quantity,
      totalTax: 0,
    });
  });
  return {
    lines: planned,
    linesSubtotal: planned.reduce((sum, line) => sum + line.subtotal, 0),
  };
}

/** Brings each line's currentQuantity and the fulfillment orders in step with the history. */
function refreshQuantities(order: Order): void {
  const cancelled = order.cancelledAt !== null;
  const byLine = new Map<Id, LineItemQuantities>();
  for (const line of order.lineItems) {
    const quantities = quantitiesOf(poolsOf(order, line), cancelled);
    byLine.set(line.id, quantities);
    line.currentQuantity = quantities.current;
  }
  for (const fulfillmentOrder of order.fulfillmentOrders) {
    let fulfilled = 0;
    for (const foLine of fulfillmentOrder.lines) {
      const quantities = byLine.get(foLine.lineItemId);
      if (!quantities) continue;
      foLine.remainingQuantity = quantities.fulfillable;
      foLine.totalQuantity = quantities.fulfilled + quantities.fulfillable;
      fulfilled += quantities.fulfilled;
    }
    const remaining = fulfillmentOrder.lines.reduce((sum, line) => sum + line.remainingQuantity, 0);
    fulfillmentOrder.status =
      cancelled || remaining === 0 ? "CLOSED" : fulfilled > 0 ? "IN_PROGRESS" : "OPEN";
  }
}

function hasNothingToFulfil(order: Order): boolean {
  return order.lineItems.every(
    (line) => (lineItemQuantities(order, line.id)?.fulfillable ?? 0) === 0,
  );
}

function metafieldOwner(record: ShopRecord, ownerId: Id): { metafields: Metafield[] } | undefined {
  return record.products.get(ownerId) ?? findVariant(record, ownerId)?.variant;
}

/*
 * metafieldsSet's checks: the identifiers' lengths and characters, a known type, and a value
 * that parses as that type. Types without a syntax of their own are accepted as given.
 */
const IDENTIFIER = /^[A-Za-z0-9_-]+$/;
const SCALAR_TYPES = new Set([
  "boolean",
  "color",
  "date",
  "date_time",
  "dimension",
  "id",
  "json",
  "link",
  "money",
  "multi_line_text_field",
  "number_decimal",
  "number_integer",
  "rating",
  "rich_text_field",
  "single_line_text_field",
  "url",
  "volume",
  "weight",
  "collection_reference",
  "customer_reference",
  "company_reference",
  "file_reference",
  "metaobject_reference",
  "mixed_reference",
  "page_reference",
  "product_reference",
  "product_taxonomy_value_reference",
  "variant_reference",
]);

function isKnownMetafieldType(type: string): boolean {
  const element = type.startsWith("list.") ? type.slice("list.".length) : type;
  return SCALAR_TYPES.has(element) && !(type.startsWith("list.") && element === "json");
}

function metafieldValueProblem(type: string, value: string): string | undefined {
  if (type.startsWith("list.")) {
    try {
      return Array.isArray(JSON.parse(value)) ? undefined : "Value must be a JSON array.";
    } catch {
      return "Value must be a JSON array.";
    }
  }
  switch (type) {
    case "json":
    case "dimension":
    case "link":
    case "money":
    case "rating":
    case "rich_text_field":
    case "volume":
    case "weight":
      try {
        JSON.parse(value);
        return undefined;
      } catch {
        return "Value is invalid JSON.";
      }
    case "boolean":
      return value === "true" || value === "false" ? undefined : "Value must be true or false.";
    case "number_integer":
      return /^-?\d+$/.test(value) ? undefined : "Value must be an integer.";
    case "number_decimal":
      return /^-?\d+(\.\d+)?$/.test(value) ? undefined : "Value must be a decimal.";
    case "single_line_text_field":
      return value.includes("\n") ? "Value must be a single line." : undefined;
    case "url":
      return isHttpUrl(value) ? undefined : "Value must be an http or https URL.";
    case "color":
      return /^#[0-9A-Fa-f]{6}$/.test(value) ? undefined : "Value must be a hex color code.";
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : "Value must be a date (YYYY-MM-DD).";
    case "date_time":
      return Number.isNaN(Date.parse(value)) ? "Value must be a date and time." : undefined;
    default:
      return type.endsWith("_reference") && !value.startsWith("gid://shopify/")
        ? "Value must be a global ID."
        : undefined;
  }
}

function metafieldProblem(
  input: MetafieldSetInput,
): { field: string; message: string; code: string } | undefined {
  if (input.namespace.length < 3 || input.namespace.length > 255) {
    return {
      field: "namespace",
      message: "Namespace must be 3 to 255 characters long.",
      code: input.namespace.length < 3 ? "TOO_SHORT" : "TOO_LONG",
    };
  }
  if (!IDENTIFIER.test(input.namespace)) {
    return {
      field: "namespace",
      message: "Namespace can only contain letters, digits, dashes and underscores.",
      code: "INVALID",
    };
  }
  if (input.key.length < 2 || input.key.length > 64) {
    return {
      field: "key",
      message: "Key must be 2 to 64 characters long.",
      code: input.key.length < 2 ? "TOO_SHORT" : "TOO_LONG",
    };
  }
  if (!IDENTIFIER.test(input.key)) {
    return {
      field: "key",
      message: "Key can only contain letters, digits, dashes and underscores.",
      code: "INVALID",
    };
  }
  if (!isKnownMetafieldType(input.type)) {
    return {
      field: "type",
      message: `Type ${JSON.stringify(input.type)} is not a metafield type.`,
      code: "INVALID_TYPE",
    };
  }
  if (input.value === "") {
    return { field: "value", message: "Value can't be blank.", code: "BLANK" };
  }
  const problem = metafieldValueProblem(input.type, input.value);
  return problem ? { field: "value", message: problem, code: "INVALID_VALUE" } : undefined;
}

/** The variant's option names and values (productSet's optionValues), copied; none for none. */
function optionsOf(options: Variant["selectedOptions"]): Pick<Variant, "selectedOptions"> {
  return options ? { selectedOptions: options.map((option) => ({ ...option })) } : {};
}
