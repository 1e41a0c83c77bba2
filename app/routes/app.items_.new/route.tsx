import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useNavigate } from "@remix-run/react";
import { Banner, Button, Layout, List, Page } from "@shopify/polaris";
import { BannerSections, ShopifyErrorBanner } from "../../admin/components/Banners";
import { pageErrorBoundary } from "../../admin/components/PageErrorBoundary";
import {
  createProductFromForm,
  type CreateProductActionData,
} from "../../admin/new-product.server";
import prisma from "../../db.server";
import { useTranslate } from "../../i18n/react";
import { authenticate } from "../../shopify.server";
import { messageText, NewProductForm } from "./NewProductForm";

export type { CreateProductActionData, FormMessage } from "../../admin/new-product.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return null;
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin, redirect } = await authenticate.admin(request);
  const form = await request.formData();
  const outcome = await createProductFromForm(admin.graphql, prisma, session.shop, form);
  return outcome.status === "created"
    ? redirect(outcome.location)
    : Response.json(outcome.data, { status: outcome.httpStatus });
};

export default function NewProtectionProduct() {
  const t = useTranslate();
  const navigate = useNavigate();
  const data = useActionData() as CreateProductActionData | undefined;
  const invalid = data?.status === "invalid" ? data : undefined;

  return (
    <Page
      title={t("items.new.title")}
      backAction={{ content: t("items.title"), onAction: () => navigate("/app/items") }}
    >
      <Layout>
        <BannerSections>
          {data?.status === "shopify_error" ? (
            <ShopifyErrorBanner
              title={t("items.new.shopifyErrorTitle")}
              body={t("items.new.shopifyError")}
              message={data.message}
            />
          ) : null}
          {data?.status === "save_failed" ? (
            <Banner tone="critical" title={t("items.new.saveFailedTitle")}>
              <p>{t("items.new.saveFailed", { productId: data.productId })}</p>
              <Button url={`shopify://admin/products/${data.productId}`} target="_top">
                {t("items.results.openProduct")}
              </Button>
            </Banner>
          ) : null}
          {invalid && invalid.formErrors.length > 0 ? (
            <Banner tone="critical" title={t("items.new.formErrorsTitle")}>
              <List>
                {invalid.formErrors.map((message, index) => (
                  <List.Item key={index}>{messageText(message, t)}</List.Item>
                ))}
              </List>
            </Banner>
          ) : null}
        </BannerSections>
        <Layout.Section>
          <NewProductForm invalid={invalid} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** Shopify's own responses (re-authentication) go to its boundary; anything else says what to do. */
export const ErrorBoundary = pageErrorBoundary({
  titleKey: "items.new.title",
  headingKey: "items.errorBoundary.title",
  bodyKey: "items.errorBoundary.newBody",
});
