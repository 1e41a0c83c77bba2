import { isJsonObject, type JsonObject } from "./files";

/*
 * The theme editor's saves that install our theme app extension, applied in memory to the
 * theme's own files (never written back): the product block in the product template's main section,
 * just before the buy buttons, and the app embed switched on in settings_data.json. This is
 * what a merchant's "Add block" and "App embeds" toggle save on Shopify.
 */

export const APP_HANDLE = "svc-protection";
/** The extension's UUID as Shopify writes it in block types; stable so saved data stays valid. */
export const EXTENSION_UUID = "0b5c8a6e-7f3d-4e21-9a0c-5d1e2f3a4b6c";

export const OFFER_BLOCK_TYPE = `shopify://apps/${APP_HANDLE}/blocks/protection-offer/${EXTENSION_UUID}`;
export const EMBED_BLOCK_TYPE = `shopify://apps/${APP_HANDLE}/blocks/cart-rules/${EXTENSION_UUID}`;
export const OFFER_BLOCK_ID = "svc_protection_offer_Xk9PqL";
export const EMBED_BLOCK_ID = "11223344556677889900";

export interface AppSwitches {
  block: boolean;
  embed: boolean;
  /** The theme's "Cart type" setting, saved in the editor like the embed; its own when absent. */
  cartType?: "drawer" | "page" | "notification";
}

/** The app block a `shopify://apps/...` type names, or undefined for a theme's own block. */
export function appBlockOf(type: string): { app: string; block: string; uuid: string } | undefined {
  const match = /^shopify:\/\/apps\/([^/]+)\/blocks\/([^/]+)\/([^/]+)$/.exec(type);
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  return { app: match[1], block: match[2], uuid: match[3] };
}

/** templates/product.json with our block added to `main` before `buy_buttons`. */
export function withOfferBlock(productTemplate: JsonObject): JsonObject {
  const template = structuredClone(productTemplate);
  const sections = template.sections;
  const main = isJsonObject(sections) ? sections.main : undefined;
  if (!isJsonObject(main) || !isJsonObject(main.blocks) || !Array.isArray(main.block_order)) {
    throw new Error("Failed to add the app block: templates/product.json has no main section");
  }
  main.blocks[OFFER_BLOCK_ID] = { type: OFFER_BLOCK_TYPE, settings: { show_details_link: true } };
  const order = main.block_order as string[];
  const before = order.indexOf("buy_buttons");
  order.splice(before === -1 ? order.length : before, 0, OFFER_BLOCK_ID);
  return template;
}

/** settings_data.json with `current` as an object, as the editor's first save leaves it. */
function savedSettings(settingsData: JsonObject): { data: JsonObject; current: JsonObject } {
  const data = structuredClone(settingsData);
  // `current` may name a preset ("Default"); the editor's first save copies it into an object.
  const current = isJsonObject(data.current)
    ? data.current
    : structuredClone((data.presets as Record<string, JsonObject>)[String(data.current)] ?? {});
  data.current = current;
  return { data, current };
}

/** config/settings_data.json with the theme setting "Cart type" saved as `cartType`. */
export function withCartType(
  settingsData: JsonObject,
  cartType: NonNullable<AppSwitches["cartType"]>,
): JsonObject {
  const { data, current } = savedSettings(settingsData);
  current.cart_type = cartType;
  return data;
}

/** config/settings_data.json with our app embed on in `current.blocks`. */
export function withCartRulesEmbed(settingsData: JsonObject): JsonObject {
  const { data, current } = savedSettings(settingsData);
  const blocks = isJsonObject(current.blocks) ? current.blocks : {};
  blocks[EMBED_BLOCK_ID] = {
    type: EMBED_BLOCK_TYPE,
    disabled: false,
    settings: { offer_in_cart: false },
  };
  current.blocks = blocks;
  return data;
}

/** The theme's product template and settings data as the editor saved them for these switches. */
export function installApp(
  files: { productTemplate: JsonObject; settingsData: JsonObject },
  switches: AppSwitches,
): { productTemplate: JsonObject; settingsData: JsonObject } {
  const settingsData = switches.cartType
    ? withCartType(files.settingsData, switches.cartType)
    : files.settingsData;
  return {
    productTemplate: switches.block ? withOfferBlock(files.productTemplate) : files.productTemplate,
    settingsData: switches.embed ? withCartRulesEmbed(settingsData) : settingsData,
  };
}
