import { Banner, BlockStack, Button, InlineStack } from "@shopify/polaris";
import { ShopifyErrorBanner } from "../../admin/components/Banners";
import type { ItemsActionData, UnpublishedProduct } from "../../admin/items";
import { useTranslate } from "../../i18n/react";

// The page's banners: what was created, what customers cannot buy yet, what an action did.

export function MakeAvailableBanner({ product }: { product: UnpublishedProduct }) {
  const t = useTranslate();
  return (
    <Banner
      tone="warning"
      title={t("items.onlineStore.makeAvailableTitle", { product: product.title })}
    >
      <BlockStack gap="200">
        <p>{t(`items.onlineStore.reasons.${product.reason}`, { message: product.message })}</p>
        <p>{t("items.onlineStore.makeAvailableBody")}</p>
        <InlineStack>
          <Button url={`shopify://admin/products/${product.productId}`} target="_top">
            {t("items.results.openProduct")}
          </Button>
        </InlineStack>
      </BlockStack>
    </Banner>
  );
}

export function ActionBanner({ data }: { data: ItemsActionData }) {
  const t = useTranslate();
  switch (data.status) {
    case "mapped":
      return <Banner tone="success">{t("items.results.mapped", { count: data.count })}</Banner>;
    case "removed":
      return <Banner tone="success">{t("items.results.removed")}</Banner>;
    case "not_found":
      return (
        <Banner tone="warning">
          {data.intent === "remove"
            ? t("items.results.removeNotFound")
            : t("items.results.pickedNotFound", { ids: data.ids.join(", ") })}
        </Banner>
      );
    case "invalid":
      return (
        <Banner tone="critical">
          {[...data.formErrors, ...Object.values(data.fieldErrors)].map((key) => t(key)).join(" ")}
        </Banner>
      );
    case "shopify_error":
      return (
        <ShopifyErrorBanner
          title={t("items.results.shopifyErrorTitle")}
          body={t("items.results.shopifyError")}
          message={data.message}
        />
      );
    case "save_failed":
      return (
        <Banner tone="critical" title={t("items.results.saveFailedTitle")}>
          <p>{t("items.results.mapSaveFailed")}</p>
        </Banner>
      );
  }
}

/** After the new-product page: how many items it created, and a link to the product. */
export function CreatedBanner({
  created,
  productId,
  published,
}: {
  created: string;
  productId: string | null;
  published: boolean;
}) {
  const t = useTranslate();
  return (
    <Banner tone="success" title={t("items.results.created", { count: created })}>
      <BlockStack gap="200">
        {published ? <p>{t("items.results.publishedNote")}</p> : null}
        {productId ? (
          <InlineStack>
            <Button url={`shopify://admin/products/${productId}`} target="_top">
              {t("items.results.openProduct")}
            </Button>
          </InlineStack>
        ) : null}
      </BlockStack>
    </Banner>
  );
}

/** Why Shopify could not say whether the products are on the Online Store. */
export function OnlineStoreCheckBanner({ issue }: { issue: "access_denied" | "no_online_store" }) {
  const t = useTranslate();
  return issue === "access_denied" ? (
    <Banner tone="warning" title={t("items.onlineStore.accessDeniedTitle")}>
      <p>{t("items.onlineStore.accessDeniedBody")}</p>
    </Banner>
  ) : (
    <Banner tone="warning" title={t("items.onlineStore.noOnlineStoreTitle")}>
      <p>{t("items.onlineStore.noOnlineStoreBody")}</p>
    </Banner>
  );
}
