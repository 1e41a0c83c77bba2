// Shopify's component types name the `preact` namespace as a global; the root program (React
// JSX) loads Preact's types only through this import.
import type {} from "preact";
import type { OrderAdminHost } from "../../../../extensions/svc-order-admin/src/host";
import type {
  OrderStatusHost,
  ThankYouHost,
} from "../../../../extensions/svc-post-purchase/src/host";

/*
 * Shopify's `shopify.i18n` over one of an extension's locale files (locales/*.json): `{{name}}`
 * replacements and Intl formatting in the buyer's or staff member's language. Browser code,
 * shared by the local store's extension host and the extensions' browser tests.
 */

export type HostI18n = ThankYouHost["i18n"] & OrderStatusHost["i18n"] & OrderAdminHost["i18n"];

export interface I18nConfig {
  /** A BCP 47 tag: "en", "de", "de-DE". */
  locale: string;
  /** The extension's locale file for that language. */
  translations: Record<string, unknown>;
  /** What formatCurrency uses when the call names no currency: the shop's (presentment) one. */
  currency: string;
}

function lookUp(translations: Record<string, unknown>, key: string): string {
  let node: unknown = translations;
  for (const part of key.split(".")) {
    node =
      typeof node === "object" && node !== null
        ? (node as Record<string, unknown>)[part]
        : undefined;
  }
  // A missing key throws: an extension must not ship a key its locale file lacks.
  if (typeof node !== "string") throw new Error(`No translation for ${key}`);
  return node;
}

export function createI18n({ locale, translations, currency }: I18nConfig): HostI18n {
  function translate(key: string, options: Record<string, unknown> = {}): string {
    return lookUp(translations, key).replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => {
      if (!(name in options)) throw new Error(`${key} needs {{${name}}}`);
      return String(options[name]);
    });
  }
  return {
    translate: translate as HostI18n["translate"],
    formatNumber: (number, options) => new Intl.NumberFormat(locale, options).format(number),
    formatCurrency: (number, options) =>
      new Intl.NumberFormat(locale, { style: "currency", currency, ...options }).format(number),
    formatDate: (date, options) => new Intl.DateTimeFormat(locale, options).format(date),
  };
}
