import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  isRouteErrorResponse,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { Banner, BlockStack, Layout, Page } from "@shopify/polaris";
import { boundary } from "@shopify/shopify-app-remix/server";
import { loadHomePage } from "../../admin/home.server";
import { RECONCILE_NOW, type ReconcileNowResult } from "../../admin/reconciliation";
import { reconcileNowForShop, reconcileSettingsOf } from "../../admin/reconciliation.server";
import prisma from "../../db.server";
import { getEnv } from "../../env.server";
import { useTranslate } from "../../i18n/react";
import { logger } from "../../logger.server";
import { authenticate } from "../../shopify.server";
import { ChecklistCard } from "./ChecklistCard";
import { ConnectionCard } from "./ConnectionCard";
import { HomeSkeleton } from "./HomeSkeleton";
import { ReconciliationCard, WebhooksMissingBanner } from "./ReconciliationCard";
import { StatusCard } from "./StatusCard";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const env = getEnv();
  return loadHomePage(prisma, session.shop, env.SHOPIFY_API_KEY, reconcileSettingsOf(env));
};

/** The page's one form: "Reconcile now" on the reconciliation card. */
export const action = async ({ request }: ActionFunctionArgs): Promise<ReconcileNowResult> => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  if (form.get("intent") !== RECONCILE_NOW) {
    throw new Response("Unknown home page action", { status: 400 });
  }
  const log = logger.child({ route: "app._index", shop: session.shop });
  return reconcileNowForShop(prisma, session.shop, new Date(), log);
};

export default function Home() {
  const { shop, connection, checklist, dashboard, attentionCount, links, reconciliation } =
    useLoaderData<typeof loader>();
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
        {attentionCount > 0 ? (
          <Layout.Section>
            <Banner
              tone="warning"
              title={t("home.attention.title", { count: attentionCount })}
              action={{ content: t("home.attention.action"), url: "/app/events?attention=1" }}
            >
              <p>{t("home.attention.body")}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {reconciliation.applies && reconciliation.webhooksMissing ? (
          <Layout.Section>
            <WebhooksMissingBanner runs={reconciliation.recoveringRunsInARow} />
          </Layout.Section>
        ) : null}
        {isLive ? statusSection : checklistSection}
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <ConnectionCard connection={connection} />
            <ReconciliationCard card={reconciliation} />
          </BlockStack>
        </Layout.Section>
        {isLive ? checklistSection : statusSection}
      </Layout>
    </Page>
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
