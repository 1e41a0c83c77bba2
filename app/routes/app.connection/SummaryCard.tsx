import { Badge, BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { CONNECTION_STATUS_TONE } from "../../admin/components/connection-status";
import { useTranslate } from "../../i18n/react";
import type { AdminConnection } from "../../models/ShopConnection.server";
import { useDateFormat } from "./connection-ui";

export function SummaryCard({ connection }: { connection: AdminConnection | null }) {
  const t = useTranslate();
  const formatDate = useDateFormat();
  if (!connection) return null;
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t("connection.summary.title")}
        </Text>
        <InlineStack gap="200" blockAlign="center">
          <Badge tone={CONNECTION_STATUS_TONE[connection.status]}>
            {t(`common.status.${connection.status}`)}
          </Badge>
          <Badge tone={connection.environment === "production" ? "success" : "info"}>
            {t(`common.environment.${connection.environment}`)}
          </Badge>
          <Text as="span" tone="subdued">
            {t("connection.summary.apiVersion")} {connection.apiVersion}
          </Text>
        </InlineStack>
        {connection.liveSince && connection.environment === "production" ? (
          <Text as="p" tone="subdued">
            {t("connection.summary.liveSince", { date: formatDate(connection.liveSince) })}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}
