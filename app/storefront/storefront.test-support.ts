// Shared by the storefront's tests: the /cart.js samples by name, the session ID the block
// sends, and the issues of a request the parsers refuse.
import {
  OWN_CARTS,
  SHARED_CARTS,
  readOwnCart,
  readSharedCart,
  type CartJs,
} from "../../test/support/cart-fixtures";
import { parseCartUpdateBody, type CartUpdateBody } from "./cart";
import type { Parsed, RequestIssue } from "./request-issues";

export type { CartJs } from "../../test/support/cart-fixtures";

/** The user session ID the storefront block sends. */
export const SESSION = "3f9a6c1e-8b2d-4e7a-9c5f-1d2e3b4a5c6d";

type SharedCart = keyof typeof SHARED_CARTS;
type OwnCart = keyof typeof OWN_CARTS;

const isSharedCart = (name: string): name is SharedCart => name in SHARED_CARTS;

/** A /cart.js sample: one of Shopify's (never edited) or one of our copies with plan lines. */
export function cartSample(name: SharedCart | OwnCart): CartJs {
  return isSharedCart(name) ? readSharedCart(SHARED_CARTS[name]) : readOwnCart(OWN_CARTS[name]);
}

/** The body the storefront posts for `cart`, parsed; throws if the parser refuses it. */
export function parsedCartUpdate(cart: unknown, userSessionId = SESSION): CartUpdateBody {
  const result = parseCartUpdateBody({ user_session_id: userSessionId, cart });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

/** The issues of a request that the test expects a parser to refuse. */
export function refusedIssues<T>(parsed: Parsed<T>): RequestIssue[] {
  if (parsed.ok) throw new Error("expected the request to be refused");
  return parsed.issues;
}
