import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  EmptyState,
  InlineGrid,
  InlineStack,
  Text,
} from "@shopify/polaris";
import type { ReactNode } from "react";
import { useLocale, useTranslate } from "../../i18n/react";
import { formatMoney } from "../../lib/money";
import {
  formatCount,
  formatPercent,
  isQuiet,
  type Dashboard,
  type OrderTotals,
} from "../../admin/dashboard";
import { environmentLabel } from "../../admin/components/event-log-ui";
import { SectionCard } from "../../admin/components/SectionCard";
import { EventsChart } from "./EventsChart";

const EMPTY_STATE_IMAGE =
  "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/emptystate-files.png";

export function StatusCard({ dashboard, live }: { dashboard: Dashboard; live: boolean }) {
  const t = useTranslate();
  const environmentName = environmentLabel(t, dashboard.environment);
  return (
    <BlockStack gap="400">
      <InlineStack gap="200" blockAlign="center">
        <Text as="h2" variant={live ? "headingLg" : "headingMd"}>
          {live ? t("home.status.liveHeading") : t("home.status.heading")}
        </Text>
        <Badge tone={dashboard.environment === "production" ? "success" : "info"}>
          {environmentName}
        </Badge>
      </InlineStack>
      <Text as="p" tone="subdued">
        {t("home.environmentNote", { environment: environmentName })}
        {dashboard.environment === "production" ? null : ` ${t("home.status.sandboxHint")}`}
      </Text>
      {isQuiet(dashboard) ? (
        <Card>
          <EmptyState
            heading={
              dashboard.environment === "production"
                ? t("home.status.events.emptyLive")
                : t("home.status.events.empty")
            }
            image={EMPTY_STATE_IMAGE}
            action={{ content: t("home.status.events.viewLog"), url: "/app/events" }}
          />
        </Card>
      ) : (
        <>
          <EventsFigures dashboard={dashboard} />
          <OrdersFigures dashboard={dashboard} />
        </>
      )}
    </BlockStack>
  );
}

function Figure({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children?: ReactNode;
}) {
  return (
    <BlockStack gap="100">
      <Text as="p" tone="subdued">
        {label}
      </Text>
      <Text as="p" variant="headingLg" numeric>
        {value}
      </Text>
      {children}
    </BlockStack>
  );
}

/** One window of time (the last 24 hours, the last 7 days) and its figures. */
function WindowBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box padding="300" background="bg-surface-secondary" borderRadius="200">
      <BlockStack gap="200">
        <Text as="h4" variant="headingSm">
          {label}
        </Text>
        {children}
      </BlockStack>
    </Box>
  );
}

function EventsFigures({ dashboard }: { dashboard: Dashboard }) {
  const t = useTranslate();
  const locale = useLocale();
  const windows = [
    { label: t("home.status.events.last24h"), totals: dashboard.events.last24h },
    { label: t("home.status.events.last7d"), totals: dashboard.events.last7d },
  ];
  const counts = ["delivered", "failed", "waiting"] as const;
  return (
    <SectionCard
      title={t("home.status.events.heading")}
      headingAs="h3"
      gap="400"
      aside={
        <Button variant="plain" url="/app/events">
          {t("home.status.events.viewLog")}
        </Button>
      }
    >
      {dashboard.events.last7d.failed > 0 ? (
        <Banner tone="warning">
          <p>{t("home.status.events.failedHint")}</p>
        </Banner>
      ) : null}
      <InlineGrid columns={{ xs: 1, sm: 2 }} gap="400">
        {windows.map(({ label, totals }) => (
          <WindowBox key={label} label={label}>
            <InlineGrid columns={3} gap="200">
              {counts.map((count) => (
                <Figure
                  key={count}
                  label={t(`home.status.events.${count}`)}
                  value={formatCount(totals[count], locale)}
                />
              ))}
            </InlineGrid>
          </WindowBox>
        ))}
      </InlineGrid>
      <EventsChart days={dashboard.days} />
    </SectionCard>
  );
}

function revenueText(totals: OrderTotals, locale: string, none: string): string {
  if (totals.planRevenue.length === 0) return none;
  return totals.planRevenue
    .map((entry) => formatMoney(entry.amount, entry.currency, locale))
    .join(" · ");
}

function OrdersFigures({ dashboard }: { dashboard: Dashboard }) {
  const t = useTranslate();
  const locale = useLocale();
  const { attach, last24h, last7d } = dashboard.orders;
  const windows = [
    { label: t("home.status.events.last24h"), totals: last24h },
    { label: t("home.status.events.last7d"), totals: last7d },
  ];
  return (
    <SectionCard title={t("home.status.orders.heading")} headingAs="h3" gap="400">
      {last7d.reportedOrders === 0 ? (
        <Text as="p" tone="subdued">
          {t("home.status.orders.empty")}
        </Text>
      ) : null}
      <InlineGrid columns={{ xs: 1, sm: 3 }} gap="400">
        {windows.map(({ label, totals }) => (
          <WindowBox key={label} label={label}>
            <Figure
              label={t("home.status.orders.protectedOrders")}
              value={formatCount(totals.protectedOrders, locale)}
            />
            <Figure
              label={t("home.status.orders.planRevenue")}
              value={revenueText(totals, locale, "—")}
            >
              {totals.planRevenue.length === 0 ? (
                <Text as="p" variant="bodySm" tone="subdued">
                  {t("home.status.orders.planRevenueNone")}
                </Text>
              ) : null}
            </Figure>
          </WindowBox>
        ))}
        <Box padding="300" background="bg-surface-secondary" borderRadius="200">
          <Figure
            label={t("home.status.orders.attachRate")}
            value={attach.rate === null ? "—" : formatPercent(attach.rate, locale)}
          >
            <Text as="p" variant="bodySm" tone="subdued">
              {attach.rate === null
                ? t("home.status.orders.attachRateNone")
                : t("home.status.orders.attachRateDetail", {
                    withPlan: formatCount(attach.ordersWithPlan, locale),
                    withProtectable: formatCount(attach.ordersWithProtectableProduct, locale),
                  })}
            </Text>
          </Figure>
        </Box>
      </InlineGrid>
    </SectionCard>
  );
}
