import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Link,
  Page,
  Text,
  type BadgeProps,
} from "@shopify/polaris";
import { boundary } from "@shopify/shopify-app-remix/server";
import { useEffect, useMemo, type ReactNode } from "react";
import { useLocale, useTranslate } from "../../i18n/react";
import { isMessageKey, type Translate } from "../../i18n/translate";
import { orderAdminUrl, orderLabel, type EventLogActionResult } from "../event-log";
import { OUTBOX_MESSAGE_TYPES, recoverySourceOf } from "../event-filters";

// Pieces the event log's three routes share: badges, times, JSON blocks, the retry toast and
// the error boundary.

const STATUS_TONE: Record<string, BadgeProps["tone"]> = {
  pending: "attention",
  delivering: "info",
  delivered: "success",
  failed: "warning",
  dead: "critical",
  unprocessable: "critical",
  processed: "success",
  ignored: undefined,
};

const STATUS_PROGRESS: Record<string, BadgeProps["progress"]> = {
  pending: "incomplete",
  delivering: "partiallyComplete",
  delivered: "complete",
  failed: "partiallyComplete",
};

/** A status word of an event or receipt; an unknown one is shown as stored. */
export function statusLabel(t: Translate, status: string): string {
  const key = `events.status.${status}`;
  return status in STATUS_TONE && isMessageKey(key) ? t(key) : status;
}

export function eventTypeLabel(t: Translate, type: string): string {
  const key = `events.eventType.${type}`;
  return (OUTBOX_MESSAGE_TYPES as readonly string[]).includes(type) && isMessageKey(key)
    ? t(key)
    : type;
}

export function environmentLabel(t: Translate, environment: string): string {
  return environment === "sandbox" || environment === "production"
    ? t(`common.environment.${environment}`)
    : environment;
}

export function StatusBadge({ status }: { status: string }) {
  const t = useTranslate();
  return (
    <Badge tone={STATUS_TONE[status]} progress={STATUS_PROGRESS[status]}>
      {statusLabel(t, status)}
    </Badge>
  );
}

/** Marks an event the app read from Shopify's Admin API: "Recovered" or "Backfilled". */
export function RecoveryBadge({ recoveredBy }: { recoveredBy: string | null }) {
  const t = useTranslate();
  const source = recoverySourceOf(recoveredBy);
  if (!source) return null;
  return (
    <Badge tone={source === "reconciliation" ? "info" : undefined}>
      {t(`events.recovery.${source}`)}
    </Badge>
  );
}

/** A time in the admin's language and the browser's time zone (the server renders UTC). */
export function EventTime({ value }: { value: string | null }) {
  const locale = useLocale();
  const format = useMemo(
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }),
    [locale],
  );
  if (!value) return null;
  return (
    <time dateTime={value} suppressHydrationWarning>
      {format.format(new Date(value))}
    </time>
  );
}

/** The order in the Shopify admin, in the top window (not inside the app's iframe). */
export function OrderLink({
  orderId,
  orderName,
  label,
}: {
  orderId: string | null;
  orderName: string | null;
  label?: string;
}) {
  if (!orderId) return <Text as="span">-</Text>;
  return (
    <Link url={orderAdminUrl(orderId)} target="_top" removeUnderline>
      {label ?? orderLabel({ orderId, orderName })}
    </Link>
  );
}

export function JsonBlock({ json }: { json: string }) {
  return (
    <Box padding="300" background="bg-surface-secondary" borderRadius="200" overflowX="scroll">
      <pre style={{ margin: 0, fontSize: "12px", lineHeight: "18px" }}>
        <code>{json}</code>
      </pre>
    </Box>
  );
}

/**
 * Label and value rows of a detail card; `spread` puts each value at the card's far edge, for
 * a narrow card of a few short values.
 */
export function Facts({ rows, spread = false }: { rows: [string, ReactNode][]; spread?: boolean }) {
  return (
    <BlockStack gap={spread ? "100" : "200"}>
      {rows.map(([label, value]) => {
        const labelText = (
          <Text as="span" tone="subdued">
            {label}
          </Text>
        );
        // breakWord: a service event ID or an error is one long word that would leave the card.
        const valueNode =
          typeof value === "string" ? (
            <Text as="span" breakWord>
              {value}
            </Text>
          ) : (
            value
          );
        return spread ? (
          <InlineStack key={label} align="space-between">
            {labelText}
            {valueNode}
          </InlineStack>
        ) : (
          <InlineStack key={label} gap="400" wrap={false} blockAlign="start">
            <Box minWidth="120px">{labelText}</Box>
            <Box minWidth="0">{valueNode}</Box>
          </InlineStack>
        );
      })}
    </BlockStack>
  );
}

/** One of an order's events, linked to its page unless it is the page being shown. */
export function OrderEventRow({
  event,
  current = false,
}: {
  event: { id: number; eventType: string; status: string };
  current?: boolean;
}) {
  const t = useTranslate();
  const label = `#${event.id} ${eventTypeLabel(t, event.eventType)}`;
  return (
    <InlineStack gap="200" align="space-between" blockAlign="center">
      {current ? (
        <Text as="span" fontWeight="semibold">
          {label}
        </Text>
      ) : (
        <Link url={`/app/events/${event.id}`} removeUnderline>
          {label}
        </Link>
      )}
      <StatusBadge status={event.status} />
    </InlineStack>
  );
}

/** A Toast for the answer of a retry (App Bridge's, outside the app's iframe). */
export function useRetryToast(result: EventLogActionResult | undefined) {
  const shopify = useAppBridge();
  const t = useTranslate();
  useEffect(() => {
    if (!result) return;
    if (result.intent === "retry_dead") {
      shopify.toast.show(t("events.retryDead.done", { count: result.count }));
      return;
    }
    if (result.intent === "run_action") {
      const key = `events.orderActions.status.${result.status}`;
      const status = isMessageKey(key) ? t(key) : result.status;
      if (result.outcome === "requested") shopify.toast.show(t("events.orderActions.runRequested"));
      else shopify.toast.show(t("events.orderActions.notRunnable", { status }), { isError: true });
      return;
    }
    const values = { id: result.id, status: statusLabel(t, result.status) };
    if (result.outcome === "retried") shopify.toast.show(t("events.retry.done", values));
    else shopify.toast.show(t("events.retry.notRetryable", values), { isError: true });
  }, [result, shopify, t]);
}

/** Back to the list as it was (filters, page) when the app came from it; else to its start. */
export function useBackToLog() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => (location.key === "default" ? navigate("/app/events") : navigate(-1));
}

/**
 * The event log's error boundary: a 404 (an ID of another shop, or deleted) says so; Shopify's
 * own responses (authentication) go to its boundary; anything else says what to do.
 */
export function EventLogErrorBoundary() {
  const error = useRouteError();
  const t = useTranslate();
  if (isRouteErrorResponse(error) && error.status !== 404 && error.status < 500) {
    return boundary.error(error);
  }
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <Page title={t("events.title")} backAction={{ url: "/app/events" }}>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {notFound ? t("events.errors.notFoundTitle") : t("events.errors.title")}
          </Text>
          <Text as="p">{notFound ? t("events.errors.notFoundBody") : t("events.errors.body")}</Text>
          <InlineStack gap="200">
            <Button url="/app/events">{t("events.errors.backToLog")}</Button>
            {notFound ? null : (
              <Button variant="plain" onClick={() => window.location.reload()}>
                {t("events.errors.reload")}
              </Button>
            )}
          </InlineStack>
        </BlockStack>
      </Card>
    </Page>
  );
}
