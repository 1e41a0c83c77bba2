import { Banner, Button } from "@shopify/polaris";
import { ConnectionStatusBadge, EnvironmentBadge } from "../../admin/components/ConnectionBadges";
import { Facts } from "../../admin/components/event-log-ui";
import { SectionCard } from "../../admin/components/SectionCard";
import type { ReactNode } from "react";
import { useTranslate } from "../../i18n/react";
import type { PublicConnection } from "../../models/ShopConnection.server";

/** The connection at a glance: status, environment, API version and the keys' last four. */
export function ConnectionCard({ connection }: { connection: PublicConnection | null }) {
  const t = useTranslate();
  const status = connection?.status ?? "not_connected";
  const environment = connection?.environment ?? "sandbox";
  const key = (last4: string | null | undefined) =>
    last4 ? `•••• ${last4}` : t("home.connection.keyNotSet");
  const rows: [string, ReactNode][] = [
    [t("home.connection.environment"), <EnvironmentBadge key="env" environment={environment} />],
    [t("home.connection.apiVersion"), connection?.apiVersion ?? "v2.0"],
    [t("home.connection.sandboxKey"), key(connection?.sandboxSecretKeyLast4)],
    [t("home.connection.liveKey"), key(connection?.liveSecretKeyLast4)],
  ];
  return (
    <SectionCard
      title={t("home.connection.heading")}
      aside={<ConnectionStatusBadge status={status} />}
    >
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
      <Facts rows={rows} spread />
      <Button url="/app/connection">{t("home.connection.manage")}</Button>
    </SectionCard>
  );
}
