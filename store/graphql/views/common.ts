import { type GraphQLResolveInfo, isEnumType, isObjectType, getNamedType } from "../graphql-js";
import { formatMinorUnits } from "../../../app/lib/money";
import type { StoreUserError } from "../../model";
import type { View } from "../context";

/** A `Money` scalar as Shopify writes a price: the currency's digits, "19.99", "1500", "1.250". */
export function moneyAmount(minorUnits: number, currency: string): string {
  return formatMinorUnits(minorUnits, currency);
}

/**
 * A `Decimal` amount as Shopify writes `MoneyV2.amount`: trailing zeros dropped, at least one
 * decimal ("19.99", "19.9", "10.0"; JPY 1500 as "1500.0").
 */
export function decimalAmount(minorUnits: number, currency: string): string {
  const written = formatMinorUnits(minorUnits, currency);
  if (!written.includes(".")) return `${written}.0`;
  const trimmed = written.replace(/0+$/, "");
  return trimmed.endsWith(".") ? `${trimmed}0` : trimmed;
}

export function moneyV2(minorUnits: number, currency: string): View {
  return {
    __typename: "MoneyV2",
    amount: decimalAmount(minorUnits, currency),
    currencyCode: currency,
  };
}

/**
 * A `MoneyBag`. The store never converts: an order's amounts are in its currency, and its
 * presentment currency is the same unless an order was created otherwise.
 */
export function moneyBag(
  minorUnits: number,
  shopCurrency: string,
  presentmentCurrency: string,
): View {
  return {
    __typename: "MoneyBag",
    shopMoney: moneyV2(minorUnits, shopCurrency),
    presentmentMoney: moneyV2(minorUnits, presentmentCurrency),
  };
}

export function attributeView(attribute: { name: string; value: string }): View {
  return { __typename: "Attribute", key: attribute.name, value: attribute.value };
}

/**
 * A refused change as the payload's `userErrors` type answers it (`UserError`,
 * `ProductSetUserError`, ...). The code is kept only when that type's code enum has it.
 */
export function userErrorView(
  typeName: string,
  error: StoreUserError,
  info: GraphQLResolveInfo,
  extra: Record<string, unknown> = {},
): View {
  const type = info.schema.getType(typeName);
  const fields = isObjectType(type) ? type.getFields() : {};
  const view: Record<string, unknown> = {
    __typename: typeName,
    field: error.field,
    message: error.message,
    ...extra,
  };
  const codeField = fields.code;
  if (codeField) {
    const codeType = getNamedType(codeField.type);
    const known = isEnumType(codeType) && codeType.getValue(error.code ?? "") !== undefined;
    view.code = known ? error.code : null;
  }
  return view as View;
}
