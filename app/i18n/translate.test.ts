import { describe, expect, it } from "vitest";
import { MESSAGES } from "./messages";
import { createTranslator, isMessageKey, resolveLocale, type MessageKey } from "./translate";

/*
 * The `@ts-expect-error` lines are the type tests: `tsc --noEmit` (CI's typecheck, which
 * includes test files) fails if `t` accepts a misspelt key or drops a needed value again,
 * because the directive then has no error to expect.
 */

function keysOf(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix.slice(0, -1)];
  return Object.entries(node).flatMap(([name, child]) => keysOf(child, `${prefix}${name}.`));
}

describe("createTranslator", () => {
  const en = createTranslator("en");
  const de = createTranslator("de");

  it("translates a key and fills its placeholders", () => {
    expect(en("common.nav.home")).toBe("Home");
    expect(de("common.nav.home")).toBe("Start");
    expect(en("home.checklist.progress", { done: 2, total: 5 })).toBe("2 of 5 steps done");
    expect(de("home.checklist.progress", { done: 2, total: 5 })).toBe("2 von 5 Schritten erledigt");
  });

  it("rejects a misspelt key at compile time and still shows it at run time", () => {
    // @ts-expect-error "hmoe" is no namespace: a typo is a type error.
    expect(en("hmoe.title")).toBe("hmoe.title");
    // @ts-expect-error a key that stops at a namespace object is not a string key.
    expect(en("common.nav")).toBe("common.nav");
  });

  it("requires the values a key's string needs", () => {
    // @ts-expect-error the string holds {done} and {total}.
    expect(en("home.checklist.progress")).toBe("{done} of {total} steps done");
    // @ts-expect-error {total} is missing.
    expect(en("home.checklist.progress", { done: 2 })).toBe("2 of {total} steps done");
  });

  it("narrows a dynamic key to known values", () => {
    const statuses = ["pending", "delivered"] as const;
    expect(statuses.map((status) => en(`events.status.${status}`))).toEqual([
      "Pending",
      "Delivered",
    ]);
    const anyStatus: string = "pending";
    // @ts-expect-error a status typed as any string does not make a key.
    expect(en(`events.status.${anyStatus}`)).toBe("Pending");
  });
});

describe("isMessageKey", () => {
  it("accepts our keys and nothing else", () => {
    expect(isMessageKey("connection.errors.invalidForm")).toBe(true);
    expect(isMessageKey("connection.errors")).toBe(false);
    expect(isMessageKey("Required")).toBe(false);
    const value: string = "settings.errors.invalidForm";
    const key: MessageKey = isMessageKey(value) ? value : "common.errors.title";
    expect(key).toBe("settings.errors.invalidForm");
  });
});

describe("the German messages", () => {
  it("have exactly the English keys, each with the same placeholders", () => {
    const english = keysOf(MESSAGES.en).sort();
    expect(keysOf(MESSAGES.de).sort()).toEqual(english);
    const en = createTranslator("en");
    const de = createTranslator("de");
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of english) {
      if (!isMessageKey(key)) throw new Error(`Failed to read English key ${key}`);
      expect.soft(placeholders(de(key, {})), key).toEqual(placeholders(en(key, {})));
    }
  });
});

describe("resolveLocale", () => {
  it("takes the language of Shopify's locale, English otherwise", () => {
    expect(resolveLocale("de-DE")).toBe("de");
    expect(resolveLocale("fr")).toBe("en");
    expect(resolveLocale(null)).toBe("en");
  });
});
