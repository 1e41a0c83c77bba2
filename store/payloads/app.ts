/*
 * app/uninstalled: the shop, as Shopify's 2026-04 sample. The store keeps a shop's domain, name,
 * email, currency, time zone, plan and location; what it has no data for (address, owner, phone,
 * tax settings) is Shopify's empty value.
 */
import { currencyExponent } from "../../app/lib/money";
import { type JsonObject, jsonId } from "../json";
import type { ShopPlan, StoreShop } from "../model";
import { shopTimestamp, timeZoneLabel } from "./timestamps";

/** Shopify's names for the plans that set the Admin API's rate (`plan_display_name`, `plan_name`). */
const PLAN_NAMES: Record<ShopPlan, { display: string; name: string }> = {
  standard: { display: "Shopify", name: "professional" },
  advanced: { display: "Advanced", name: "unlimited" },
  plus: { display: "Shopify Plus", name: "shopify_plus" },
};

/** The currency's symbol as English formatting writes it ("€", "$", "¥", "KWD"). */
function currencySymbol(currency: string): string {
  const parts = new Intl.NumberFormat("en", { style: "currency", currency }).formatToParts(0);
  return parts.find((part) => part.type === "currency")?.value ?? currency;
}

/** Shopify's Liquid money formats: "€{{amount}}", "¥{{amount_no_decimals}}". */
function moneyFormats(currency: string): { plain: string; withCurrency: string } {
  const amount = currencyExponent(currency) === 0 ? "{{amount_no_decimals}}" : "{{amount}}";
  const plain = `${currencySymbol(currency)}${amount}`;
  return { plain, withCurrency: `${plain} ${currency}` };
}

export function shopPayload(shop: StoreShop): JsonObject {
  const createdAt = shopTimestamp(shop.createdAt, shop.ianaTimezone);
  const plan = PLAN_NAMES[shop.plan];
  const formats = moneyFormats(shop.currency);
  return {
    id: jsonId(shop.id),
    name: shop.name,
    email: shop.email,
    // The primary domain: a shop without a custom domain is served on its myshopify domain.
    domain: shop.domain,
    province: null,
    country: null,
    address1: null,
    zip: null,
    city: null,
    source: null,
    phone: null,
    latitude: null,
    longitude: null,
    primary_locale: "en",
    address2: null,
    created_at: createdAt,
    updated_at: createdAt,
    country_code: null,
    country_name: null,
    currency: shop.currency,
    customer_email: shop.email,
    timezone: timeZoneLabel(shop.createdAt, shop.ianaTimezone),
    iana_timezone: shop.ianaTimezone,
    shop_owner: null,
    money_format: formats.plain,
    money_with_currency_format: formats.withCurrency,
    weight_unit: "kg",
    province_code: null,
    taxes_included: null,
    auto_configure_tax_inclusivity: null,
    tax_shipping: null,
    county_taxes: null,
    plan_display_name: plan.display,
    plan_name: plan.name,
    has_discounts: false,
    has_gift_cards: false,
    myshopify_domain: shop.domain,
    google_apps_domain: null,
    google_apps_login_enabled: null,
    money_in_emails_format: formats.plain,
    money_with_currency_in_emails_format: formats.withCurrency,
    eligible_for_payments: false,
    requires_extra_payments_agreement: false,
    password_enabled: null,
    has_storefront: true,
    finances: false,
    primary_location_id: jsonId(shop.locationId),
    checkout_api_supported: false,
    multi_location_enabled: false,
    setup_required: false,
    pre_launch_enabled: false,
    enabled_presentment_currencies: [shop.currency],
    marketing_sms_consent_enabled_at_checkout: false,
    transactional_sms_disabled: false,
  };
}
