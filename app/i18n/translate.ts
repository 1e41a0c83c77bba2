import { ENGLISH, LOCALES, MESSAGES, type Locale } from "./messages";

export type TranslateValues = Record<string, string | number>;
export type Translate = (key: string, values?: TranslateValues) => string;

function lookup(messages: unknown, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}

/**
 * `t("home.checklist.title", { count: 3 })`: the string of the locale, else the English one,
 * with each {name} replaced. An unknown key comes back as the key, so it shows and is fixed.
 */
export function createTranslator(locale: Locale): Translate {
  const messages = MESSAGES[locale];
  return (key, values) => {
    const text = lookup(messages, key) ?? lookup(ENGLISH, key) ?? key;
    if (!values) return text;
    return text.replace(/\{(\w+)\}/g, (match, name: string) =>
      name in values ? String(values[name]) : match,
    );
  };
}

/** The admin's language: Shopify passes the user's as `locale` (e.g. "de-DE"); English otherwise. */
export function resolveLocale(value: string | null | undefined): Locale {
  const language = value?.slice(0, 2).toLowerCase();
  return LOCALES.find((locale) => locale === language) ?? "en";
}
