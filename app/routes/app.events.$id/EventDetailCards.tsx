import { Banner, BlockStack, Divider, InlineStack, Link, List, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { orderFact, SummaryCard } from "../../admin/components/detail-cards";
import {
  environmentLabel,
  EventTime,
  OrderEventRow,
  RecoveryBadge,
  StatusBadge,
} from "../../admin/components/event-log-ui";
import { SectionCard } from "../../admin/components/SectionCard";
import type { EventDetail } from "../../admin/event-detail.server";
import { recoverySourceOf } from "../../admin/event-filters";
import type { ServiceAnswer } from "../../admin/event-log";
import { useTranslate } from "../../i18n/react";

// The event page's cards besides the attempt log (app.events.$id).

/** The service's validation errors of a 400: what to fix before retrying. */
export function ValidationErrorsBanner({ answer }: { answer: ServiceAnswer }) {
  const t = useTranslate();
  return (
    <Banner tone="critical" title={t("events.detail.validationTitle")}>
      <BlockStack gap="200">
        <Text as="p">{t("events.detail.validationHelp")}</Text>
        {answer.errorCode ? (
          <Text as="p" tone="subdued">
            {t("events.detail.errorCode", { code: answer.errorCode })}
          </Text>
        ) : null}
        <List type="bullet">
          {answer.validationErrors.map((error, index) => (
            <List.Item key={index}>
              {error.field ? <Text as="strong">{error.field}</Text> : null}
              {error.field ? ": " : null}
              {error.message}
            </List.Item>
          ))}
        </List>
      </BlockStack>
    </Banner>
  );
}

interface TimelineEvent {
  id: number;
  eventType: string;
  status: string;
}

interface TimelineReceipt {
  id: string;
  topic: string;
  status: string;
}

/** The title's status badge, and the mark of an event no webhook brought. */
export function EventTitleBadges({
  event,
}: {
  event: { status: string; recoveredBy: string | null };
}) {
  return (
    <InlineStack gap="200">
      <StatusBadge status={event.status} />
      <RecoveryBadge recoveredBy={event.recoveredBy} />
    </InlineStack>
  );
}

/** Why no webhook stands behind an event the app read from Shopify's Admin API, in one line. */
export function RecoveredBanner({ recoveredBy }: { recoveredBy: string | null }) {
  const t = useTranslate();
  const source = recoverySourceOf(recoveredBy);
  if (!source) return null;
  return (
    <Banner tone="info">
      <p>{t(`events.recovery.${source}Help`)}</p>
    </Banner>
  );
}

/** What else happened to the order: its events in sending order and its webhooks. */
export function OrderTimeline({
  order,
  currentId,
  orderEvents,
  orderReceipts,
}: {
  /** How the page names the order ("#1001", or its ID before a webhook named it). */
  order: string;
  currentId: number;
  orderEvents: TimelineEvent[];
  orderReceipts: TimelineReceipt[];
}) {
  const t = useTranslate();
  return (
    <SectionCard title={t("events.detail.orderEventsOf", { order })}>
      {orderEvents.map((other) => (
        <OrderEventRow key={other.id} event={other} current={other.id === currentId} />
      ))}
      <Divider />
      <Text as="h2" variant="headingMd">
        {t("events.detail.orderWebhooks", { order })}
      </Text>
      {orderReceipts.length === 0 ? (
        <Text as="p" tone="subdued">
          {t("events.detail.noOrderWebhooks")}
        </Text>
      ) : null}
      {orderReceipts.map((receipt) => (
        <InlineStack key={receipt.id} gap="200" align="space-between" blockAlign="center">
          <Link url={`/app/events/receipts/${receipt.id}`} removeUnderline>
            {receipt.topic}
          </Link>
          <StatusBadge status={receipt.status} />
        </InlineStack>
      ))}
    </SectionCard>
  );
}

export function EventSummaryCard({
  event,
  accepted,
}: {
  event: EventDetail["event"];
  /** Delivered with a 2xx that named no event ID. */
  accepted: boolean;
}) {
  const t = useTranslate();
  const none = t("events.detail.none");
  const time = (value: string | null) => (value ? <EventTime value={value} /> : none);
  const rows: [string, ReactNode][] = [
    orderFact(t, event),
    [t("events.detail.status"), <StatusBadge key="status" status={event.status} />],
    [t("events.detail.environment"), environmentLabel(t, event.environment)],
    [t("events.detail.attempts"), String(event.attempts)],
    [t("events.detail.created"), time(event.createdAt)],
    [t("events.detail.lastAttempt"), time(event.lastAttemptAt)],
  ];
  if (event.status === "pending" || event.status === "failed") {
    rows.push([t("events.detail.nextAttempt"), time(event.nextAttemptAt)]);
  }
  rows.push(
    [t("events.detail.firstFailed"), time(event.firstFailedAt)],
    [t("events.detail.delivered"), time(event.deliveredAt)],
    [
      t("events.detail.serviceEventId"),
      event.serviceEventId ?? (accepted ? t("events.accepted.title") : none),
    ],
    [t("events.detail.lastError"), event.lastError ?? none],
  );
  return <SummaryCard title={t("events.detail.summary")} rows={rows} />;
}
