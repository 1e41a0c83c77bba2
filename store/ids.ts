import type { Id } from "./model";

/*
 * Shopify's numeric IDs have passed 2^53, the last integer a JavaScript number holds exactly.
 * The store starts above it, so an app that reads IDs as numbers fails here as in production.
 */

/** 2^53 + 1: the first ID the store hands out. */
export const FIRST_ID = 9_007_199_254_740_993n;

/** One sequence for every kind of object, as IDs are unique across a shop's resources. */
export class IdSequence {
  private next = FIRST_ID;

  nextId(): Id {
    const id = this.next;
    this.next += 1n;
    return id.toString();
  }
}
