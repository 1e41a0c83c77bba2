import { Badge, Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { CONNECTION_STATUS_TONE } from "../../admin/components/connection-status";
import { useTranslate } from "../../i18n/react";
import type { PublicConnection } from "../../models/ShopConnection.server";

/** The connection at a glance: status, environment, API version and the keys' last four. */
export function ConnectionCard({ connection }: { connection: PublicConnection | null }) {
  const t = useTranslate();
  const status = connection?.status ?? "not_connected";
  const environment = connection?.environment ?? "sandbox";
  const key = (last4: string | null | undefined) =>
    last4 ? `•••• ${last4}` : t("home.connection.keyNotSet");
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center" align="space-between">
          <Text as="h2" variant="headingMd">
            {t("home.connection.heading")}
          </Text>
          <Badge tone={CONNECTION_STATUS_TONE[status]}>{t(`common.status.${status}`)}</Badge>
        </InlineStack>
        {status === "key_rejected" ? (
          <Banner tone="critical">
            <p>{t("home.connection.rejected")}</p>
          </Banner>
        ) : null}
        {status === "secret_unreadable" ? (
          <Banner tone="critical">
            <p>{t("home.connection.unreadable")}</p>
          </Banner>
        ) : null}
        <BlockStack gap="100">
          <InlineStack align="space-between">
            <Text as="span" tone="subdued">
              {t("home.connection.environment")}
            </Text>
            <Badge tone={environment === "production" ? "success" : "info"}>
              {t(`common.environment.${environment}`)}
            </Badge>
          </InlineStack>
          <InlineStack align="space-between">
            <Text as="span" tone="subdued">
              {t("home.connection.apiVersion")}
            </Text>
            <Text as="span">{connection?.apiVersion ?? "v2.0"}</Text>
          </InlineStack>
          <InlineStack align="space-between">
            <Text as="span" tone="subdued">
              {t("home.connection.sandboxKey")}
            </Text>
            <Text as="span">{key(connection?.sandboxSecretKeyLast4)}</Text>
          </InlineStack>
          <InlineStack align="space-between">
            <Text as="span" tone="subdued">
              {t("home.connection.liveKey")}
            </Text>
            <Text as="span">{key(connection?.liveSecretKeyLast4)}</Text>
          </InlineStack>
        </BlockStack>
        <Button url="/app/connection">{t("home.connection.manage")}</Button>
      </BlockStack>
    </Card>
  );
}
