import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Divider,
  InlineStack,
  ProgressBar,
  Text,
} from "@shopify/polaris";
import { useId, useState } from "react";
import { useLocale, useTranslate } from "../../i18n/react";
import type { Translate } from "../../i18n/translate";
import {
  checklistProgress,
  GO_LIVE_EVENT_TYPES,
  type ChecklistStep,
  type GoLiveChecklist,
} from "../../admin/checklist";
import { formatDateTime } from "../../admin/dashboard";

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

export function ChecklistCard({
  checklist,
  links,
  compact,
}: {
  checklist: GoLiveChecklist;
  links: ThemeEditorLinks;
  /** Once live the checklist is history: progress only, the steps behind a toggle. */
  compact: boolean;
}) {
  const t = useTranslate();
  const progressId = useId();
  const stepsId = useId();
  const [expanded, setExpanded] = useState(!compact);
  const { done, total } = checklistProgress(checklist);
  const live = checklist.steps.find((step) => step.id === "live");
  const isLive = live?.done ?? false;
  const beforeLiveDone = checklist.steps.every((step) => step.id === "live" || step.done);

  return (
    <Card>
      <BlockStack gap="400">
        <BlockStack gap="200">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {t("home.checklist.heading")}
            </Text>
            <Text as="p" id={progressId} tone="subdued">
              {t("home.checklist.progress", { done, total })}
            </Text>
          </InlineStack>
          <ProgressBar
            progress={Math.round((done / total) * 100)}
            tone={done === total ? "success" : "highlight"}
            size="small"
            ariaLabelledBy={progressId}
          />
          <Text as="p" tone="subdued">
            {isLive ? t("home.checklist.complete") : t("home.checklist.intro")}
          </Text>
        </BlockStack>

        {!isLive && checklist.readyToGoLive ? (
          <Banner
            tone="success"
            title={t("home.checklist.ready.title")}
            action={{ content: t("home.checklist.ready.action"), url: "/app/connection" }}
          >
            <p>{t("home.checklist.ready.body")}</p>
          </Banner>
        ) : null}
        {!isLive && beforeLiveDone && !checklist.readyToGoLive ? (
          <Banner
            tone="info"
            title={t("home.checklist.needsLiveKey.title")}
            action={{ content: t("home.checklist.needsLiveKey.action"), url: "/app/connection" }}
          >
            <p>{t("home.checklist.needsLiveKey.body")}</p>
          </Banner>
        ) : null}

        {compact ? (
          <InlineStack>
            <Button
              variant="plain"
              disclosure={expanded ? "up" : "down"}
              ariaExpanded={expanded}
              ariaControls={stepsId}
              onClick={() => setExpanded((value) => !value)}
            >
              {expanded ? t("home.checklist.hideSteps") : t("home.checklist.showSteps")}
            </Button>
          </InlineStack>
        ) : null}
        {expanded ? (
          <BlockStack gap="300" as="ol" id={stepsId}>
            {checklist.steps.map((step, index) => (
              <ChecklistStepRow
                key={step.id}
                number={index + 1}
                step={step}
                links={links}
                first={index === 0}
              />
            ))}
          </BlockStack>
        ) : null}
      </BlockStack>
    </Card>
  );
}

function ChecklistStepRow({
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
