import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Divider,
  InlineStack,
  Text,
  type BadgeProps,
} from "@shopify/polaris";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Facts } from "../../admin/components/event-log-ui";
import { SectionCard } from "../../admin/components/SectionCard";
import { formatCount, formatDateTime } from "../../admin/dashboard";
import { RECONCILE_NOW, type ReconcileNowResult } from "../../admin/reconciliation";
import type { ReconciliationCard as CardData } from "../../admin/reconciliation.server";
import { useLocale, useTranslate } from "../../i18n/react";
import { isMessageKey, type Translate } from "../../i18n/translate";

type Reconciled = Extract<CardData, { applies: true }>;

/** A stored trigger or run status in the admin's language; an unknown one as stored. */
function labelOf(t: Translate, group: "triggers" | "runStatus", value: string): string {
  const key = `home.reconciliation.${group}.${value}`;
  return isMessageKey(key) ? t(key) : value;
}

const RUN_STATUS_TONE: Record<string, BadgeProps["tone"]> = {
  completed: "success",
  failed: "critical",
  running: "info",
};

/**
 * The home page's reconciliation card (issue 17): the last run and its figures, the next
 * scheduled one, and "Reconcile now". A shop whose orders are not reconciled is told when it
 * starts.
 */
export function ReconciliationCard({ card }: { card: CardData }) {
  const t = useTranslate();
  const titleId = useId();
  // A region named by its title, for assistive technology and the browser tests.
  return (
    <section aria-labelledby={titleId}>
      {card.applies ? (
        <ReconciledShopCard card={card} titleId={titleId} />
      ) : (
        <SectionCard title={t("home.reconciliation.heading")} titleId={titleId}>
          <Text as="p" tone="subdued">
            {t("home.reconciliation.notConnected")}
          </Text>
        </SectionCard>
      )}
    </section>
  );
}

function ReconciledShopCard({ card, titleId }: { card: Reconciled; titleId: string }) {
  const t = useTranslate();
  const locale = useLocale();
  const fetcher = useFetcher<ReconcileNowResult>();
  useReconcileNowToast(fetcher.state === "idle" ? fetcher.data : undefined);
  const asking = fetcher.state !== "idle";
  // Set at the click itself: a double click comes before the button re-renders as loading.
  const sent = useRef(false);
  useEffect(() => {
    if (fetcher.state === "idle") sent.current = false;
  }, [fetcher.state]);
  const run = card.lastRun;
  const nextRun =
    card.nextRun.kind === "at"
      ? formatDateTime(card.nextRun.at, locale)
      : t("home.reconciliation.nextRunDue");
  const badges = (
    <InlineStack gap="100">
      {card.webhooksMissing ? (
        <Badge tone="warning">{t("home.reconciliation.webhooksMissing")}</Badge>
      ) : null}
      {card.activity === "running" ? (
        <Badge tone="info" progress="partiallyComplete">
          {t("home.reconciliation.running")}
        </Badge>
      ) : null}
      {card.activity === "queued" ? (
        <Badge tone="attention" progress="incomplete">
          {t("home.reconciliation.queued")}
        </Badge>
      ) : null}
    </InlineStack>
  );
  const count = (value: number) => formatCount(value, locale);
  const runRows: [string, ReactNode][] = run
    ? [
        [t("home.reconciliation.when"), formatDateTime(run.finishedAt ?? run.startedAt, locale)],
        [t("home.reconciliation.trigger"), labelOf(t, "triggers", run.trigger)],
        [
          t("home.reconciliation.status"),
          <Badge key="status" tone={RUN_STATUS_TONE[run.status]}>
            {labelOf(t, "runStatus", run.status)}
          </Badge>,
        ],
        [t("home.reconciliation.ordersChecked"), count(run.ordersChecked)],
        [t("home.reconciliation.eventsRecovered"), count(run.eventsRecovered)],
        [t("home.reconciliation.pointsUsed"), count(run.pointsUsed)],
      ]
    : [];

  return (
    <SectionCard title={t("home.reconciliation.heading")} aside={badges} titleId={titleId}>
      {run ? (
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {t("home.reconciliation.lastRun")}
          </Text>
          <Facts rows={runRows} spread />
          {run.detail ? (
            <Text as="p" variant="bodySm" tone={run.status === "failed" ? "critical" : "subdued"}>
              {t("home.reconciliation.result", { detail: run.detail })}
            </Text>
          ) : null}
        </BlockStack>
      ) : (
        <Text as="p" tone="subdued">
          {t("home.reconciliation.intro")}
        </Text>
      )}
      {run ? <Divider /> : null}
      {card.nextRun.kind === "off" ? (
        <Text as="p" tone="subdued">
          {t("home.reconciliation.scheduleOff")}
        </Text>
      ) : (
        <BlockStack gap="100">
          <Text as="h3" variant="headingSm">
            {t("home.reconciliation.nextRun")}
          </Text>
          <Text as="p">{nextRun}</Text>
          <Text as="p" variant="bodySm" tone="subdued">
            {t("home.reconciliation.every", { minutes: card.intervalMinutes })}
          </Text>
        </BlockStack>
      )}
      {card.activity === "idle" ? null : (
        <Text as="p">
          {card.activity === "running"
            ? t("home.reconciliation.runningNote")
            : t("home.reconciliation.queuedNote")}
        </Text>
      )}
      <InlineStack>
        <Button
          loading={asking}
          disabled={card.activity !== "idle"}
          onClick={() => {
            // One request however often the button is pressed while it is on its way.
            if (sent.current) return;
            sent.current = true;
            fetcher.submit({ intent: RECONCILE_NOW }, { method: "post" });
          }}
        >
          {t("home.reconciliation.action")}
        </Button>
      </InlineStack>
    </SectionCard>
  );
}

/** What "Reconcile now" answered, as a Toast (App Bridge's, outside the app's iframe). */
function useReconcileNowToast(result: ReconcileNowResult | undefined) {
  const shopify = useAppBridge();
  const t = useTranslate();
  useEffect(() => {
    if (!result) return;
    shopify.toast.show(t(`home.reconciliation.done.${result.outcome}`), {
      isError: result.outcome === "not_reconciled",
    });
  }, [result, shopify, t]);
}

/**
 * Runs in a row kept recovering events: Shopify's webhooks are being lost. Nothing was, since
 * reconciliation recorded the events; where to look is the app's webhook deliveries.
 */
export function WebhooksMissingBanner({ runs }: { runs: number }) {
  const t = useTranslate();
  return (
    <Banner tone="warning" title={t("home.reconciliation.warning.title")}>
      <BlockStack gap="200">
        <p>{t("home.reconciliation.warning.body", { count: runs })}</p>
        <p>{t("home.reconciliation.warning.where")}</p>
      </BlockStack>
    </Banner>
  );
}
