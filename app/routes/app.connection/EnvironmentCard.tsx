import { useSubmit } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useState } from "react";
import type { ChecklistStepId, GoLiveChecklist } from "../../admin/checklist";
import { useTranslate } from "../../i18n/react";
import type { AdminConnection } from "../../models/ShopConnection.server";
import type { Environment } from "../../protection/types";
import { ConfirmModal } from "./ConfirmModal";
import { useSubmitting } from "./connection-ui";

type GoLiveStep = { id: Exclude<ChecklistStepId, "live"> | "live_key"; done: boolean };

/** The steps the go-live switch waits for, with the live key the checklist also requires. */
function goLiveSteps(connection: AdminConnection | null, checklist: GoLiveChecklist): GoLiveStep[] {
  const steps = checklist.steps.flatMap((step) =>
    step.id === "live" ? [] : [{ id: step.id, done: step.done }],
  );
  return [...steps, { id: "live_key", done: Boolean(connection?.liveKeyVerifiedAt) }];
}

export function EnvironmentCard({
  connection,
  checklist,
}: {
  connection: AdminConnection | null;
  checklist: GoLiveChecklist;
}) {
  const t = useTranslate();
  const submit = useSubmit();
  const [confirming, setConfirming] = useState(false);
  const isLive = connection?.environment === "production";
  const target: Environment = isLive ? "sandbox" : "production";
  const switching = useSubmitting("switch_environment");
  const steps = goLiveSteps(connection, checklist);

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("connection.environment.title")}
          </Text>
          <Badge tone={isLive ? "success" : "info"}>
            {t(`common.environment.${isLive ? "production" : "sandbox"}`)}
          </Badge>
        </InlineStack>
        <Text as="p">
          {t(isLive ? "connection.environment.inProduction" : "connection.environment.inSandbox")}
        </Text>
        {isLive ? null : (
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("connection.environment.checklistTitle")}
            </Text>
            <Text as="p" tone="subdued">
              {t(
                checklist.readyToGoLive
                  ? "connection.environment.ready"
                  : "connection.environment.notReady",
              )}
            </Text>
            <BlockStack gap="100" as="ul">
              {steps.map((step) => (
                <Box as="li" key={step.id}>
                  <InlineStack gap="200" blockAlign="center" wrap={false}>
                    <span style={{ flexShrink: 0, whiteSpace: "nowrap" }}>
                      <Badge tone={step.done ? "success" : undefined}>
                        {t(
                          step.done ? "connection.environment.done" : "connection.environment.toDo",
                        )}
                      </Badge>
                    </span>
                    <Text as="span">{t(`connection.environment.steps.${step.id}`)}</Text>
                  </InlineStack>
                </Box>
              ))}
            </BlockStack>
          </BlockStack>
        )}
        <InlineStack align="end">
          <Button
            variant={isLive ? "secondary" : "primary"}
            disabled={!isLive && !checklist.readyToGoLive}
            loading={switching}
            onClick={() => setConfirming(true)}
          >
            {t(isLive ? "connection.environment.backToSandbox" : "connection.environment.goLive")}
          </Button>
        </InlineStack>
      </BlockStack>
      <ConfirmModal
        open={confirming}
        title={t(
          isLive ? "connection.environment.backTitle" : "connection.environment.goLiveTitle",
        )}
        body={t(isLive ? "connection.environment.backBody" : "connection.environment.goLiveBody")}
        checkboxLabel={t(
          isLive ? "connection.environment.backConfirm" : "connection.environment.goLiveConfirm",
        )}
        confirmLabel={t(
          isLive ? "connection.environment.backToSandbox" : "connection.environment.goLive",
        )}
        loading={switching}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          submit(
            { intent: "switch_environment", environment: target, confirm: "true" },
            { method: "post" },
          );
          setConfirming(false);
        }}
      />
    </Card>
  );
}
