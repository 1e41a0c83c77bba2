import { useSubmit } from "@remix-run/react";
import { Button, Form, InlineStack, Select } from "@shopify/polaris";
import { useState } from "react";
import { SectionCard } from "../../admin/components/SectionCard";
import type { ConnectionActionData } from "../../admin/connection-form";
import { useTranslate } from "../../i18n/react";
import type { AdminConnection } from "../../models/ShopConnection.server";
import type { ApiVersion } from "../../protection/types";
import { useSubmitting } from "./connection-ui";

export function ApiVersionCard({
  connection,
  actionData,
}: {
  connection: AdminConnection | null;
  actionData: ConnectionActionData | undefined;
}) {
  const t = useTranslate();
  const submit = useSubmit();
  const [apiVersion, setApiVersion] = useState<string>(connection?.apiVersion ?? "v2.0");
  const saving = useSubmitting("set_api_version");
  const error =
    actionData && !actionData.ok && actionData.intent === "set_api_version"
      ? actionData.errors.apiVersion
      : undefined;
  const options: { label: string; value: ApiVersion }[] = [
    { label: t("connection.apiVersion.current"), value: "v2.0" },
    { label: t("connection.apiVersion.earliest"), value: "v1.1" },
  ];
  return (
    <Form onSubmit={() => submit({ intent: "set_api_version", apiVersion }, { method: "post" })}>
      <SectionCard title={t("connection.apiVersion.title")}>
        <Select
          label={t("connection.apiVersion.label")}
          options={options}
          value={apiVersion}
          onChange={setApiVersion}
          helpText={t("connection.apiVersion.help")}
          error={error ? t(error) : undefined}
        />
        <InlineStack align="end">
          <Button submit loading={saving}>
            {t("connection.apiVersion.save")}
          </Button>
        </InlineStack>
      </SectionCard>
    </Form>
  );
}
