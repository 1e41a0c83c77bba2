import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  useFetcher,
  useLoaderData,
  useLocation,
  useNavigate,
  useSearchParams,
} from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Layout, Page } from "@shopify/polaris";
import { useEffect, useRef } from "react";
import { BannerSections } from "../../admin/components/Banners";
import { pageErrorBoundary } from "../../admin/components/PageErrorBoundary";
import { ONLINE_STORE_CHECK, onlineStoreNotices, type ItemsActionData } from "../../admin/items";
import { applyItemsForm, loadItemsPage } from "../../admin/items.server";
import prisma from "../../db.server";
import { useTranslate } from "../../i18n/react";
import { authenticate } from "../../shopify.server";
import { ItemsCard } from "./ItemsCard";
import {
  ActionBanner,
  CreatedBanner,
  MakeAvailableBanner,
  OnlineStoreCheckBanner,
} from "./ItemsBanners";
import { MapItemsCard } from "./MapItemsCard";

export type { ItemsActionData };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  return loadItemsPage(admin.graphql, prisma, session.shop, new URL(request.url));
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = await request.formData();
  const { data, status } = await applyItemsForm(admin.graphql, prisma, session.shop, form);
  return Response.json(data, { status });
};

export default function ProtectionItems() {
  const { items, copyText } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const shopify = useAppBridge();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const fetcher = useFetcher<ItemsActionData>();
  const onlineStoreFetcher = useFetcher<typeof loader>();
  const created = searchParams.get("created");
  const busy = fetcher.state !== "idle";
  const removing = busy ? fetcher.formData?.get("itemId") : null;
  const lastResult = fetcher.data;

  async function copyAll() {
    try {
      await navigator.clipboard.writeText(copyText);
      shopify.toast.show(t("items.copy.done", { count: items.length }));
    } catch {
      shopify.toast.show(t("items.copy.failed"), { isError: true });
    }
  }

  // Whether the products the app created are on the Online Store: asked once the page is shown.
  // Remix asks again after each map or remove, as it revalidates the page.
  const hasCreatedProducts = items.some((item) => item.createdByApp);
  const checkRequested = useRef(false);
  const { load: loadOnlineStore } = onlineStoreFetcher;
  useEffect(() => {
    if (!hasCreatedProducts || checkRequested.current) return;
    checkRequested.current = true;
    const params = new URLSearchParams(location.search);
    params.set("check", ONLINE_STORE_CHECK);
    void loadOnlineStore(`${location.pathname}?${params.toString()}`);
  }, [hasCreatedProducts, loadOnlineStore, location.pathname, location.search]);

  const { onlineStoreOf, unpublished, checkIssue } = onlineStoreNotices(
    onlineStoreFetcher.data?.onlineStore ?? null,
    searchParams,
  );

  return (
    <Page
      title={t("items.title")}
      subtitle={t("items.subtitle")}
      primaryAction={{
        content: t("items.actions.create"),
        onAction: () => navigate("/app/items/new"),
      }}
      secondaryActions={[
        { content: t("items.actions.copyAll"), onAction: copyAll, disabled: items.length === 0 },
      ]}
    >
      <Layout>
        <BannerSections>
          {created ? (
            <CreatedBanner
              created={created}
              productId={searchParams.get("product")}
              published={searchParams.get("publish") === "published"}
            />
          ) : null}
          {unpublished.map((product) => (
            <MakeAvailableBanner key={product.productId} product={product} />
          ))}
          {checkIssue ? <OnlineStoreCheckBanner issue={checkIssue} /> : null}
          {lastResult ? <ActionBanner data={lastResult} /> : null}
        </BannerSections>
        <Layout.Section>
          <ItemsCard
            items={items}
            publishedOf={(productId) => onlineStoreOf.get(productId)?.published}
            removingId={typeof removing === "string" ? removing : null}
            onCreate={() => navigate("/app/items/new")}
            onRemove={(itemId) => fetcher.submit({ intent: "remove", itemId }, { method: "post" })}
          />
        </Layout.Section>
        <Layout.Section>
          <MapItemsCard
            busy={busy}
            mapping={busy && fetcher.formData?.get("intent") === "map"}
            categoryError={
              fetcher.data?.status === "invalid" ? fetcher.data.fieldErrors.category : undefined
            }
            onMap={(form) => fetcher.submit(form, { method: "post" })}
          />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** Shopify's own responses (re-authentication) go to its boundary; anything else says what to do. */
export const ErrorBoundary = pageErrorBoundary({
  titleKey: "items.title",
  headingKey: "items.errorBoundary.title",
  bodyKey: "items.errorBoundary.body",
});
