import type {
  BillingAddress,
  CartLineItem,
  Customer,
  OrderPlacedPayload,
} from "../protection/types";
import { currencyExponent } from "../lib/money";
import {
  type JsonObject,
  fail,
  fieldPath,
  firstPresent,
  isJsonObject,
  requireArray,
  requireId,
  requireMinorUnits,
  requireObject,
  requireQuantity,
  requireTimestamp,
  text,
} from "./payload-reader";

/** The line item property the storefront writes on a plan line; its value is the protected variant's ID. */
export const PROTECTED_PRODUCT_REF_PROPERTY = "_svc_protected_product_ref";

export interface OrderPlacedMapping {
  payload: OrderPlacedPayload;
  planLineCount: number;
}

/** Shopify's order (orders/create and the other order-shaped topics) as the order_placed payload. */
export function toOrderPlacedEvent(order: JsonObject): OrderPlacedMapping {
  const orderId = requireId(order.id, "id");
  const placedAt = requireTimestamp(order, ["processed_at", "created_at"]);
  const rawLines = requireArray(order.line_items, "line_items");
  const currency = orderCurrency(order, rawLines);

  let planLineCount = 0;
  const lineItems = rawLines.map((raw, index) => {
    const line = toCartLineItem(raw, fieldPath("line_items", index), currency);
    if (line.custom_properties) planLineCount += 1;
    return line;
  });

  const cartId = typeof order.cart_token === "string" ? order.cart_token : "";
  const payload: OrderPlacedPayload = {
    order_id: orderId,
    placed_at: placedAt,
    order_currency: currency.toLowerCase(),
    ...(cartId === "" ? {} : { cart_id: cartId }),
    customer: toCustomer(order),
    customer_billing_address: toBillingAddress(order),
    line_items: lineItems,
  };
  return { payload, planLineCount };
}

/** The shop currency: the order's `currency`, else the first line's shop money currency. */
function orderCurrency(order: JsonObject, lines: unknown[]): string {
  let found: { value: unknown; path: string } | null = null;
  if (order.currency !== undefined && order.currency !== null) {
    found = { value: order.currency, path: "currency" };
  } else {
    const shopMoney = shopMoneyOf(lines[0]);
    if (shopMoney && shopMoney.currency_code !== undefined && shopMoney.currency_code !== null) {
      found = {
        value: shopMoney.currency_code,
        path: "line_items[0].price_set.shop_money.currency_code",
      };
    }
  }
  if (found === null) fail("currency is missing");
  return requireCurrency(found.value, found.path);
}

function requireCurrency(value: unknown, path: string): string {
  if (typeof value !== "string") fail(`${path} is not a currency code: ${JSON.stringify(value)}`);
  try {
    currencyExponent(value);
  } catch (error) {
    return fail(`${path} is invalid: ${(error as Error).message}`);
  }
  return value.toUpperCase();
}

function shopMoneyOf(line: unknown): JsonObject | null {
  if (!isJsonObject(line) || !isJsonObject(line.price_set)) return null;
  return isJsonObject(line.price_set.shop_money) ? line.price_set.shop_money : null;
}

function toCartLineItem(raw: unknown, path: string, currency: string): CartLineItem {
  const line = requireObject(raw, path);
  const id = requireId(line.id, fieldPath(path, "id"));
  const item: CartLineItem = {
    id,
    quantity: requireQuantity(line.quantity, fieldPath(path, "quantity")),
    price_amount: unitPriceAmount(line, path, currency),
    product_id: productIdOf(line, path, id),
    product_title: text(line.title),
    product_brand: text(line.vendor),
  };
  const reference = protectedProductReference(line, path);
  if (reference !== null) item.custom_properties = { product_reference: reference };
  return item;
}

