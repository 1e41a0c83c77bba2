// The offer options' allowed values, without zod: the Settings page's browser code imports these.

export const OFFER_LAYOUTS = ["list", "compact"] as const;
export type OfferLayout = (typeof OFFER_LAYOUTS)[number];

/** A heading longer than this would wrap badly above the plans on a phone. */
export const MAX_HEADING_LENGTH = 80;
