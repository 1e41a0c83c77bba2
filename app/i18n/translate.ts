import {
  ENGLISH,
  LOCALES,
  MESSAGES,
  type Locale,
  type MessageKey,
  type Messages,
} from "./messages";
import type { MessageAt, Placeholders } from "./types";

export type { MessageKey } from "./messages";
export type TranslateValues = Record<string, string | number>;

/**
 * The values a key's English string needs: every {name} it holds (extra values are allowed).
 * When K falls back to every key (the argument is no key at all), values stay optional so the
 * compiler reports the bad key rather than a missing argument.
 */
export type ValuesOf<K extends MessageKey> = [MessageKey] extends [K]
  ? [values?: TranslateValues]
  : [Placeholders<MessageAt<Messages, K>>] extends [never]
    ? [values?: TranslateValues]
    : [values: Record<Placeholders<MessageAt<Messages, K>>, string | number> & TranslateValues];

export type Translate = <K extends MessageKey>(key: K, ...values: ValuesOf<K>) => string;

function lookup(messages: unknown, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}

/**
 * Whether a string from outside the types (a zod issue's message, a stored value) is one of
 * our keys, so it can be passed to `t`.
 */
export function isMessageKey(value: string): value is MessageKey {
  return lookup(ENGLISH, value) !== undefined;
}

/**
 * `t("home.checklist.title", { count: 3 })`: the string of the locale, else the English one,
 * with each {name} replaced. The key's type makes a typo a compile error; at run time an
 * unknown key still comes back as the key, so it shows and is fixed.
 */
export function createTranslator(locale: Locale): Translate {
  const messages = MESSAGES[locale];
  return (key: string, values?: TranslateValues) => {
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
