import { z } from "zod";
import { MAX_HEADING_LENGTH, OFFER_LAYOUTS } from "./offer-option-values";

/*
 * How the storefront's Protection offer block renders the plans: set in the admin's Settings,
 * stored as JSON in ShopConnection.offerOptions, and answered with the plans by the app proxy.
 * Pure: no I/O, used by the settings route, the model and the proxy.
 */

export { MAX_HEADING_LENGTH, OFFER_LAYOUTS, type OfferLayout } from "./offer-option-values";

// Rendered as text by the block; control characters (line breaks included) are refused.
function hasControlCharacters(value: string): boolean {
  return [...value].some((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

const heading = z
  .string()
  .trim()
  .max(MAX_HEADING_LENGTH)
  .refine((value) => !hasControlCharacters(value), { message: "has control characters" })
  // An empty heading means "the block's own heading".
  .transform((value) => (value === "" ? null : value))
  .nullable();

/** The options the merchant saves. Every field is required here: the form sends all of them. */
export const offerOptionsSchema = z.strictObject({
  heading,
  showInsuranceLink: z.boolean(),
  layout: z.enum(OFFER_LAYOUTS),
});

export type OfferOptions = z.infer<typeof offerOptionsSchema>;

export const DEFAULT_OFFER_OPTIONS: Readonly<OfferOptions> = Object.freeze({
  heading: null,
  showInsuranceLink: true,
  layout: "list",
});

// Stored JSON is read field by field: a field that is missing or no longer valid (an older
// version, a hand edit) falls back to its default without losing the others.
const storedOptionsSchema = z.object({
  heading: heading.catch(DEFAULT_OFFER_OPTIONS.heading),
  showInsuranceLink: z.boolean().catch(DEFAULT_OFFER_OPTIONS.showInsuranceLink),
  layout: z.enum(OFFER_LAYOUTS).catch(DEFAULT_OFFER_OPTIONS.layout),
});

/** The options stored for a shop; defaults for null, malformed JSON or invalid fields. */
export function readOfferOptions(stored: string | null | undefined): OfferOptions {
  if (stored === null || stored === undefined || stored === "") return { ...DEFAULT_OFFER_OPTIONS };
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return { ...DEFAULT_OFFER_OPTIONS };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ...DEFAULT_OFFER_OPTIONS };
  }
  return storedOptionsSchema.parse(json);
}

/** The JSON stored in ShopConnection.offerOptions: always the full, checked object. */
export function writeOfferOptions(options: OfferOptions): string {
  const checked = offerOptionsSchema.parse(options);
  return JSON.stringify({
    heading: checked.heading,
    showInsuranceLink: checked.showInsuranceLink,
    layout: checked.layout,
  });
}
