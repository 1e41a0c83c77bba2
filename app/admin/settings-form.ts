import { z } from "zod";
import type { MessageKey } from "../i18n/translate";
import type { ShopSettings } from "../models/ShopSettings.server";
import { OFFER_LAYOUTS, offerOptionsSchema } from "../offers/offer-options";

/*
 * The Settings page's form, checked on the server. Messages are i18n keys of the `settings`
 * namespace. Check boxes are sent as "true" or "false": a missing field is an error, never "off".
 */

/** Form intent of the "Grant the fulfilment permission" button (decision 025). */
export const GRANT_FULFILMENT_SCOPE = "grant_fulfilment_scope";

const flag = z.enum(["true", "false"]).transform((value) => value === "true");

const settingsFormSchema = z.object({
  reportOrdersWithoutPlan: flag,
  autoRefundPlans: flag,
  autoEditPlans: flag,
  autoFulfilPlans: flag,
  selfServiceLink: flag,
  heading: z.string().default(""),
  showInsuranceLink: flag,
  layout: z.enum(OFFER_LAYOUTS),
});

/** A field of the form, or "form" for an error that belongs to none. */
export type SettingsField = keyof typeof settingsFormSchema.shape | "form";

export type SettingsActionData =
  | { ok: true; notice: MessageKey }
  | { ok: false; errors: Partial<Record<SettingsField, MessageKey>> };

export function parseSettingsForm(
  values: Record<string, unknown>,
): { ok: true; settings: ShopSettings } | { ok: false; answer: SettingsActionData } {
  const parsed = settingsFormSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<SettingsField, MessageKey>> = {};
    for (const issue of parsed.error.issues) {
      // A bad check box can only come from a stale or forged form: one message for the page.
      if (issue.path[0] === "layout") errors.layout = "settings.offer.errors.layout";
      else errors.form = "settings.errors.invalidForm";
    }
    return { ok: false, answer: { ok: false, errors } };
  }
  const {
    reportOrdersWithoutPlan,
    autoRefundPlans,
    autoEditPlans,
    autoFulfilPlans,
    selfServiceLink,
    ...offer
  } = parsed.data;
  const options = offerOptionsSchema.safeParse(offer);
  if (!options.success) {
    const tooLong = options.error.issues.some((issue) => issue.code === "too_big");
    return {
      ok: false,
      answer: {
        ok: false,
        errors: {
          heading: tooLong
            ? "settings.offer.errors.headingTooLong"
            : "settings.offer.errors.headingInvalid",
        },
      },
    };
  }
  return {
    ok: true,
    settings: {
      reportOrdersWithoutPlan,
      autoRefundPlans,
      autoEditPlans,
      autoFulfilPlans,
      selfServiceLink,
      offerOptions: options.data,
    },
  };
}
