import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  useFetcher,
  useLoaderData,
  useLocation,
  useNavigate,
  useSearchParams,
} from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import prisma from "../db.server";
import { useLocale, useTranslate } from "../i18n/react";
import type { Translate } from "../i18n/translate";
import { listProtectionItems, removeProtectionItem } from "../models/ProtectionItem.server";
import { toCopyText } from "../protection-items/copy-text";
import { formErrors, itemsFormInput, itemsFormSchema } from "../protection-items/forms";
import { formatMinorUnits } from "../protection-items/price-points";
import {
  MAPPING_STRATEGIES,
  type MappingStrategy,
  type Strategy,
} from "../protection-items/strategies";
import {
  checkOnlineStore,
  mapExistingProtectionItems,
  type OnlineStoreCheck,
  type OnlineStorePublishStatus,
} from "../services/protection-items.server";
import { authenticate } from "../shopify.server";
import { PageErrorBoundary } from "../admin/PageErrorBoundary";

/** `?check=online-store`: the page asks, once shown, whether its products are on the Online Store. */
export const ONLINE_STORE_CHECK = "online-store";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const records = await listProtectionItems(prisma, session.shop);
  const items = records.map((record) => ({
    id: record.id,
    variantId: record.variantId,
    productId: record.productId,
    title: record.title,
    priceAmount: record.priceAmount === null ? null : Number(record.priceAmount),
    currency: record.currency,
    category: record.category,
    strategy: record.strategy as Strategy,
    createdByApp: record.createdByApp,
  }));
  // Shopify is asked only when the page asks (after it is shown), so the list never waits on it.
  const onlineStore: OnlineStoreCheck | null =
    new URL(request.url).searchParams.get("check") === ONLINE_STORE_CHECK
      ? await checkOnlineStore(
          admin.graphql,
          session.shop,
          items.filter((item) => item.createdByApp).map((item) => item.productId),
        )
      : null;
  return { shop: session.shop, items, copyText: toCopyText(items), onlineStore };
};

/** What the page shows after a map or remove: a message key, or field errors to mark. */
export type ItemsActionData =
  | { intent: "map"; status: "mapped"; count: number }
  | { intent: "map"; status: "not_found"; ids: string[] }
  | {
      intent: "map" | "remove";
      status: "invalid";
      fieldErrors: Record<string, string>;
      formErrors: string[];
    }
  | { intent: "map"; status: "shopify_error"; message: string }
  | { intent: "map"; status: "save_failed" }
  | { intent: "remove"; status: "removed" }
  | { intent: "remove"; status: "not_found" };

function respond(data: ItemsActionData, status = 200) {
  return Response.json(data, { status });
}

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const parsed = itemsFormSchema.safeParse(itemsFormInput(await request.formData()));
  if (!parsed.success) {
    const intent = parsed.error.issues[0]?.path[0] === "itemId" ? "remove" : "map";
    return respond({ intent, status: "invalid", ...formErrors(parsed.error) }, 422);
  }
  const form = parsed.data;
  if (form.intent === "remove") {
    const removed = await removeProtectionItem(prisma, session.shop, form.itemId);
    return removed
      ? respond({ intent: "remove", status: "removed" })
      : respond({ intent: "remove", status: "not_found" }, 404);
  }
  const result = await mapExistingProtectionItems(admin.graphql, prisma, session.shop, form);
  switch (result.status) {
    case "mapped":
      return respond({ intent: "map", status: "mapped", count: result.itemCount });
    case "not_found":
      return respond({ intent: "map", status: "not_found", ids: result.ids }, 404);
    case "shopify_error":
      return respond({ intent: "map", status: "shopify_error", message: result.message }, 502);
    case "save_failed":
      return respond({ intent: "map", status: "save_failed" }, 500);
  }
};

type ItemView = ReturnType<typeof useLoaderData<typeof loader>>["items"][number];

type PublishIssue = Exclude<OnlineStorePublishStatus, "published">;
const PUBLISH_ISSUES: readonly string[] = [
  "no_online_store",
  "access_denied",
  "user_errors",
  "failed",
] satisfies PublishIssue[];

function publishIssueOf(value: string | null): PublishIssue | null {
  return value && PUBLISH_ISSUES.includes(value) ? (value as PublishIssue) : null;
}

/** A product the app created that customers cannot add to carts yet, and why. */
interface UnpublishedProduct {
  productId: string;
  title: string;
  reason: PublishIssue | "not_published";
  message: string;
}

