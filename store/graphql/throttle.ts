import type { ShopPlan } from "../model";

/*
 * Shopify's leaky bucket for the Admin GraphQL API, one per shop (one app per shop here): it
 * refills at the plan's restore rate up to 20 times that rate. A request needs room for its
 * requested cost before it runs; afterwards the difference to its actual cost is given back.
 */

const RESTORE_RATE: Record<ShopPlan, number> = { standard: 100, advanced: 200, plus: 1000 };
const BUCKET_SECONDS = 20;

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface Bucket {
  available: number;
  at: number;
}

export class LeakyBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number) {}

  private limits(plan: ShopPlan) {
    const restoreRate = RESTORE_RATE[plan];
    return { restoreRate, maximumAvailable: restoreRate * BUCKET_SECONDS };
  }

  /** The bucket refilled up to now. */
  private current(shop: string, plan: ShopPlan): Bucket {
    const { restoreRate, maximumAvailable } = this.limits(plan);
    const now = this.now();
    const bucket = this.buckets.get(shop) ?? { available: maximumAvailable, at: now };
    const elapsedSeconds = Math.max(0, now - bucket.at) / 1000;
    const refilled = {
      available: Math.min(maximumAvailable, bucket.available + elapsedSeconds * restoreRate),
      at: now,
    };
    this.buckets.set(shop, refilled);
    return refilled;
  }

  status(shop: string, plan: ShopPlan): ThrottleStatus {
    const { restoreRate, maximumAvailable } = this.limits(plan);
    const available = this.current(shop, plan).available;
    return { maximumAvailable, currentlyAvailable: Math.floor(available), restoreRate };
  }

  /** Takes `cost` from the bucket when it holds that much; false (and nothing taken) otherwise. */
  take(shop: string, plan: ShopPlan, cost: number): boolean {
    const bucket = this.current(shop, plan);
    if (bucket.available < cost) return false;
    bucket.available -= cost;
    return true;
  }

  /** Gives back what a request did not use (requested minus actual cost). */
  giveBack(shop: string, plan: ShopPlan, points: number): void {
    const { maximumAvailable } = this.limits(plan);
    const bucket = this.current(shop, plan);
    bucket.available = Math.min(maximumAvailable, bucket.available + Math.max(0, points));
  }

  empty(shop: string): void {
    this.buckets.set(shop, { available: 0, at: this.now() });
  }
}
