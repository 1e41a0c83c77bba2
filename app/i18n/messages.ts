import deCommon from "./de/common";
import deConnection from "./de/connection";
import deEvents from "./de/events";
import deHome from "./de/home";
import deItems from "./de/items";
import deSettings from "./de/settings";
import enCommon from "./en/common";
import enConnection from "./en/connection";
import enEvents from "./en/events";
import enHome from "./en/home";
import enItems from "./en/items";
import enSettings from "./en/settings";
import type { MessagePath, Translation } from "./types";

/** One namespace per admin page, plus `common`. German must have every English key (types). */
const en = {
  common: enCommon,
  home: enHome,
  connection: enConnection,
  items: enItems,
  events: enEvents,
  settings: enSettings,
};
const de = {
  common: deCommon,
  home: deHome,
  connection: deConnection,
  items: deItems,
  events: deEvents,
  settings: deSettings,
};

export const LOCALES = ["en", "de"] as const;
export type Locale = (typeof LOCALES)[number];
export type Messages = typeof en;
/** Every key `t` accepts: a typo in a key is a type error, not a key rendered on the page. */
export type MessageKey = MessagePath<Messages>;

export const MESSAGES: Record<Locale, Translation<Messages>> = { en, de };
export const ENGLISH: Messages = en;
