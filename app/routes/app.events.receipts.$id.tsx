import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Layout, Page, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { formatJson, orderLabel } from "../admin/event-log";
import { JsonCard, orderFact, SummaryCard } from "../admin/components/detail-cards";
import {
  EventLogErrorBoundary,
  EventTime,
  OrderEventRow,
  StatusBadge,
  useBackToLog,
} from "../admin/components/event-log-ui";
import { SectionCard } from "../admin/components/SectionCard";
import prisma from "../db.server";
import { useTranslate } from "../i18n/react";
import { listOrderEvents } from "../models/OutboxEvent.server";
import { findWebhookReceiptForShop } from "../models/WebhookReceipt.server";
import { authenticate } from "../shopify.server";

function notFound(): never {
  throw new Response("Webhook not found", { status: 404 });
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const id = params.id && /^[\w-]{1,64}$/.test(params.id) ? params.id : notFound();
  // Scoped by shop: another shop's receipt is not found, exactly like one that does not exist.
  const receipt = (await findWebhookReceiptForShop(prisma, session.shop, id)) ?? notFound();
  const orderEvents = receipt.orderId
    ? await listOrderEvents(prisma, session.shop, receipt.orderId)
    : [];
  return {
    receipt: {
      id: receipt.id,
      topic: receipt.topic,
      webhookId: receipt.webhookId,
      eventId: receipt.eventId,
      apiVersion: receipt.apiVersion,
      orderId: receipt.orderId,
      orderName: receipt.orderName,
      status: receipt.status,
      detail: receipt.detail,
      receivedAt: receipt.receivedAt.toISOString(),
    },
    payload: receipt.payload === null ? null : formatJson(receipt.payload),
    orderEvents: orderEvents.map((event) => ({
      id: event.id,
      eventType: event.eventType,
      status: event.status,
    })),
  };
};

export default function WebhookReceiptDetail() {
  const { receipt, payload, orderEvents } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const back = useBackToLog();
  const none = t("events.detail.none");
  const rows: [string, ReactNode][] = [
    [t("events.detail.topic"), receipt.topic],
    [t("events.detail.status"), <StatusBadge key="status" status={receipt.status} />],
    [t("events.detail.received"), <EventTime key="received" value={receipt.receivedAt} />],
    orderFact(t, receipt),
    [t("events.detail.detail"), receipt.detail ?? none],
    [t("events.detail.webhookId"), receipt.webhookId],
    [t("events.detail.shopifyEventId"), receipt.eventId ?? none],
    [t("events.detail.apiVersion"), receipt.apiVersion ?? none],
  ];

  return (
    <Page
      title={t("events.detail.receiptTitle", { topic: receipt.topic })}
      titleMetadata={<StatusBadge status={receipt.status} />}
      backAction={{ content: t("events.detail.back"), onAction: back }}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <SummaryCard title={t("events.detail.summary")} rows={rows} />
            {payload !== null ? (
              <JsonCard
                title={t("events.detail.rawBody")}
                help={t("events.detail.rawBodyHelp")}
                json={payload}
              />
            ) : null}
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <SectionCard
            title={
              receipt.orderId
                ? t("events.detail.orderEventsOf", {
                    order: orderLabel({ orderId: receipt.orderId, orderName: receipt.orderName }),
                  })
                : t("events.detail.orderEvents")
            }
          >
            {orderEvents.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("events.detail.noOrderEvents")}
              </Text>
            ) : (
              orderEvents.map((event) => <OrderEventRow key={event.id} event={event} />)
            )}
          </SectionCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  return <EventLogErrorBoundary />;
}
