import type { FastifyInstance, FastifyReply } from "fastify";
import { StoreUserError, type Order, type StoreShop } from "../model";
import type { StoreState } from "../state";
import type { Cart, StoreCarts } from "./cart";
import { CART_COOKIE, keepRawBodies, parseCookies, webRequest } from "./cart-routes";
import { nestFormFields } from "./cart";
import { buyerLocaleOf, type ThankYouBlocks } from "./extensions/blocks";

/*
 * A checkout stand-in: GET /checkout shows the cart and a test customer's form, POST /checkout
 * places the order as a paid web order (so orders/create reaches the app as from Shopify),
 * ends the cart and shows a Thank-you page with the order's name and ID, and the app's blocks
 * (extensions/blocks.ts). Plain HTML, no scripts of its own.
 */

export interface CheckoutDeps {
  state: StoreState;
  storefrontShop: () => StoreShop | undefined;
  carts: StoreCarts;
  /** The app's blocks on the Thank-you page (extensions/blocks.ts), where Shopify shows them. */
  thankYouBlocks?: ThankYouBlocks;
}

/** The form's fields, in order: name, label, test value, input type. */
const FIELDS = [
  ["email", "Email", "buyer@example.com", "email"],
  ["first_name", "First name", "Ada", "text"],
  ["last_name", "Last name", "Lovelace", "text"],
  ["address1", "Address", "12 Test Street", "text"],
  ["city", "City", "Berlin", "text"],
  ["zip", "Postal code", "10115", "text"],
  ["country", "Country", "Germany", "text"],
] as const;

type FieldName = (typeof FIELDS)[number][0];
export type CheckoutForm = Record<FieldName, string>;

