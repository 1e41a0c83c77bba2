import { StoreUserError, type Id, type NewOrderInput, type SeedShares } from "./model";

/*
 * What `StoreState.seedOrders` makes of each order, decided before anything is written: a pure
 * plan from a seeded random sequence, so the same request seeds the same shop every time. An
 * order has 1 to 3 distinct lines of the catalogue, 1 to 3 units each; some get a plan line
 * protecting one of them (the `_svc_protected_product_ref` property the storefront writes, a
 * tenth of the unit price per unit, not shipped), and some are then edited, fulfilled or
 * refunded, in that order, at times spread over the order's share of the window.
 */

/** The property the storefront writes on a plan line: the variant it protects. */
export const PROTECTED_PRODUCT_REF = "_svc_protected_product_ref";

export const DEFAULT_SEED_SHARES: SeedShares = {
  protected: 0.3,
  edited: 0.05,
  fulfilled: 0.3,
  refunded: 0.1,
};

export interface SeededOrderPlan {
  /** Indexes into the catalogue, distinct, with the units of each. */
  lines: { catalogueIndex: number; quantity: number }[];
  /** The index in `lines` of the line a plan line protects; null for an order without plan. */
  protects: number | null;
  /** Changes the first line by a unit (down from 2 or more, else up) before anything ships. */
  edited: boolean;
  /** Ships every line that needs shipping. */
  fulfilled: boolean;
  /** Refunds one unit of the first line, without restock. */
  refunded: boolean;
}

/** mulberry32: a small, fast, seedable generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function between(random: () => number, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

/** Distinct indexes into a catalogue of `size`, `count` of them at most. */
function pickLines(random: () => number, size: number, count: number): number[] {
  const indexes = Array.from({ length: size }, (_, index) => index);
  for (let index = indexes.length - 1; index > 0; index -= 1) {
    const other = between(random, 0, index);
    [indexes[index], indexes[other]] = [indexes[other] as number, indexes[index] as number];
  }
  return indexes.slice(0, Math.min(count, size));
}

export function planSeededOrder(
  random: () => number,
  catalogueSize: number,
  shares: SeedShares,
): SeededOrderPlan {
  const lines = pickLines(random, catalogueSize, between(random, 1, 3)).map((catalogueIndex) => ({
    catalogueIndex,
    quantity: between(random, 1, 3),
  }));
  return {
    lines,
    protects: random() < shares.protected ? between(random, 0, lines.length - 1) : null,
    edited: random() < shares.edited,
    fulfilled: random() < shares.fulfilled,
    refunded: random() < shares.refunded,
  };
}

/** A plan line's unit price: a tenth of what it protects, at least one minor unit. */
export function planUnitPrice(protectedUnitPrice: number): number {
  return Math.max(1, Math.round(protectedUnitPrice / 10));
}

/** A catalogue line with its unit price known (a variant's, unless the request gave one). */
export interface SeedCatalogueEntry {
  variantId: Id | null;
  title?: string;
  unitPrice: number;
  requiresShipping?: boolean;
}

export const MAX_SEEDED_ORDERS = 100_000;
const DEFAULT_WINDOW_MS = 30 * 24 * 3600 * 1000;
/** Each order's changes take a few milliseconds of its share of the window. */
const MIN_MS_PER_ORDER = 10;
const CUSTOMERS = 1000;
const FIRST_NAMES = ["Ada", "Bruno", "Chiara", "Dev", "Emma", "Farid", "Greta", "Hiro"];
const LAST_NAMES = ["Okafor", "Lindqvist", "Moreau", "Patel", "Schmidt", "Tanaka", "Weber"];

export function seedShares(requested: Partial<SeedShares> = {}): SeedShares {
  const shares = { ...DEFAULT_SEED_SHARES, ...requested };
  for (const [name, share] of Object.entries(shares)) {
    if (!(share >= 0 && share <= 1)) {
      throw new StoreUserError(
        `The ${name} share must be between 0 and 1`,
        ["shares", name],
        "INVALID",
      );
    }
  }
  return shares;
}

