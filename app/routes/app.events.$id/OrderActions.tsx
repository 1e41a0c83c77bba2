import {
  Badge,
  BlockStack,
  Button,
  Divider,
  InlineStack,
  Text,
  type BadgeProps,
} from "@shopify/polaris";
import { Fragment, useId } from "react";
import { SectionCard } from "../../admin/components/SectionCard";
import { formatDateTime } from "../../admin/dashboard";
import type { EventDetail } from "../../admin/event-detail.server";
import { useLocale, useTranslate } from "../../i18n/react";
import { isMessageKey, type Translate } from "../../i18n/translate";
import { formatMoney } from "../../lib/money";

type OrderAction = EventDetail["orderActions"][number];

const STATUS_TONE: Record<string, BadgeProps["tone"]> = {
  pending: "info",
  running: "info",
  done: "success",
  skipped: undefined,
  failed: "warning",
  dead: "critical",
};

/** A stored word (kind, status) by its key, or as stored when the page has no label for it. */
function labelOf(t: Translate, group: "kind" | "status", word: string): string {
  const key = `events.orderActions.${group}.${word}`;
  return isMessageKey(key) ? t(key) : word;
}

/** What came of the action, or what it waits for, in the admin's language. */
function actionText(t: Translate, locale: string, action: OrderAction): string | null {
  const number = action.attempts + 1;
  switch (action.status) {
    case "pending":
    case "failed":
      return t("events.orderActions.waiting", {
        number,
        time: formatDateTime(action.nextAttemptAt, locale),
      });
    case "running":
      return t("events.orderActions.running", { number });
    case "done":
      if (action.refundId === null) return action.reason;
      return action.amountMinorUnits === null || action.currency === null
        ? t("events.orderActions.refundedNoAmount", { refundId: action.refundId })
        : t("events.orderActions.refunded", {
            amount: formatMoney(action.amountMinorUnits, action.currency, locale),
            refundId: action.refundId,
          });
    case "skipped":
    case "dead":
      return action.reason ? t("events.orderActions.reason", { reason: action.reason }) : null;
    default:
      return action.reason;
  }
}

/**
 * The button the merchant runs an action with: a skipped one (its automation off, or flagged
 * for the merchant) runs now, a dead one is retried. Others have none.
 */
function runLabel(t: Translate, action: OrderAction): string | null {
  if (action.status === "dead") return t("events.orderActions.retry");
  if (action.status !== "skipped") return null;
  return action.kind === "check_cancelled_plans"
    ? t("events.orderActions.refundPlans")
    : t("events.orderActions.runNow");
}

interface RunControls {
  /** The action whose run is being requested, if any. */
  busyActionId: number | null;
  onRun(actionId: number): void;
}

function OrderActionRow({ action, busyActionId, onRun }: { action: OrderAction } & RunControls) {
  const t = useTranslate();
  const locale = useLocale();
  const text = actionText(t, locale, action);
  const run = runLabel(t, action);
  return (
    <BlockStack gap="100">
      <InlineStack gap="200" align="space-between" blockAlign="center">
        <Text as="span" fontWeight="semibold">
          {labelOf(t, "kind", action.kind)}
        </Text>
        <Badge tone={STATUS_TONE[action.status]}>{labelOf(t, "status", action.status)}</Badge>
      </InlineStack>
      {text ? (
        <Text as="p" breakWord>
          {text}
        </Text>
      ) : null}
      {action.status === "failed" && action.reason ? (
        <Text as="p" tone="subdued" variant="bodySm" breakWord>
          {t("events.orderActions.lastError", { error: action.reason })}
        </Text>
      ) : null}
      {action.requestedBy === "merchant" && action.requestedAt ? (
        <Text as="p" tone="subdued" variant="bodySm">
          {t("events.orderActions.requestedBy", {
            time: formatDateTime(action.requestedAt, locale),
          })}
        </Text>
      ) : null}
      {run ? (
        <InlineStack>
          <Button
            size="slim"
            loading={busyActionId === action.id}
            disabled={busyActionId !== null && busyActionId !== action.id}
            onClick={() => onRun(action.id)}
          >
            {run}
          </Button>
        </InlineStack>
      ) : null}
    </BlockStack>
  );
}

/**
 * What the app did in Shopify on the event's order (decisions 022 and 027), oldest first; shown
 * only when it did something. The worker retries a failed action on its own; a skipped or dead
 * one waits for the merchant's button.
 */
export function OrderActions({
  order,
  actions,
  ...controls
}: { order: string; actions: OrderAction[] } & RunControls) {
  const t = useTranslate();
  const titleId = useId();
  if (actions.length === 0) return null;
  return (
    <section aria-labelledby={titleId}>
      <SectionCard
        title={t("events.orderActions.title", { order })}
        help={t("events.orderActions.help")}
        titleId={titleId}
      >
        <BlockStack gap="200" as="ol">
          {actions.map((action, index) => (
            <Fragment key={action.id}>
              {index > 0 ? <Divider /> : null}
              <li style={{ listStyle: "none" }} data-testid="order-action">
                <OrderActionRow action={action} {...controls} />
              </li>
            </Fragment>
          ))}
        </BlockStack>
      </SectionCard>
    </section>
  );
}
