import { Banner, Text } from "@shopify/polaris";
import type { ConnectionActionData } from "../../admin/connection-form";
import { useTranslate } from "../../i18n/react";
import type { AdminConnection } from "../../models/ShopConnection.server";
import { keyNameOf } from "./connection-ui";

export function ActionNotice({ actionData }: { actionData: ConnectionActionData | undefined }) {
  const t = useTranslate();
  if (!actionData) return null;
  if (actionData.ok) return <Banner tone="success">{t(actionData.notice)}</Banner>;
  const formError = actionData.errors.form ?? actionData.errors.confirm;
  return formError ? <Banner tone="critical">{t(formError)}</Banner> : null;
}

/** A rejected or missing key pauses delivery: say so at once, with what waits. */
export function PauseBanner({
  connection,
  waitingEvents,
}: {
  connection: AdminConnection | null;
  waitingEvents: number;
}) {
  const t = useTranslate();
  if (!connection) return null;
  const environment = connection.environment;
  if (connection.status === "key_rejected") {
    return (
      <Banner tone="critical" title={t("connection.banners.keyRejectedTitle")}>
        <Text as="p">{t("connection.banners.keyRejectedBody", { count: waitingEvents })}</Text>
      </Banner>
    );
  }
  if (connection.status === "secret_unreadable") {
    return (
      <Banner tone="critical" title={t("connection.banners.secretUnreadableTitle")}>
        <Text as="p">{t("connection.banners.secretUnreadableBody", { count: waitingEvents })}</Text>
      </Banner>
    );
  }
  const currentKey =
    environment === "production" ? connection.liveSecretKeyLast4 : connection.sandboxSecretKeyLast4;
  const hasAnyKey = Boolean(connection.sandboxSecretKeyLast4 || connection.liveSecretKeyLast4);
  if (connection.status === "uninstalled" || currentKey || (!hasAnyKey && waitingEvents === 0)) {
    return null;
  }
  return (
    <Banner
      tone="warning"
      title={t("connection.banners.keyMissingTitle", { keyName: keyNameOf(t, environment) })}
    >
      <Text as="p">
        {t("connection.banners.keyMissingBody", {
          count: waitingEvents,
          environment: t(`common.environment.${environment}`),
        })}
      </Text>
    </Banner>
  );
}
