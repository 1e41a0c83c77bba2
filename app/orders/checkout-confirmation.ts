import { USER_SESSION_ATTRIBUTE, USER_SESSION_ID_FORM, cartIdOf } from "../lib/cart-session";
import type { CartCheckoutConfirmation } from "../protection/types";
import { type JsonObject, isJsonObject } from "./payload-reader";

/** The confirmation an order stands for, or why it stands for none (decision 033). */
export type CheckoutConfirmationOutcome =
  | { kind: "confirmation"; confirmation: CartCheckoutConfirmation }
  | { kind: "none"; reason: string };

/**
 * The checkout confirmation of an orders/create: the cart the storefront reported to
 * /cart_updates (`cart_token`, without a `?key=` part) and the session that reported it (the
 * `_svc_user_session_id` cart attribute the app embed wrote, in `note_attributes`). An order
 * that did not come from a storefront cart the embed saw (a draft order, POS, the Admin, a
 * theme without the embed) has neither, and no confirmation. `orderId` is order_placed's.
 */
export function toCheckoutConfirmation(
  order: JsonObject,
  orderId: string,
): CheckoutConfirmationOutcome {
  const session = sessionAttributeOf(order.note_attributes);
  if (session === undefined) {
    return none(`no ${USER_SESSION_ATTRIBUTE} cart attribute (not a storefront cart)`);
  }
  if (!USER_SESSION_ID_FORM.test(session)) {
    return none(`the ${USER_SESSION_ATTRIBUTE} cart attribute is not a session ID`);
  }
  const cartId = typeof order.cart_token === "string" ? cartIdOf(order.cart_token) : "";
  if (cartId === "") return none("the order has no cart_token");
  return {
    kind: "confirmation",
    confirmation: { cart_id: cartId, user_session_id: session, order_id: orderId },
  };
}

function none(reason: string): CheckoutConfirmationOutcome {
  return { kind: "none", reason: `no checkout confirmation: ${reason}` };
}

/**
 * The attribute's trimmed value. Webhooks list attributes as {name, value}; the REST API's
 * older payloads and some apps give a plain object.
 */
function sessionAttributeOf(attributes: unknown): string | undefined {
  let value: unknown;
  if (Array.isArray(attributes)) {
    const entry = attributes.find(
      (candidate) => isJsonObject(candidate) && candidate.name === USER_SESSION_ATTRIBUTE,
    );
    value = isJsonObject(entry) ? entry.value : undefined;
  } else if (isJsonObject(attributes)) {
    value = attributes[USER_SESSION_ATTRIBUTE];
  }
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