function MakeAvailableBanner({ product }: { product: UnpublishedProduct }) {
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

function formatPrice(item: ItemView, locale: string, t: Translate): string {
  if (item.priceAmount === null || !item.currency) return t("items.table.dynamicPrice");
  const amount = formatMinorUnits(item.priceAmount, item.currency);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: item.currency }).format(
      Number(amount),
    );
  } catch {
    return `${amount} ${item.currency}`;
  }
}

/** Whether an item's product (one the app created) is on the Online Store; nothing until known. */
function OnlineStoreBadge({ published }: { published: boolean | undefined }) {
  const t = useTranslate();
  if (published === undefined) return null;
  return published ? (
    <Badge tone="success">{t("items.onlineStore.published")}</Badge>
  ) : (
    <Badge tone="warning">{t("items.onlineStore.notPublished")}</Badge>
  );
}

function ActionBanner({ data }: { data: ItemsActionData }) {
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
        <Banner tone="critical" title={t("items.results.shopifyErrorTitle")}>
          <p>{t("items.results.shopifyError")}</p>
          <Text as="p" tone="subdued">
            {data.message}
          </Text>
        </Banner>
      );
    case "save_failed":
      return (
        <Banner tone="critical" title={t("items.results.saveFailedTitle")}>
          <p>{t("items.results.mapSaveFailed")}</p>
        </Banner>
      );
  }
}

