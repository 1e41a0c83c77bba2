import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { PageErrorBoundary } from "../../admin/components/PageErrorBoundary";
import { applyConnectionForm, loadConnectionPage } from "../../admin/connection.server";
import { parseConnectionForm, type ConnectionActionData } from "../../admin/connection-form";
import prisma from "../../db.server";
import { useTranslate } from "../../i18n/react";
import { logger } from "../../logger.server";
import { authenticate } from "../../shopify.server";
import { ApiVersionCard } from "./ApiVersionCard";
import { BackfillCard } from "./BackfillCard";
import { ActionNotice, PauseBanner } from "./ConnectionBanners";
import { EnvironmentCard } from "./EnvironmentCard";
import { KeyCard } from "./KeyCard";
import { SummaryCard } from "./SummaryCard";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return loadConnectionPage(prisma, session.shop);
};

export const action = async ({ request }: ActionFunctionArgs): Promise<ConnectionActionData> => {
  const { session } = await authenticate.admin(request);
  const parsed = parseConnectionForm(Object.fromEntries(await request.formData()));
  if (!parsed.ok) return parsed.answer;
  const log = logger.child({ route: "app.connection", shop: session.shop });
  return applyConnectionForm(prisma, session.shop, parsed.form, log);
};

export default function ConnectionPage() {
  const { connection, waitingEvents, checklist, backfill } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useTranslate();
  const hasAnyKey = Boolean(connection?.sandboxSecretKeyLast4 || connection?.liveSecretKeyLast4);

  return (
    <Page title={t("connection.title")}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <ActionNotice actionData={actionData} />
            <PauseBanner connection={connection} waitingEvents={waitingEvents} />
            {hasAnyKey ? (
              <SummaryCard connection={connection} />
            ) : (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t("connection.empty.heading")}
                  </Text>
                  <Text as="p">{t("connection.empty.body")}</Text>
                </BlockStack>
              </Card>
            )}
            <KeyCard environment="sandbox" connection={connection} actionData={actionData} />
            <KeyCard environment="production" connection={connection} actionData={actionData} />
            <BackfillCard offer={backfill} actionData={actionData} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <EnvironmentCard connection={connection} checklist={checklist} />
            <ApiVersionCard connection={connection} actionData={actionData} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  return <PageErrorBoundary titleKey="connection.title" />;
}
