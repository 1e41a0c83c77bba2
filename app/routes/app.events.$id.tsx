import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { parseEventLogAction, retryEventOfShop } from "../admin/event-actions.server";
import { loadAttemptLog } from "../admin/event-attempts.server";
import { AcceptedWithoutEventIdBanner, EventAttempts } from "../admin/EventAttempts";
import { OrderTimeline, ValidationErrorsBanner } from "../admin/EventDetailCards";
import { parseEventId } from "../admin/event-filters";
import {
  acceptedWithoutEventIdOf,
  formatJson,
  parseServiceAnswer,
  type EventLogActionResult,
} from "../admin/event-log";
import {
  environmentLabel,
  EventLogErrorBoundary,
  EventTime,
  eventTypeLabel,
  Facts,
  JsonBlock,
  OrderLink,
  StatusBadge,
  useBackToLog,
  useRetryToast,
} from "../admin/event-log-ui";
import prisma from "../db.server";
import { useTranslate } from "../i18n/react";
import { findOutboxEventForShop, listOrderEvents } from "../models/OutboxEvent.server";
import { listOrderReceipts } from "../models/WebhookReceipt.server";
import { authenticate } from "../shopify.server";

const RETRYABLE = ["dead", "failed", "unprocessable"];

function notFound(): never {
  throw new Response("Event not found", { status: 404 });
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const id = parseEventId(params.id) ?? notFound();
  // Scoped by shop: another shop's ID is not found, exactly like an ID that does not exist.
  const event = (await findOutboxEventForShop(prisma, session.shop, id)) ?? notFound();
  const [orderEvents, orderReceipts, attemptLog] = await Promise.all([
    listOrderEvents(prisma, session.shop, event.orderId),
    listOrderReceipts(prisma, session.shop, event.orderId),
    loadAttemptLog(prisma, event),
  ]);
  return {
    event: {
      id: event.id,
      environment: event.environment,
      orderId: event.orderId,
      eventType: event.eventType,
      status: event.status,
      attempts: event.attempts,
      lastError: event.lastError,
      serviceEventId: event.serviceEventId,
      createdAt: event.createdAt.toISOString(),
      lastAttemptAt: iso(event.lastAttemptAt),
      nextAttemptAt: iso(event.nextAttemptAt),
      firstFailedAt: iso(event.firstFailedAt),
      deliveredAt: iso(event.deliveredAt),
    },
    payload: formatJson(event.payload),
    response: event.lastResponse ? formatJson(event.lastResponse) : null,
    answer: parseServiceAnswer(event.lastResponse),
    accepted: acceptedWithoutEventIdOf(event),
    attemptLog,
    orderEvents: orderEvents.map((other) => ({
      id: other.id,
      eventType: other.eventType,
      status: other.status,
      createdAt: other.createdAt.toISOString(),
    })),
    orderReceipts: orderReceipts.map((receipt) => ({
      id: receipt.id,
      topic: receipt.topic,
      status: receipt.status,
      receivedAt: receipt.receivedAt.toISOString(),
    })),
  };
};

export const action = async ({
  request,
  params,
}: ActionFunctionArgs): Promise<EventLogActionResult> => {
  const { session } = await authenticate.admin(request);
  const id = parseEventId(params.id) ?? notFound();
  const posted = parseEventLogAction(await request.formData());
  if (posted.intent !== "retry" || posted.id !== id) {
    throw new Response("This page only retries its own event", { status: 400 });
  }
  return retryEventOfShop(session.shop, id);
};

export default function EventDetail() {
  const { event, payload, response, answer, accepted, attemptLog, orderEvents, orderReceipts } =
    useLoaderData<typeof loader>();
  const t = useTranslate();
  const back = useBackToLog();
  const fetcher = useFetcher<typeof action>();
  useRetryToast(fetcher.state === "idle" ? fetcher.data : undefined);
  const none = t("events.detail.none");
  const time = (value: string | null) => (value ? <EventTime value={value} /> : none);
  const summaryRows: [string, ReactNode][] = [
    [
      t("events.detail.order"),
      <OrderLink
        key="order"
        orderId={event.orderId}
        label={t("events.detail.openOrder", { id: event.orderId })}
      />,
    ],
    [t("events.detail.status"), <StatusBadge key="status" status={event.status} />],
    [t("events.detail.environment"), environmentLabel(t, event.environment)],
    [t("events.detail.attempts"), String(event.attempts)],
    [t("events.detail.created"), time(event.createdAt)],
    [t("events.detail.lastAttempt"), time(event.lastAttemptAt)],
  ];
  if (event.status === "pending" || event.status === "failed") {
    summaryRows.push([t("events.detail.nextAttempt"), time(event.nextAttemptAt)]);
  }
  summaryRows.push(
    [t("events.detail.firstFailed"), time(event.firstFailedAt)],
    [t("events.detail.delivered"), time(event.deliveredAt)],
    [
      t("events.detail.serviceEventId"),
      event.serviceEventId ?? (accepted ? t("events.accepted.title") : none),
    ],
    [t("events.detail.lastError"), event.lastError ?? none],
  );

  return (
    <Page
      title={t("events.detail.title", { type: eventTypeLabel(t, event.eventType), id: event.id })}
      titleMetadata={<StatusBadge status={event.status} />}
      backAction={{ content: t("events.detail.back"), onAction: back }}
      primaryAction={
        RETRYABLE.includes(event.status)
          ? {
              content: t("events.retry.action"),
              loading: fetcher.state !== "idle",
              onAction: () =>
                fetcher.submit({ intent: "retry", id: String(event.id) }, { method: "post" }),
            }
          : undefined
      }
    >
      <Layout>
        {answer && answer.validationErrors.length > 0 ? (
          <Layout.Section>
            <ValidationErrorsBanner answer={answer} />
          </Layout.Section>
        ) : null}
        {accepted ? (
          <Layout.Section>
            <AcceptedWithoutEventIdBanner accepted={accepted} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <EventAttempts log={attemptLog} />
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("events.detail.payload")}
                </Text>
                <Text as="p" tone="subdued">
                  {t("events.detail.payloadHelp")}
                </Text>
                <JsonBlock json={payload} />
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("events.detail.answer")}
                </Text>
                {response ? (
                  <JsonBlock json={response} />
                ) : (
                  <Text as="p" tone="subdued">
                    {t("events.detail.noAnswer")}
                  </Text>
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("events.detail.summary")}
                </Text>
                <Facts rows={summaryRows} />
              </BlockStack>
            </Card>
            <OrderTimeline
              currentId={event.id}
              orderEvents={orderEvents}
              orderReceipts={orderReceipts}
            />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  return <EventLogErrorBoundary />;
}
