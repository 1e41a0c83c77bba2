import { Badge } from "@shopify/polaris";
import { useTranslate } from "../../i18n/react";
import type { ConnectionStatus } from "../../models/ShopConnection.server";
import type { Environment } from "../../protection/types";

/** The badge tone of each connection status, the same on the home and Connection pages. */
const CONNECTION_STATUS_TONE = {
  connected: "success",
  key_rejected: "critical",
  secret_unreadable: "critical",
  not_connected: "attention",
  uninstalled: "critical",
} as const;

export function ConnectionStatusBadge({ status }: { status: ConnectionStatus }) {
  const t = useTranslate();
  return <Badge tone={CONNECTION_STATUS_TONE[status]}>{t(`common.status.${status}`)}</Badge>;
}

/** Production in green, so that a live shop is told apart from a sandbox at a glance. */
export function EnvironmentBadge({ environment }: { environment: Environment }) {
  const t = useTranslate();
  return (
    <Badge tone={environment === "production" ? "success" : "info"}>
      {t(`common.environment.${environment}`)}
    </Badge>
  );
}
