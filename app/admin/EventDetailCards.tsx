import { Banner, BlockStack, Card, Divider, InlineStack, Link, List, Text } from "@shopify/polaris";
import { useTranslate } from "../i18n/react";
import type { ServiceAnswer } from "./event-log";
import { eventTypeLabel, StatusBadge } from "./event-log-ui";

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

/** What else happened to the order: its events in sending order and its webhooks. */
export function OrderTimeline({
  currentId,
  orderEvents,
  orderReceipts,
}: {
  currentId: number;
  orderEvents: TimelineEvent[];
  orderReceipts: TimelineReceipt[];
}) {
  const t = useTranslate();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("events.detail.orderEvents")}
        </Text>
        {orderEvents.map((other) => (
          <InlineStack key={other.id} gap="200" align="space-between" blockAlign="center">
            {other.id === currentId ? (
              <Text as="span" fontWeight="semibold">
                {`#${other.id} ${eventTypeLabel(t, other.eventType)}`}
              </Text>
            ) : (
              <Link url={`/app/events/${other.id}`} removeUnderline>
                {`#${other.id} ${eventTypeLabel(t, other.eventType)}`}
              </Link>
            )}
            <StatusBadge status={other.status} />
          </InlineStack>
        ))}
        <Divider />
        <Text as="h2" variant="headingMd">
          {t("events.detail.orderWebhooks")}
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
      </BlockStack>
    </Card>
  );
}
