import { useSubmit } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  Form,
  FormLayout,
  InlineStack,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { ConnectionActionData } from "../../admin/connection-form";
import { useTranslate } from "../../i18n/react";
import type { MessageKey } from "../../i18n/translate";
import type { AdminConnection } from "../../models/ShopConnection.server";
import type { Environment } from "../../protection/types";
import { ConfirmModal } from "./ConfirmModal";
import { keyNameOf, useDateFormat, useSubmitting } from "./connection-ui";

export function KeyCard({
  environment,
  connection,
  actionData,
}: {
  environment: Environment;
  connection: AdminConnection | null;
  actionData: ConnectionActionData | undefined;
}) {
  const isLive = environment === "production";
  const last4 = isLive ? connection?.liveSecretKeyLast4 : connection?.sandboxSecretKeyLast4;
  const publishable =
    (isLive ? connection?.livePublishableKey : connection?.sandboxPublishableKey) ?? "";
  // A new key or publishable key re-mounts the form: the secret field empties after a save.
  return (
    <KeyForm
      key={`${environment}:${last4 ?? ""}:${publishable}`}
      environment={environment}
      connection={connection}
      savedPublishableKey={publishable}
      actionData={actionData}
    />
  );
}

function KeyForm({
  environment,
  connection,
  savedPublishableKey,
  actionData,
}: {
  environment: Environment;
  connection: AdminConnection | null;
  savedPublishableKey: string;
  actionData: ConnectionActionData | undefined;
}) {
  const t = useTranslate();
  const formatDate = useDateFormat();
  const submit = useSubmit();
  const [secretKey, setSecretKey] = useState("");
  const [publishableKey, setPublishableKey] = useState(savedPublishableKey);
  const [removing, setRemoving] = useState(false);
  const saving = useSubmitting("save_keys", environment);
  const removingNow = useSubmitting("remove_key", environment);
  const isLive = environment === "production";
  const last4 = isLive ? connection?.liveSecretKeyLast4 : connection?.sandboxSecretKeyLast4;
  const verifiedAt = isLive ? connection?.liveKeyVerifiedAt : connection?.sandboxKeyVerifiedAt;
  const keyName = keyNameOf(t, environment);
  const errors =
    actionData && !actionData.ok && actionData.environment === environment ? actionData.errors : {};
  const errorText = (key: MessageKey | undefined) => (key ? t(key, { keyName }) : undefined);

  return (
    <Card>
      <Form
        onSubmit={() =>
          submit(
            { intent: "save_keys", environment, secretKey, publishableKey },
            { method: "post" },
          )
        }
      >
        <BlockStack gap="300">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              {t(isLive ? "connection.keys.liveTitle" : "connection.keys.sandboxTitle")}
            </Text>
            <Text as="p" tone="subdued">
              {t(isLive ? "connection.keys.liveHelp" : "connection.keys.sandboxHelp")}
            </Text>
          </BlockStack>
          <InlineStack gap="200" blockAlign="center">
            {last4 ? (
              <>
                <Text as="span">{t("connection.keys.saved", { last4 })}</Text>
                <Badge tone={verifiedAt ? "success" : "attention"}>
                  {verifiedAt
                    ? t("connection.keys.verifiedAt", { date: formatDate(verifiedAt) })
                    : t("connection.keys.notVerified")}
                </Badge>
              </>
            ) : (
              <Text as="span" tone="subdued">
                {t("connection.keys.none")}
              </Text>
            )}
          </InlineStack>
          <FormLayout>
            <TextField
              label={t("connection.keys.secretKey")}
              type="password"
              autoComplete="off"
              name="secretKey"
              value={secretKey}
              onChange={setSecretKey}
              placeholder={last4 ? t("connection.keys.secretKeyReplace") : undefined}
              helpText={t("connection.keys.secretKeyHelp")}
              error={errorText(errors.secretKey)}
            />
            <TextField
              label={t("connection.keys.publishableKey")}
              autoComplete="off"
              name="publishableKey"
              value={publishableKey}
              onChange={setPublishableKey}
              helpText={t("connection.keys.publishableKeyHelp")}
              error={errorText(errors.publishableKey)}
            />
          </FormLayout>
          <InlineStack gap="200" align="end">
            {last4 ? (
              <Button tone="critical" variant="plain" onClick={() => setRemoving(true)}>
                {t("connection.keys.remove")}
              </Button>
            ) : null}
            <Button submit variant="primary" loading={saving}>
              {t("connection.keys.save")}
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
      <ConfirmModal
        open={removing}
        title={t("connection.keys.removeTitle", { keyName })}
        body={t("connection.keys.removeBody")}
        confirmLabel={t("connection.keys.remove")}
        destructive
        loading={removingNow}
        onClose={() => setRemoving(false)}
        onConfirm={() => {
          submit({ intent: "remove_key", environment }, { method: "post" });
          setRemoving(false);
        }}
      />
    </Card>
  );
}
