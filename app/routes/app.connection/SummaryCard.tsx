import { InlineStack, Text } from "@shopify/polaris";
import { ConnectionStatusBadge, EnvironmentBadge } from "../../admin/components/ConnectionBadges";
import { SectionCard } from "../../admin/components/SectionCard";
import { useTranslate } from "../../i18n/react";
import type { AdminConnection } from "../../models/ShopConnection.server";
import { useDateFormat } from "./connection-ui";

export function SummaryCard({ connection }: { connection: AdminConnection | null }) {
  const t = useTranslate();
  const formatDate = useDateFormat();
  if (!connection) return null;
  return (
    <SectionCard title={t("connection.summary.title")} gap="200">
      <InlineStack gap="200" blockAlign="center">
        <ConnectionStatusBadge status={connection.status} />
        <EnvironmentBadge environment={connection.environment} />
        <Text as="span" tone="subdued">
          {t("connection.summary.apiVersion")} {connection.apiVersion}
        </Text>
      </InlineStack>
      {connection.liveSince && connection.environment === "production" ? (
        <Text as="p" tone="subdued">
          {t("connection.summary.liveSince", { date: formatDate(connection.liveSince) })}
        </Text>
      ) : null}
    </SectionCard>
  );
}