export default function ProtectionItems() {
  const { items, copyText } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const locale = useLocale();
  const shopify = useAppBridge();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const fetcher = useFetcher<ItemsActionData>();
  const [strategy, setStrategy] = useState<MappingStrategy>("one_to_one");
  const [category, setCategory] = useState("");

  const location = useLocation();
  const onlineStoreFetcher = useFetcher<typeof loader>();
  const created = searchParams.get("created");
  const createdProduct = searchParams.get("product");
  const createdPublished = searchParams.get("publish") === "published";
  const createdIssue = createdProduct ? publishIssueOf(searchParams.get("publish")) : null;
  const busy = fetcher.state !== "idle";
  const mapping = busy && fetcher.formData?.get("intent") === "map";
  const removingId = busy ? fetcher.formData?.get("itemId") : null;
  const lastResult = fetcher.data;

  async function pick(type: "variant" | "product") {
    const ids: string[] = [];
    if (type === "variant") {
      const selection = await shopify.resourcePicker({ type: "variant", multiple: true });
      for (const variant of selection ?? []) ids.push(variant.id);
    } else {
      const selection = await shopify.resourcePicker({ type: "product", multiple: true });
      for (const product of selection ?? []) {
        // The merchant may leave some of a product's variants out of the pick.
        const picked = (product.variants ?? []).flatMap((variant) =>
          variant.id ? [variant.id] : [],
        );
        ids.push(...(picked.length > 0 ? picked : [product.id]));
      }
    }
    if (ids.length === 0) return;
    const form = new FormData();
    form.set("intent", "map");
    form.set("strategy", strategy);
    form.set("category", category);
    for (const id of ids) form.append("id", id);
    fetcher.submit(form, { method: "post" });
  }

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

  const check = onlineStoreFetcher.data?.onlineStore ?? null;
  const onlineStoreOf = new Map(
    check?.status === "checked"
      ? check.products.map((product) => [product.productId, product])
      : [],
  );
  const unpublished: UnpublishedProduct[] = [];
  if (createdProduct && createdIssue && onlineStoreOf.get(createdProduct)?.published !== true) {
    unpublished.push({
      productId: createdProduct,
      title:
        searchParams.get("title") ?? onlineStoreOf.get(createdProduct)?.title ?? createdProduct,
      reason: createdIssue,
      message: searchParams.get("publishError") ?? "",
    });
  }
  for (const product of onlineStoreOf.values()) {
    if (product.published || (createdIssue && product.productId === createdProduct)) continue;
    unpublished.push({
      productId: product.productId,
      title: product.title,
      reason: "not_published",
      message: "",
    });
  }
  // Said once: a product's banner already gives the reason the check would repeat.
  const checkIssue =
    (check?.status === "access_denied" || check?.status === "no_online_store") &&
    check.status !== createdIssue
      ? check.status
      : null;

  const strategyOptions = MAPPING_STRATEGIES.map((value) => ({
    value,
    label: t(`items.strategies.${value}`),
  }));

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
        {created ? (
          <Layout.Section>
            <Banner tone="success" title={t("items.results.created", { count: created })}>
              <BlockStack gap="200">
                {createdPublished ? <p>{t("items.results.publishedNote")}</p> : null}
                {createdProduct ? (
                  <InlineStack>
                    <Button url={`shopify://admin/products/${createdProduct}`} target="_top">
                      {t("items.results.openProduct")}
                    </Button>
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Banner>
          </Layout.Section>
        ) : null}
        {unpublished.map((product) => (
          <Layout.Section key={product.productId}>
            <MakeAvailableBanner product={product} />
          </Layout.Section>
        ))}
        {checkIssue === "access_denied" ? (
          <Layout.Section>
            <Banner tone="warning" title={t("items.onlineStore.accessDeniedTitle")}>
              <p>{t("items.onlineStore.accessDeniedBody")}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {checkIssue === "no_online_store" ? (
          <Layout.Section>
            <Banner tone="warning" title={t("items.onlineStore.noOnlineStoreTitle")}>
              <p>{t("items.onlineStore.noOnlineStoreBody")}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {lastResult ? (
          <Layout.Section>
            <ActionBanner data={lastResult} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            {items.length === 0 ? (
              <EmptyState
                heading={t("items.empty.heading")}
                action={{
                  content: t("items.actions.create"),
                  onAction: () => navigate("/app/items/new"),
                }}
                image="https://cdn.shopify.com/s/files/1/0262/4071/2726/files/emptystate-files.png"
              >
                <p>{t("items.empty.body")}</p>
              </EmptyState>
            ) : (
              <BlockStack>
                <Box padding="400" paddingBlockEnd="200">
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingMd">
                      {t("items.table.heading")}
                    </Text>
                    <Text as="p" tone="subdued">
                      {t("items.table.description")}
                    </Text>
                  </BlockStack>
                </Box>
                <IndexTable
                  resourceName={{
                    singular: t("items.table.resourceSingular"),
                    plural: t("items.table.resourcePlural"),
                  }}
                  itemCount={items.length}
                  selectable={false}
                  headings={[
                    { title: t("items.table.variantId") },
                    { title: t("items.table.title") },
                    { title: t("items.table.price"), alignment: "end" },
                    { title: t("items.table.category") },
                    { title: t("items.table.strategy") },
                    { title: t("items.table.actions"), hidden: true },
                  ]}
                >
                  {items.map((item, index) => (
                    <IndexTable.Row id={item.id} key={item.id} position={index}>
                      <IndexTable.Cell>
                        <Text as="span" fontWeight="semibold">
                          <code>{item.variantId}</code>
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <InlineStack gap="200" blockAlign="center">
                          <Text as="span">{item.title}</Text>
                          {item.createdByApp ? (
                            <Badge>{t("items.table.createdByApp")}</Badge>
                          ) : null}
                          <OnlineStoreBadge
                            published={onlineStoreOf.get(item.productId)?.published}
                          />
                        </InlineStack>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {formatPrice(item, locale, t)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{item.category ?? "—"}</IndexTable.Cell>
                      <IndexTable.Cell>{t(`items.strategies.${item.strategy}`)}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Button
                          variant="plain"
                          tone="critical"
                          loading={removingId === item.id}
                          accessibilityLabel={t("items.table.removeLabel", { title: item.title })}
                          onClick={() =>
                            fetcher.submit(
                              { intent: "remove", itemId: item.id },
                              { method: "post" },
                            )
                          }
                        >
                          {t("items.table.remove")}
                        </Button>
                      </IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              </BlockStack>
            )}
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t("items.map.heading")}
              </Text>
              <Text as="p" tone="subdued">
                {t("items.map.description")}
              </Text>
              <InlineStack gap="400" wrap>
                <Select
                  label={t("items.map.strategy")}
                  options={strategyOptions}
                  value={strategy}
                  onChange={(value) => setStrategy(value as MappingStrategy)}
                  helpText={t(`items.map.strategyHelp.${strategy}`)}
                />
                <TextField
                  label={t("items.map.category")}
                  value={category}
                  onChange={setCategory}
                  autoComplete="off"
                  maxLength={255}
                  helpText={t("items.map.categoryHelp")}
                  error={
                    fetcher.data?.status === "invalid" && fetcher.data.fieldErrors.category
                      ? t(fetcher.data.fieldErrors.category)
                      : undefined
                  }
                />
              </InlineStack>
              <InlineStack gap="200">
                <Button onClick={() => pick("variant")} loading={mapping} disabled={busy}>
                  {t("items.map.pickVariants")}
                </Button>
                <Button onClick={() => pick("product")} disabled={busy}>
                  {t("items.map.pickProducts")}
                </Button>
              </InlineStack>
            </BlockStack>
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
      titleKey="items.title"
      headingKey="items.errorBoundary.title"
      bodyKey="items.errorBoundary.body"
    />
  );
}