/** The unit price before discounts, in the shop currency. `price` counts only without `price_set`. */
function unitPriceAmount(line: JsonObject, path: string, currency: string): number {
  if (line.price_set === undefined || line.price_set === null) {
    return requireMinorUnits(line.price, fieldPath(path, "price"), currency);
  }
  const priceSetPath = fieldPath(path, "price_set");
  const priceSet = requireObject(line.price_set, priceSetPath);
  const shopMoneyPath = fieldPath(priceSetPath, "shop_money");
  const shopMoney = requireObject(priceSet.shop_money, shopMoneyPath);
  const codePath = fieldPath(shopMoneyPath, "currency_code");
  if (shopMoney.currency_code !== undefined && shopMoney.currency_code !== null) {
    const lineCurrency = requireCurrency(shopMoney.currency_code, codePath);
    if (lineCurrency !== currency) {
      fail(`${codePath} is ${lineCurrency} but the order currency is ${currency}`);
    }
  }
  return requireMinorUnits(shopMoney.amount, fieldPath(shopMoneyPath, "amount"), currency);
}

/** The variant ID, which is what the storefront writes into _svc_protected_product_ref. */
function productIdOf(line: JsonObject, path: string, lineId: string): string {
  const found = firstPresent(line, ["variant_id", "product_id"]);
  if (found === null) return `custom:${lineId}`;
  return requireId(found.value, fieldPath(path, found.key));
}

/**
 * The _svc_protected_product_ref property of a line: `{found: false}` when the line has none.
 * Properties are a list of {name, value} in order webhooks and a plain object in some payloads.
 */
function findPlanProperty(line: unknown): { found: boolean; value?: unknown } {
  if (!isJsonObject(line)) return { found: false };
  const properties = line.properties;
  if (Array.isArray(properties)) {
    const property = properties.find(
      (entry) => isJsonObject(entry) && entry.name === PROTECTED_PRODUCT_REF_PROPERTY,
    );
    return isJsonObject(property) ? { found: true, value: property.value } : { found: false };
  }
  if (isJsonObject(properties) && Object.hasOwn(properties, PROTECTED_PRODUCT_REF_PROPERTY)) {
    return { found: true, value: properties[PROTECTED_PRODUCT_REF_PROPERTY] };
  }
  return { found: false };
}

/**
 * The protected variant a payload line's plan property names (trimmed), "" when it is empty, and
 * null for a line that is not a plan line.
 */
export function protectedProductRefOf(line: unknown): string | null {
  const { found, value } = findPlanProperty(line);
  if (!found) return null;
  return typeof value === "string" ? value.trim() : text(value);
}

/** True when any line carries the plan property, whatever its value. */
export function hasPlanLine(lines: unknown[]): boolean {
  return lines.some((line) => findPlanProperty(line).found);
}

function protectedProductReference(line: JsonObject, path: string): string | null {
  const reference = protectedProductRefOf(line);
  if (reference === null) return null;
  if (reference === "") {
    fail(`${fieldPath(path, "properties")}.${PROTECTED_PRODUCT_REF_PROPERTY} is empty`);
  }
  return reference;
}

function toCustomer(order: JsonObject): Customer {
  const customer = isJsonObject(order.customer) ? order.customer : {};
  const address = addressOf(order) ?? {};
  return {
    first_name: text(firstPresent(customer, ["first_name"])?.value ?? address.first_name),
    last_name: text(firstPresent(customer, ["last_name"])?.value ?? address.last_name),
    email: text(
      firstPresent(customer, ["email"])?.value ??
        firstPresent(order, ["email", "contact_email"])?.value,
    ),
  };
}

function addressOf(order: JsonObject): JsonObject | null {
  if (isJsonObject(order.billing_address)) return order.billing_address;
  if (isJsonObject(order.shipping_address)) return order.shipping_address;
  return null;
}

function toBillingAddress(order: JsonObject): BillingAddress {
  const address = addressOf(order) ?? {};
  const billing: BillingAddress = {
    address_line_1: text(address.address1),
    city: text(address.city),
    zip: text(address.zip),
  };
  // The service takes a two-letter code or nothing: an order without an address has none.
  const country = text(address.country_code).toLowerCase();
  if (country !== "") billing.country = country;
  const line2 = text(address.address2);
  if (line2.trim() !== "") billing.address_line_2 = line2;
  return billing;
}
