import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Card,
  Divider,
  InlineStack,
  Text,
  type BadgeProps,
} from "@shopify/polaris";
import { Fragment, useId } from "react";
import { useLocale, useTranslate } from "../../i18n/react";
import { isMessageKey, type Translate } from "../../i18n/translate";
import {
  formatDuration,
  type AcceptedWithoutEventId,
  type AttemptEntry,
  type AttemptLog,
  type LoggedAttempt,
} from "../../admin/event-log";
import { EventTime, JsonBlock } from "../../admin/components/event-log-ui";

const OUTCOME_TONE: Record<string, BadgeProps["tone"]> = {
  delivered: "success",
  retry: "warning",
  dead: "critical",
  pause_shop: "attention",
  lost_claim: "info",
};

function outcomeLabel(t: Translate, outcome: string): string {
  const key = `events.attemptLog.outcome.${outcome}`;
  return outcome in OUTCOME_TONE && isMessageKey(key) ? t(key) : outcome;
}

/** The event page's "Attempts" card: every send, oldest first, and the gaps between them. */
export function EventAttempts({ log }: { log: AttemptLog }) {
  const t = useTranslate();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd" id={titleId}>
            {t("events.attemptLog.title")}
          </Text>
          <Text as="p" tone="subdued">
            {t("events.attemptLog.help")}
          </Text>
          <BlockStack gap="100">
            <Text as="span" tone="subdued">
              {t("events.attemptLog.idempotencyKey")}
            </Text>
            <Text as="p" fontWeight="medium" breakWord>
              <code data-testid="idempotency-key">{log.idempotencyKey}</code>
            </Text>
            <Text as="p" tone="subdued" variant="bodySm">
              {t("events.attemptLog.idempotencyKeyHelp")}
            </Text>
          </BlockStack>
          {log.cutOff > 0 ? (
            <Banner tone="warning">
              {log.cutOff === 1
                ? t("events.attemptLog.cutOffSummaryOne")
                : t("events.attemptLog.cutOffSummaryMany", { count: log.cutOff })}
            </Banner>
          ) : null}
          {log.earlierLogged > 0 ? (
            <Text as="p" tone="subdued">
              {t("events.attemptLog.earlier", {
                shown: log.loggedTotal - log.earlierLogged,
                total: log.loggedTotal,
              })}
            </Text>
          ) : null}
          {log.entries.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("events.attemptLog.none")}
            </Text>
          ) : (
            <BlockStack gap="200" as="ol">
              {log.entries.map((entry, index) => (
                <Fragment key={entryKey(entry)}>
                  {index > 0 ? <Divider /> : null}
                  <li style={{ listStyle: "none" }}>
                    <AttemptLine entry={entry} />
                  </li>
                </Fragment>
              ))}
            </BlockStack>
          )}
        </BlockStack>
      </Card>
    </section>
  );
}

function entryKey(entry: AttemptEntry<LoggedAttempt>): string {
  switch (entry.kind) {
    case "logged":
      return `logged-${entry.attempt.attempt}-${entry.attempt.startedAt}`;
    case "cut_off":
      return `cut-off-${entry.from}`;
    case "sending":
      return `sending-${entry.number}`;
  }
}

function AttemptLine({ entry }: { entry: AttemptEntry<LoggedAttempt> }) {
  const t = useTranslate();
  const locale = useLocale();
  if (entry.kind === "cut_off") {
    return (
      <Text as="p" tone="caution">
        {entry.from === entry.to
          ? t("events.attemptLog.cutOffOne", { number: entry.from })
          : t("events.attemptLog.cutOffRange", { from: entry.from, to: entry.to })}
      </Text>
    );
  }
  if (entry.kind === "sending") {
    return (
      <Text as="p" tone="subdued">
        {t("events.attemptLog.sending", { number: entry.number })}
      </Text>
    );
  }
  const attempt = entry.attempt;
  return (
    <BlockStack gap="100">
      <InlineStack gap="200" blockAlign="center">
        <Text as="span" fontWeight="semibold">
          {t("events.attemptLog.number", { number: attempt.attempt })}
        </Text>
        <Badge tone={OUTCOME_TONE[attempt.outcome]}>{outcomeLabel(t, attempt.outcome)}</Badge>
        <Text as="span">
          {attempt.httpStatus === null
            ? t("events.attemptLog.noHttpStatus")
            : t("events.attemptLog.httpStatus", { status: attempt.httpStatus })}
        </Text>
        <Text as="span" tone="subdued">
          <EventTime value={attempt.startedAt} />
        </Text>
        <Text as="span" tone="subdued">
          <span suppressHydrationWarning>
            {t("events.attemptLog.took", { duration: formatDuration(attempt.durationMs, locale) })}
          </span>
        </Text>
      </InlineStack>
      <Text as="p" tone="subdued" variant="bodySm" breakWord>
        {t("events.attemptLog.worker", { worker: attempt.workerId })}
      </Text>
      {attempt.detail ? (
        <Text as="p" breakWord>
          {attempt.detail}
        </Text>
      ) : null}
      {attempt.otherKey ? (
        <Text as="p" tone="subdued" variant="bodySm" breakWord>
          {t("events.attemptLog.otherKey", { key: attempt.otherKey })}
        </Text>
      ) : null}
    </BlockStack>
  );
}

/** A delivered event the service accepted without an event_id, with its answer as received. */
export function AcceptedWithoutEventIdBanner({ accepted }: { accepted: AcceptedWithoutEventId }) {
  const t = useTranslate();
  return (
    <Banner tone="info" title={t("events.accepted.title")}>
      <BlockStack gap="200">
        <Text as="p">
          {t("events.accepted.body", {
            status: accepted.httpStatus ?? t("events.accepted.unknownStatus"),
          })}
        </Text>
        {accepted.raw === null ? (
          <Text as="p" tone="subdued">
            {t("events.accepted.notKept")}
          </Text>
        ) : (
          <Box>
            <JsonBlock json={accepted.raw === "" ? t("events.accepted.emptyBody") : accepted.raw} />
          </Box>
        )}
      </BlockStack>
    </Banner>
  );
}
