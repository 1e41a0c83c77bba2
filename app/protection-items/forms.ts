import { z } from "zod";
import { isMessageKey, type MessageKey } from "../i18n/translate";
import { isResourceGid } from "../lib/shopify-id";
import { MAPPING_STRATEGIES } from "./strategies";

/*
 * The Protection items forms, checked on the server. Messages are i18n keys of the `items`
 * namespace: the page translates them into the admin's language.
 */

const MAX_TEXT = 255;
/** The resource picker returns at most this many resources at once; more is not a real pick. */
export const MAX_PICKED = 250;

const category = z
  .string()
  .trim()
  .max(MAX_TEXT, { error: "items.errors.categoryTooLong" })
  .optional()
  .transform((value) => (value ? value : null));

export const createProductFormSchema = z.object({
  title: z
    .string({ error: "items.errors.titleRequired" })
    .trim()
    .min(1, { error: "items.errors.titleRequired" })
    .max(MAX_TEXT, { error: "items.errors.titleTooLong" }),
  category,
  prices: z
    .string({ error: "items.errors.pricesRequired" })
    .trim()
    .min(1, { error: "items.errors.pricesRequired" }),
});

export const itemsFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("map"),
      strategy: z.enum(MAPPING_STRATEGIES, { error: "items.errors.strategy" }),
      category,
      ids: z
        .array(z.string().refine(isResourceGid, { error: "items.errors.pickSomething" }))
        .min(1, { error: "items.errors.pickSomething" })
        .max(MAX_PICKED, { error: "items.errors.tooMany" }),
    }),
    z.object({
      intent: z.literal("remove"),
      itemId: z.string().min(1, { error: "items.errors.invalidForm" }),
    }),
  ],
  { error: "items.errors.invalidForm" },
);

export type ItemsForm = z.infer<typeof itemsFormSchema>;

/** A form's fields as zod reads them: single values, and `id` repeated for the picked IDs. */
export function itemsFormInput(form: FormData) {
  return {
    intent: form.get("intent") ?? undefined,
    strategy: form.get("strategy") ?? undefined,
    category: form.get("category") ?? undefined,
    ids: form.getAll("id"),
    itemId: form.get("itemId") ?? undefined,
  };
}

/**
 * The first message of each field, and the messages that belong to no field. A message that is
 * not one of our keys (zod's own words) becomes the generic one, so the page can translate it.
 */
export function formErrors(error: z.ZodError): {
  fieldErrors: Record<string, MessageKey>;
  formErrors: MessageKey[];
} {
  const flat = z.flattenError(error);
  const fieldErrors: Record<string, MessageKey> = {};
  for (const [field, messages] of Object.entries(flat.fieldErrors)) {
    const first = (messages as string[] | undefined)?.[0];
    if (first) fieldErrors[field] = asMessageKey(first);
  }
  return { fieldErrors, formErrors: flat.formErrors.map(asMessageKey) };
}

function asMessageKey(message: string): MessageKey {
  return isMessageKey(message) ? message : "items.errors.invalidForm";
}