/**
 * The window the orders' times are spread over, in milliseconds: by default the 30 days up to
 * `now`. It may not end after `now`, so every later change of the store comes after the seeded
 * ones, and each order needs a few milliseconds of it.
 */
export function seedWindow(
  input: { count: number; createdFrom?: string; createdTo?: string },
  now: string,
): { from: number; to: number } {
  if (!Number.isSafeInteger(input.count) || input.count < 1 || input.count > MAX_SEEDED_ORDERS) {
    throw new StoreUserError(
      `The count must be a whole number from 1 to ${MAX_SEEDED_ORDERS}`,
      ["count"],
      "INVALID",
    );
  }
  const nowMs = Date.parse(now);
  const to = input.createdTo === undefined ? nowMs : Date.parse(input.createdTo);
  const from =
    input.createdFrom === undefined ? to - DEFAULT_WINDOW_MS : Date.parse(input.createdFrom);
  if (Number.isNaN(from) || Number.isNaN(to)) {
    throw new StoreUserError(
      "createdFrom and createdTo must be ISO 8601 times",
      ["createdFrom"],
      "INVALID",
    );
  }
  if (to > nowMs) {
    throw new StoreUserError(
      `createdTo must not be after the store's time, ${now}`,
      ["createdTo"],
      "INVALID",
    );
  }
  if ((to - from) / input.count < MIN_MS_PER_ORDER) {
    throw new StoreUserError(
      `The window from createdFrom to createdTo must give each order ${MIN_MS_PER_ORDER} ms at least`,
      ["createdFrom"],
      "INVALID",
    );
  }
  return { from, to };
}

/** The plan line's product: a variant or a custom line; without a price, a tenth of what it protects. */
export type SeedPlanEntry = Omit<SeedCatalogueEntry, "unitPrice"> & { unitPrice?: number };

export const DEFAULT_SEED_PLAN: SeedPlanEntry = {
  variantId: null,
  title: "Protection plan",
  requiresShipping: false,
};

function lineOf(entry: SeedPlanEntry, unitPrice: number, quantity: number) {
  return {
    ...(entry.variantId === null ? { title: entry.title } : { variantId: entry.variantId }),
    price: unitPrice,
    quantity,
    ...(entry.requiresShipping === undefined ? {} : { requiresShipping: entry.requiresShipping }),
  };
}

/** The order `plan` describes, as `createOrder` takes it. Only a variant can be protected. */
export function seedOrderInput(
  plan: SeededOrderPlan,
  catalogue: readonly SeedCatalogueEntry[],
  planEntry: SeedPlanEntry,
  index: number,
): NewOrderInput {
  const lines = plan.lines.map(({ catalogueIndex, quantity }) => ({
    entry: catalogue[catalogueIndex] as SeedCatalogueEntry,
    quantity,
  }));
  const lineItems: NewOrderInput["lineItems"] = lines.map(({ entry, quantity }) =>
    lineOf(entry, entry.unitPrice, quantity),
  );
  const protectedLine = plan.protects === null ? undefined : lines[plan.protects];
  const protectedVariant = protectedLine?.entry.variantId;
  if (protectedLine && protectedVariant) {
    const unitPrice = planEntry.unitPrice ?? planUnitPrice(protectedLine.entry.unitPrice);
    lineItems.push({
      ...lineOf(planEntry, unitPrice, protectedLine.quantity),
      properties: [{ name: PROTECTED_PRODUCT_REF, value: protectedVariant }],
    });
  }
  const customer = index % CUSTOMERS;
  return {
    lineItems,
    customer: {
      email: `seed-customer-${customer}@example.com`,
      firstName: FIRST_NAMES[customer % FIRST_NAMES.length] as string,
      lastName: LAST_NAMES[customer % LAST_NAMES.length] as string,
    },
  };
}
