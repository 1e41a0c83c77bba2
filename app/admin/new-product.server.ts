import type { AppPrismaClient } from "../db/client.server";
import type { MessageKey } from "../i18n/translate";
import { createProductFormSchema, formErrors } from "../protection-items/forms";
import type { PricePointIssue } from "../protection-items/price-points";
import type { AdminGraphql } from "../services/admin-api.server";
import { createProtectionProduct, formFieldOfUserError } from "../services/protection-items.server";

// The new protection product page (app.items_.new): its form, run against Shopify and the
// database, answered as the page shows it.

/** A message to show: an i18n key of ours (with values), or Shopify's own words. */
export type FormMessage =
  { key: MessageKey; values?: Record<string, string | number> } | { text: string };

export type CreateProductActionData =
  | {
      status: "invalid";
      fieldErrors: { title?: FormMessage[]; category?: FormMessage[]; prices?: FormMessage[] };
      formErrors: FormMessage[];
    }
  | { status: "shopify_error"; message: string }
  | { status: "save_failed"; productId: string };

/** Where to go once the product exists, or what to show on the form and its HTTP status. */
export type CreateProductOutcome =
  | { status: "created"; location: string }
  | { status: "answer"; data: CreateProductActionData; httpStatus: number };

function priceIssueMessage(issue: PricePointIssue, currency: string): FormMessage {
  const { code, ...values } = issue;
  return { key: `items.new.priceIssues.${code}`, values: { ...values, currency } };
}

function answer(data: CreateProductActionData, httpStatus: number): CreateProductOutcome {
  return { status: "answer", data, httpStatus };
}

/** Creates the shop's protection product from the posted form (`shop` is the session's). */
export async function createProductFromForm(
  graphql: AdminGraphql,
  db: AppPrismaClient,
  shop: string,
  form: FormData,
): Promise<CreateProductOutcome> {
  const parsed = createProductFormSchema.safeParse({
    title: form.get("title") ?? undefined,
    category: form.get("category") ?? undefined,
    prices: form.get("prices") ?? undefined,
  });
  if (!parsed.success) {
    const errors = formErrors(parsed.error);
    const fieldErrors = Object.fromEntries(
      Object.entries(errors.fieldErrors).map(([field, key]) => [field, [{ key }]]),
    );
    return answer(
      { status: "invalid", fieldErrors, formErrors: errors.formErrors.map((key) => ({ key })) },
      422,
    );
  }

  const result = await createProtectionProduct(graphql, db, shop, parsed.data);
  switch (result.status) {
    case "created": {
      // The items page says whether the product is on the Online Store, and what to do if not.
      const params = new URLSearchParams({
        created: String(result.itemCount),
        product: result.productId,
        title: result.productTitle,
        publish: result.onlineStore.status,
      });
      if (result.onlineStore.status === "user_errors") {
        params.set("publishError", result.onlineStore.message.slice(0, 500));
      }
      return { status: "created", location: `/app/items?${params.toString()}` };
    }
    case "invalid_prices":
      return answer(
        {
          status: "invalid",
          fieldErrors: {
            prices: result.issues.map((issue) => priceIssueMessage(issue, result.currency)),
          },
          formErrors: [],
        },
        422,
      );
    case "user_errors": {
      const fieldErrors: Record<"title" | "prices", FormMessage[]> = { title: [], prices: [] };
      const other: FormMessage[] = [];
      for (const userError of result.userErrors) {
        const field = formFieldOfUserError(userError.field);
        (field === "form" ? other : fieldErrors[field]).push({ text: userError.message });
      }
      return answer(
        {
          status: "invalid",
          fieldErrors: Object.fromEntries(
            Object.entries(fieldErrors).filter(([, messages]) => messages.length > 0),
          ),
          formErrors: other,
        },
        422,
      );
    }
    case "shopify_error":
      return answer({ status: "shopify_error", message: result.message }, 502);
    case "save_failed":
      // The details are logged; the merchant needs the product ID.
      return answer({ status: "save_failed", productId: result.productId }, 500);
  }
}
