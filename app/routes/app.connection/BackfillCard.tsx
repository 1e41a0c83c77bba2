import { useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Form,
  InlineStack,
  ProgressBar,
  Text,
  TextField,
} from "@shopify/polaris";
import { useId, useState } from "react";
import { SectionCard } from "../../admin/components/SectionCard";
import type { ConnectionActionData } from "../../admin/connection-form";
import { formatCount } from "../../admin/dashboard";
import { backfillPercent, backfillUnderWay, dayOf, formatUtcDay } from "../../admin/reconciliation";
import type { BackfillOffer } from "../../admin/reconciliation.server";
import { useLocale, useTranslate } from "../../i18n/react";
import { useDateFormat, useSubmitting } from "./connection-ui";

type Offer = Extract<BackfillOffer, { applies: true }>;
type Backfill = NonNullable<Offer["backfill"]>;

const INTENT = "request_backfill";

/**
 * Reporting the orders from before the shop's reports start (issue 17): a date and a button,
 * then the backfill's progress, and its outcome once it ends. Only for a reconciled shop.
 */
export function BackfillCard({
  offer,
  actionData,
}: {
  offer: BackfillOffer;
  actionData: ConnectionActionData | undefined;
}) {
  const t = useTranslate();
  const locale = useLocale();
  const submit = useSubmit();
  const requesting = useSubmitting(INTENT);
  const [day, setDay] = useState(offer.applies ? offer.defaultDay : "");
  const titleId = useId();
  if (!offer.applies) return null;

  const request = (since: string) => submit({ intent: INTENT, since }, { method: "post" });
  const error =
    actionData && !actionData.ok && actionData.intent === INTENT ? actionData.errors.since : null;
  const earliest = offer.earliestDay && formatUtcDay(offer.earliestDay, locale);
  const underWay = backfillUnderWay(offer.backfill?.status ?? null);

  // A region named by its title, for assistive technology and the browser tests.
  return (
    <section aria-labelledby={titleId}>
      <SectionCard
        title={t("connection.backfill.title")}
        titleId={titleId}
        help={t("connection.backfill.reportFrom", {
          date: formatUtcDay(offer.reportFrom, locale),
        })}
      >
        <Text as="p">{t("connection.backfill.help")}</Text>
        {earliest ? (
          <Text as="p" tone="subdued">
            {t("connection.backfill.scopeNote", { days: offer.recentOrdersDays })}
          </Text>
        ) : null}
        {offer.backfill ? (
          <BackfillOutcome
            backfill={offer.backfill}
            retrying={requesting}
            onRetry={() =>
              request(offer.backfill?.since ? dayOf(new Date(offer.backfill.since)) : day)
            }
          />
        ) : null}
        {underWay ? null : (
          // The server checks the day and says why it refuses one, in the admin's language; the
          // browser's own check of min and max would stop the form with its own words.
          <Form noValidate onSubmit={() => request(day)}>
            <BlockStack gap="300">
              <TextField
                label={t("connection.backfill.since")}
                type="date"
                autoComplete="off"
                name="since"
                value={day}
                onChange={setDay}
                min={offer.earliestDay ?? undefined}
                max={offer.today}
                helpText={
                  earliest
                    ? t("connection.backfill.sinceHelp", { earliest })
                    : t("connection.backfill.sinceHelpAll")
                }
                error={
                  error
                    ? t(error, { date: earliest ?? "", days: offer.recentOrdersDays })
                    : undefined
                }
              />
              <InlineStack align="end">
                <Button submit loading={requesting}>
                  {t("connection.backfill.submit")}
                </Button>
              </InlineStack>
            </BlockStack>
          </Form>
        )}
      </SectionCard>
    </section>
  );
}

/** The last backfill: its progress while it runs, or how it ended. */
function BackfillOutcome({
  backfill,
  retrying,
  onRetry,
}: {
  backfill: Backfill;
  retrying: boolean;
  onRetry: () => void;
}) {
  const t = useTranslate();
  const locale = useLocale();
  const formatDate = useDateFormat();
  const progressId = useId();
  const date = backfill.since ? formatUtcDay(backfill.since, locale) : "—";
  const events = formatCount(backfill.eventsRecovered, locale);
  const done = formatCount(backfill.ordersDone, locale);

  if (backfill.status === "completed") {
    return (
      <Banner tone="success" title={t("connection.backfill.completedTitle")}>
        <p>
          {t("connection.backfill.completed", {
            date,
            orders: done,
            events,
            time: backfill.finishedAt ? formatDate(backfill.finishedAt) : "—",
          })}
        </p>
      </Banner>
    );
  }
  if (backfill.status === "failed") {
    return (
      <Banner
        tone="critical"
        title={t("connection.backfill.failedTitle")}
        action={{
          content: t("connection.backfill.tryAgain"),
          onAction: onRetry,
          loading: retrying,
        }}
      >
        <p>{t("connection.backfill.failed", { date, detail: backfill.detail ?? "" })}</p>
      </Banner>
    );
  }
  const percent = backfillPercent(backfill.ordersDone, backfill.ordersTotal);
  return (
    <Banner
      tone="info"
      title={t(
        backfill.status === "running" || backfill.status === "reading"
          ? "connection.backfill.runningTitle"
          : "connection.backfill.requestedTitle",
      )}
    >
      <BlockStack gap="200">
        <p>{t("connection.backfill.progressSince", { date })}</p>
        {backfill.ordersTotal === null ? (
          <p>{t("connection.backfill.progressUnknownTotal", { done, events })}</p>
        ) : (
          <p id={progressId}>
            {t("connection.backfill.progress", {
              done,
              total: formatCount(backfill.ordersTotal, locale),
              events,
            })}
          </p>
        )}
        {percent === null ? null : (
          <ProgressBar progress={percent} size="small" ariaLabelledBy={progressId} />
        )}
        {backfill.status === "reading" ? (
          <p>
            {t("connection.backfill.reading", {
              left: formatCount(backfill.ordersToRead, locale),
            })}
          </p>
        ) : null}
        <p>{t("connection.backfill.resumes")}</p>
      </BlockStack>
    </Banner>
  );
}
