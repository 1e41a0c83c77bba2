import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useNavigate, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Layout,
  List,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import prisma from "../db.server";
import { useTranslate } from "../i18n/react";
import type { Translate } from "../i18n/translate";
import { createProductFormSchema, formErrors } from "../protection-items/forms";
import type { PricePointIssue } from "../protection-items/price-points";
import { createProtectionProduct, formFieldOfUserError } from "../services/protection-items.server";
import { authenticate } from "../shopify.server";
import { PageErrorBoundary } from "../admin/PageErrorBoundary";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return null;
};

/** A message to show: an i18n key of ours (with values), or Shopify's own words. */
export type FormMessage =
  { key: string; values?: Record<string, string | number> } | { text: string };

export type CreateProductActionData =
  | {
      status: "invalid";
      fieldErrors: { title?: FormMessage[]; category?: FormMessage[]; prices?: FormMessage[] };
      formErrors: FormMessage[];
    }
  | { status: "shopify_error"; message: string }
  | { status: "save_failed"; productId: string };

function respond(data: CreateProductActionData, status: number) {
  return Response.json(data, { status });
}

function priceIssueMessage(issue: PricePointIssue, currency: string): FormMessage {
  const { code, ...values } = issue;
  return { key: `items.new.priceIssues.${code}`, values: { ...values, currency } };
}

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin, redirect } = await authenticate.admin(request);
  const form = await request.formData();
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
    return respond(
      { status: "invalid", fieldErrors, formErrors: errors.formErrors.map((key) => ({ key })) },
      422,
    );
  }

  const result = await createProtectionProduct(admin.graphql, prisma, session.shop, parsed.data);
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
      return redirect(`/app/items?${params.toString()}`);
    }
    case "invalid_prices":
      return respond(
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
      return respond(
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
      return respond({ status: "shopify_error", message: result.message }, 502);
    case "save_failed":
      // The details are logged; the merchant needs the product ID.
      return respond({ status: "save_failed", productId: result.productId }, 500);
  }
};

function messageText(message: FormMessage, t: Translate): string {
  return "text" in message ? message.text : t(message.key, message.values);
}

function fieldError(messages: FormMessage[] | undefined, t: Translate) {
  if (!messages || messages.length === 0) return undefined;
  return messages.map((message) => messageText(message, t)).join(" ");
}

export default function NewProtectionProduct() {
  const t = useTranslate();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const data = useActionData() as CreateProductActionData | undefined;
  const [title, setTitle] = useState(() => t("items.new.defaultTitle"));
  const [category, setCategory] = useState("");
  const [prices, setPrices] = useState("");
  const submitting = navigation.state === "submitting" && navigation.formMethod === "POST";
  const invalid = data?.status === "invalid" ? data : undefined;

  return (
    <Page
      title={t("items.new.title")}
      backAction={{ content: t("items.title"), onAction: () => navigate("/app/items") }}
    >
      <Layout>
        {data?.status === "shopify_error" ? (
          <Layout.Section>
            <Banner tone="critical" title={t("items.new.shopifyErrorTitle")}>
              <p>{t("items.new.shopifyError")}</p>
              <Text as="p" tone="subdued">
                {data.message}
              </Text>
            </Banner>
          </Layout.Section>
        ) : null}
        {data?.status === "save_failed" ? (
          <Layout.Section>
            <Banner tone="critical" title={t("items.new.saveFailedTitle")}>
              <p>{t("items.new.saveFailed", { productId: data.productId })}</p>
              <Button url={`shopify://admin/products/${data.productId}`} target="_top">
                {t("items.results.openProduct")}
              </Button>
            </Banner>
          </Layout.Section>
        ) : null}
        {invalid && invalid.formErrors.length > 0 ? (
          <Layout.Section>
            <Banner tone="critical" title={t("items.new.formErrorsTitle")}>
              <List>
                {invalid.formErrors.map((message, index) => (
                  <List.Item key={index}>{messageText(message, t)}</List.Item>
                ))}
              </List>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <Form method="post">
              <BlockStack gap="400">
                <Text as="p" tone="subdued">
                  {t("items.new.explain")}
                </Text>
                <FormLayout>
                  <TextField
                    label={t("items.new.fields.title")}
                    name="title"
                    value={title}
                    onChange={setTitle}
                    autoComplete="off"
                    maxLength={255}
                    requiredIndicator
                    helpText={t("items.new.fields.titleHelp")}
                    error={fieldError(invalid?.fieldErrors.title, t)}
                  />
                  <TextField
                    label={t("items.new.fields.prices")}
                    name="prices"
                    value={prices}
                    onChange={setPrices}
                    autoComplete="off"
                    multiline={3}
                    requiredIndicator
                    placeholder="19.99, 29.99, 59.99"
                    helpText={t("items.new.fields.pricesHelp")}
                    error={fieldError(invalid?.fieldErrors.prices, t)}
                  />
                  <TextField
                    label={t("items.new.fields.category")}
                    name="category"
                    value={category}
                    onChange={setCategory}
                    autoComplete="off"
                    maxLength={255}
                    helpText={t("items.new.fields.categoryHelp")}
                    error={fieldError(invalid?.fieldErrors.category, t)}
                  />
                </FormLayout>
                <InlineStack gap="200" align="end">
                  <Button onClick={() => navigate("/app/items")} disabled={submitting}>
                    {t("items.new.cancel")}
                  </Button>
                  <Button variant="primary" submit loading={submitting}>
                    {t("items.new.submit")}
                  </Button>
                </InlineStack>
              </BlockStack>
            </Form>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** Shopify's own responses (re-authentication) go to its boundary; anything else says what to do. */
export function ErrorBoundary() {
  return (
    <PageErrorBoundary
      titleKey="items.new.title"
      headingKey="items.errorBoundary.title"
      bodyKey="items.errorBoundary.newBody"
    />
  );
}
