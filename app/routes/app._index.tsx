import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  isRouteErrorResponse,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  InlineStack,
  Layout,
  Page,
  SkeletonBodyText,
  SkeletonDisplayText,
  SkeletonPage,
  Text,
} from "@shopify/polaris";
import { boundary } from "@shopify/shopify-app-remix/server";
import { themeEditorLinks } from "../admin/checklist";
import { goLiveChecklist } from "../admin/checklist.server";
import { homeDashboard } from "../admin/dashboard.server";
import { ChecklistCard } from "../admin/ChecklistCard";
import { StatusCard } from "../admin/StatusCard";
import prisma from "../db.server";
import { getEnv } from "../env.server";
import { useTranslate } from "../i18n/react";
import {
  getShopConnection,
  toPublicConnection,
  type PublicConnection,
} from "../models/ShopConnection.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = session.shop;
  const record = await getShopConnection(prisma, shop);
  const environment = record?.environment ?? "sandbox";
  const [checklist, dashboard] = await Promise.all([
    goLiveChecklist(prisma, shop),
    homeDashboard(prisma, shop, environment),
  ]);
  return {
    shop,
    connection: record ? toPublicConnection(record) : null,
    checklist,
    dashboard,
    links: themeEditorLinks(shop, getEnv().SHOPIFY_API_KEY),
  };
};

const STATUS_TONE = {
  connected: "success",
  key_rejected: "critical",
  secret_unreadable: "critical",
  not_connected: "attention",
  uninstalled: "critical",
} as const;

export default function Home() {
  const { shop, connection, checklist, dashboard, links } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const navigation = useNavigation();
  if (navigation.state === "loading" && navigation.location.pathname === "/app") {
    return <HomeSkeleton />;
  }
  const isLive = checklist.steps.some((step) => step.id === "live" && step.done);

  const checklistSection = (
    <Layout.Section>
      <ChecklistCard checklist={checklist} links={links} compact={isLive} />
    </Layout.Section>
  );
  const statusSection = (
    <Layout.Section>
      <StatusCard dashboard={dashboard} live={isLive} />
    </Layout.Section>
  );
  return (
    <Page title={t("home.title")} subtitle={t("home.subtitle", { shop })}>
      <Layout>
        {isLive ? statusSection : checklistSection}
        <Layout.Section variant="oneThird">
          <ConnectionCard connection={connection} />
        </Layout.Section>
        {isLive ? checklistSection : statusSection}
      </Layout>
    </Page>
  );
}

function ConnectionCard({ connection }: { connection: PublicConnection | null }) {
  const t = useTranslate();
  const status = connection?.status ?? "not_connected";
  const environment = connection?.environment ?? "sandbox";
  const key = (last4: string | null | undefined) =>
    last4 ? `•••• ${last4}` : t("home.connection.keyNotSet");
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center" align="space-between">
          <Text as="h2" variant="headingMd">
            {t("home.connection.heading")}
          </Text>
          <Badge tone={STATUS_TONE[status]}>{t(`common.status.${status}`)}</Badge>
        </InlineStack>
        {status === "key_rejected" ? (
          <Banner tone="critical">
            <p>{t("home.connection.rejected")}</p>
          </Banner>
        ) : null}
        {status === "secret_unreadable" ? (
          <Banner tone="critical">
            <p>{t("home.connection.unreadable")}</p>
          </Banner>
        ) : null}
        <BlockStack gap="100">
          <InlineStack align="space-between">
            <Text as="span" tone="subdued">
              {t("home.connection.environment")}
            </Text>
            <Badge tone={environment === "production" ? "success" : "info"}>
              {t(`common.environment.${environment}`)}
            </Badge>
          </InlineStack>
          <InlineStack align="space-between">
            <Text as="span" tone="subdued">
              {t("home.connection.apiVersion")}
            </Text>
            <Text as="span">{connection?.apiVersion ?? "v2.0"}</Text>
          </InlineStack>
          <InlineStack align="space-between">
            <Text as="span" tone="subdued">
              {t("home.connection.sandboxKey")}
            </Text>
            <Text as="span">{key(connection?.sandboxSecretKeyLast4)}</Text>
          </InlineStack>
          <InlineStack align="space-between">
            <Text as="span" tone="subdued">
              {t("home.connection.liveKey")}
            </Text>
            <Text as="span">{key(connection?.liveSecretKeyLast4)}</Text>
          </InlineStack>
        </BlockStack>
        <Button url="/app/connection">{t("home.connection.manage")}</Button>
      </BlockStack>
    </Card>
  );
}

/** Shown while the home page's figures reload. */
export function HomeSkeleton() {
  return (
    <SkeletonPage primaryAction={false}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <SkeletonDisplayText size="small" />
              <SkeletonBodyText lines={6} />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <SkeletonBodyText lines={4} />
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <SkeletonBodyText lines={8} />
          </Card>
        </Layout.Section>
      </Layout>
    </SkeletonPage>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useTranslate();
  // Shopify's authentication answers with responses (a bounce page, a retry header) that its
  // own boundary renders; anything else gets a page that says what to do.
  if (isRouteErrorResponse(error)) return boundary.error(error);
  return (
    <Page title={t("home.title")}>
      <Layout>
        <Layout.Section>
          <Banner
            tone="critical"
            title={t("home.error.title")}
            action={{ content: t("home.error.reload"), url: "/app" }}
            secondaryAction={{ content: t("home.error.connection"), url: "/app/connection" }}
          >
            <p>{t("home.error.body")}</p>
          </Banner>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
