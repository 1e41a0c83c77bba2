import { Badge, BlockStack, Box, Button, Divider, InlineStack, Text } from "@shopify/polaris";
import { GO_LIVE_EVENT_TYPES, type ChecklistStep } from "../../admin/checklist";
import { formatDateTime } from "../../admin/dashboard";
import { useLocale, useTranslate } from "../../i18n/react";
import type { Translate } from "../../i18n/translate";

export interface ThemeEditorLinks {
  appEmbed: string;
  offerBlock: string;
}

/** Where each step is done: an app page, or the theme editor in the admin's top frame. */
function stepAction(step: ChecklistStep, links: ThemeEditorLinks) {
  switch (step.id) {
    case "sandbox_key":
    case "live":
      return { url: "/app/connection" };
    case "protection_items":
      return { url: "/app/items" };
    case "app_embed":
      return { url: links.appEmbed, target: "_top" as const };
    case "offer_block":
      return { url: links.offerBlock, target: "_top" as const };
    case "test_order":
    case "sandbox_events":
      return { url: "/app/events" };
  }
}

function stepDetail(step: ChecklistStep, t: Translate, locale: string): string | null {
  switch (step.id) {
    case "sandbox_key":
      if (step.detail.keyRejected) return t("home.checklist.steps.sandbox_key.rejected");
      return step.detail.verifiedAt
        ? t("home.checklist.steps.sandbox_key.done", {
            date: formatDateTime(step.detail.verifiedAt, locale),
          })
        : null;
    case "protection_items":
      return step.done
        ? t("home.checklist.steps.protection_items.done", { count: step.detail.count })
        : null;
    case "app_embed":
    case "offer_block":
      return step.detail.seenAt
        ? t(`home.checklist.steps.${step.id}.done`, {
            date: formatDateTime(step.detail.seenAt, locale),
          })
        : null;
    case "test_order":
      return step.done ? t("home.checklist.steps.test_order.done") : null;
    case "live":
      return step.done && step.detail.liveSince
        ? t("home.checklist.steps.live.done", {
            date: formatDateTime(step.detail.liveSince, locale),
          })
        : null;
    case "sandbox_events":
      return null;
  }
}

export function ChecklistStepRow({
  number,
  step,
  links,
  first,
}: {
  number: number;
  step: ChecklistStep;
  links: ThemeEditorLinks;
  first: boolean;
}) {
  const t = useTranslate();
  const locale = useLocale();
  const key = `home.checklist.steps.${step.id}` as const;
  const detail = stepDetail(step, t, locale);
  const action = stepAction(step, links);
  const rejected = step.id === "sandbox_key" && step.detail.keyRejected;
  return (
    <Box as="li">
      <BlockStack gap="200">
        {first ? null : <Divider />}
        <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              {`${number}. ${t(`${key}.title`)}`}
            </Text>
            {step.done ? null : (
              <Text as="p" tone="subdued">
                {t(`${key}.body`)}
              </Text>
            )}
            {detail ? (
              <Text as="p" tone={rejected ? "critical" : step.done ? "success" : undefined}>
                {detail}
              </Text>
            ) : null}
            {step.id === "sandbox_events" ? (
              <InlineStack gap="200" as="ul">
                {GO_LIVE_EVENT_TYPES.map((type) => (
                  <li key={type} style={{ listStyle: "none" }}>
                    <Badge
                      tone={step.detail.delivered[type] ? "success" : undefined}
                      progress={step.detail.delivered[type] ? "complete" : "incomplete"}
                    >
                      {`${t(`home.checklist.steps.sandbox_events.types.${type}`)}: ${t(
                        step.detail.delivered[type]
                          ? "home.checklist.steps.sandbox_events.delivered"
                          : "home.checklist.steps.sandbox_events.missing",
                      )}`}
                    </Badge>
                  </li>
                ))}
              </InlineStack>
            ) : null}
          </BlockStack>
          {/* The status and the action keep their width; the step's text wraps instead. */}
          <div style={{ flexShrink: 0, whiteSpace: "nowrap" }}>
            <InlineStack gap="200" blockAlign="center" wrap={false}>
              <Badge
                tone={step.done ? "success" : rejected ? "critical" : "attention"}
                progress={step.done ? "complete" : "incomplete"}
              >
                {step.done ? t("home.checklist.stepDone") : t("home.checklist.stepOpen")}
              </Badge>
              {step.done ? null : (
                <Button url={action.url} target={action.target}>
                  {t(`${key}.action`)}
                </Button>
              )}
            </InlineStack>
          </div>
        </InlineStack>
      </BlockStack>
    </Box>
  );
}