/** The plan line's property: the protected variant (app/storefront/cart.ts). */
const PROTECTED_PRODUCT_REF = "_svc_protected_product_ref";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function money(amount: number, shop: StoreShop): string {
  return `${(amount / 10 ** shop.currencyDecimals).toFixed(shop.currencyDecimals)} ${shop.currency}`;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
table{width:100%;border-collapse:collapse}td,th{padding:.4rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
.num{text-align:right}.props{font-size:.85rem;color:#555;margin:0;padding-left:1rem}
label{display:block;margin:.5rem 0 .1rem}input{width:100%;padding:.4rem;box-sizing:border-box}
button{margin-top:1rem;padding:.7rem 1.5rem;font-size:1rem}.error{color:#b00020}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The cart's lines; a plan line says which variant it protects. */
function cartTable(state: StoreState, shop: StoreShop, cart: Cart): string {
  const json = cart.toJSON();
  const rows = cart.lines.map((line, index) => {
    const item = json.items[index];
    if (!item) return "";
    const properties = Object.entries(line.properties).map(([name, value]) => {
      if (name !== PROTECTED_PRODUCT_REF) {
        return `<li>${escapeHtml(name)}: ${escapeHtml(value)}</li>`;
      }
      const found = state.variant(shop.domain, value);
      const what = found
        ? `${found.product.title}${found.variant.title === "Default Title" ? "" : ` - ${found.variant.title}`}`
        : "an unknown product";
      return (
        `<li data-protected-product-ref="${escapeHtml(value)}">Protection plan for ${escapeHtml(what)} ` +
        `(${PROTECTED_PRODUCT_REF}: ${escapeHtml(value)})</li>`
      );
    });
    return (
      `<tr class="checkout-line" data-line-key="${escapeHtml(item.key)}" data-variant-id="${escapeHtml(line.variantId)}">` +
      `<td>${escapeHtml(item.title)}${properties.length ? `<ul class="props">${properties.join("")}</ul>` : ""}</td>` +
      `<td class="num" data-quantity>${item.quantity}</td>` +
      `<td class="num">${escapeHtml(money(item.final_line_price, shop))}</td></tr>`
    );
  });
  return (
    `<table id="checkout-lines"><thead><tr><th>Item</th><th class="num">Quantity</th><th class="num">Total</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody><tfoot><tr><th colspan="2">Total</th>` +
    `<th class="num" id="checkout-total">${escapeHtml(money(json.total_price, shop))}</th></tr></tfoot></table>`
  );
}

function checkoutPage(
  state: StoreState,
  shop: StoreShop,
  cart: Cart,
  form: CheckoutForm,
  problems: string[] = [],
): string {
  const inputs = FIELDS.map(
    ([name, label, , type]) =>
      `<label for="checkout-${name}">${label}</label>` +
      `<input id="checkout-${name}" name="${name}" type="${type}" required value="${escapeHtml(form[name])}">`,
  ).join("");
  const errors = problems.length
    ? `<ul class="error" id="checkout-errors">${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join("")}</ul>`
    : "";
  return page(
    `Checkout - ${shop.name}`,
    `<h1>Checkout</h1><p>${escapeHtml(shop.name)}: a test checkout of the local store; no payment is taken.</p>` +
      cartTable(state, shop, cart) +
      errors +
      `<form method="post" action="/checkout" id="checkout-form"><input type="hidden" name="cart_token" value="${escapeHtml(cart.token)}">` +
      `${inputs}<button type="submit" id="checkout-pay">Pay now</button></form>`,
  );
}

function errorPage(reply: FastifyReply, status: number, title: string, message: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(
      page(
        title,
        `<h1>${escapeHtml(title)}</h1><p class="error" id="checkout-error">${escapeHtml(message)}</p><p><a href="/cart">Back to the cart</a></p>`,
      ),
    );
}

/** The form's problems, none when it can place an order. */
export function checkoutProblems(form: CheckoutForm): string[] {
  const problems: string[] = [];
  for (const [name, label] of FIELDS) {
    if (form[name].trim() === "") problems.push(`${label} is required`);
  }
  if (form.email.trim() !== "" && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.email.trim())) {
    problems.push("Email is not an email address");
  }
  return problems;
}

/** The addresses the order was placed with, by checkout token: the order model keeps none. */
interface PlacedCheckout {
  orderId: string;
  form: CheckoutForm;
}

export function registerCheckoutRoutes(app: FastifyInstance, deps: CheckoutDeps): void {
  const placed = new Map<string, PlacedCheckout>();

  void app.register(async (scope) => {
    keepRawBodies(scope);

    const cartOf = (shop: StoreShop, cookie: string | undefined) =>
      deps.carts.find(shop, parseCookies(cookie)[CART_COOKIE]);

    scope.get("/checkout", async (request, reply) => {
      const shop = deps.storefrontShop();
      if (!shop) return errorPage(reply, 404, "No shop", "This store has no shop yet.");
      const cart = cartOf(shop, request.headers.cookie);
      if (!cart || cart.toJSON().item_count === 0) {
        return errorPage(reply, 422, "Your cart is empty", "Add something to the cart first.");
      }
      const form = Object.fromEntries(
        FIELDS.map(([name, , value]) => [name, value]),
      ) as CheckoutForm;
      return reply
        .type("text/html; charset=utf-8")
        .send(checkoutPage(deps.state, shop, cart, form));
    });

    scope.post("/checkout", async (request, reply) => {
      const shop = deps.storefrontShop();
      if (!shop) return errorPage(reply, 404, "No shop", "This store has no shop yet.");
      const cart = cartOf(shop, request.headers.cookie);
      const json = cart?.toJSON();
      if (!cart || !json || json.item_count === 0) {
        return errorPage(
          reply,
          422,
          "Your cart is empty",
          "Nothing was ordered: the cart is empty.",
        );
      }
      const incoming = webRequest(request);
      const fields = nestFormFields(new URLSearchParams(await incoming.text()));
      const form = Object.fromEntries(
        FIELDS.map(([name]) => [name, typeof fields[name] === "string" ? fields[name] : ""]),
      ) as CheckoutForm;
      if (typeof fields.cart_token === "string" && fields.cart_token !== cart.token) {
        return errorPage(reply, 409, "Your cart changed", "This checkout belongs to another cart.");
      }
      const problems = checkoutProblems(form);
      if (problems.length > 0) {
        return reply
          .code(422)
          .type("text/html; charset=utf-8")
          .send(checkoutPage(deps.state, shop, cart, form, problems));
      }

      let order: Order;
      try {
        order = deps.state.createOrder(shop.domain, {
          lineItems: cart.lines.map((line) => ({
            variantId: line.variantId,
            quantity: line.quantity,
            properties: Object.entries(line.properties).map(([name, value]) => ({ name, value })),
          })),
          cartToken: cart.token,
          noteAttributes: Object.entries(cart.attributes).map(([name, value]) => ({ name, value })),
          customer: {
            email: form.email.trim(),
            firstName: form.first_name.trim(),
            lastName: form.last_name.trim(),
          },
          email: form.email.trim(),
          sourceName: "web",
        });
      } catch (error) {
        if (!(error instanceof StoreUserError)) throw error;
        return errorPage(reply, 422, "The order was refused", error.message);
      }
      const checkoutToken = order.checkoutToken ?? order.token;
      placed.set(checkoutToken, { orderId: order.id, form });
      deps.carts.remove(shop, cart.token);
      return reply
        .code(303)
        .header("set-cookie", `${CART_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`)
        .header("location", `/checkouts/${checkoutToken}/thank-you`)
        .send();
    });

    scope.get<{ Params: { token: string } }>(
      "/checkouts/:token/thank-you",
      async (request, reply) => {
        const shop = deps.storefrontShop();
        const checkout = placed.get(request.params.token);
        const order = shop && checkout && deps.state.order(shop.domain, checkout.orderId);
        if (!shop || !checkout || !order) {
          return errorPage(reply, 404, "No such order", "This checkout placed no order here.");
        }
        const { form } = checkout;
        const blocks =
          deps.thankYouBlocks?.({
            shop,
            checkoutToken: request.params.token,
            locale: buyerLocaleOf(request),
          }) ?? "";
        const total = order.lineItems.reduce((sum, line) => sum + line.price * line.quantity, 0);
        const lines = order.lineItems
          .map(
            (line) =>
              `<li>${line.quantity} × ${escapeHtml(line.name)}${line.properties
                .filter(({ name }) => name === PROTECTED_PRODUCT_REF)
                .map(({ value }) => ` (protects variant ${escapeHtml(value)})`)
                .join("")}</li>`,
          )
          .join("");
        return reply
          .type("text/html; charset=utf-8")
          .send(
            page(
              `Thank you - ${shop.name}`,
              `<h1>Thank you, ${escapeHtml(form.first_name)}!</h1>` +
                `<p>Your order <strong id="order-name">${escapeHtml(order.name)}</strong> is confirmed.</p>` +
                `<p>Order ID: <code id="order-id">${escapeHtml(order.id)}</code></p>` +
                blocks +
                `<ul id="order-lines">${lines}</ul><p>Total: ${escapeHtml(money(total, shop))}</p>` +
                `<p>Confirmation to ${escapeHtml(order.email)}; shipping to ${escapeHtml(
                  `${form.first_name} ${form.last_name}, ${form.address1}, ${form.zip} ${form.city}, ${form.country}`,
                )}.</p><p><a href="/">Continue shopping</a></p>`,
            ),
          );
      },
    );
  });
}
