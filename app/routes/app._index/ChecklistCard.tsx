import { Banner, BlockStack, Button, Card, InlineStack, ProgressBar, Text } from "@shopify/polaris";
import { useId, useState } from "react";
import { useTranslate } from "../../i18n/react";
import { checklistProgress, type GoLiveChecklist } from "../../admin/checklist";
import { ChecklistStepRow, type ThemeEditorLinks } from "./ChecklistStepRow";

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
  // Before going live: the switch once it is allowed, else the live key once it is all that is left.
  const nextStep = isLive
    ? null
    : checklist.readyToGoLive
      ? "ready"
      : beforeLiveDone
        ? "needsLiveKey"
        : null;

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

        {nextStep ? (
          <Banner
            tone={nextStep === "ready" ? "success" : "info"}
            title={t(`home.checklist.${nextStep}.title`)}
            action={{ content: t(`home.checklist.${nextStep}.action`), url: "/app/connection" }}
          >
            <p>{t(`home.checklist.${nextStep}.body`)}</p>
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
