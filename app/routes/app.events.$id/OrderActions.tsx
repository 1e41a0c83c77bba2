import { Badge, BlockStack, Divider, InlineStack, Text, type BadgeProps } from "@shopify/polaris";
import { Fragment } from "react";
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
    default:
      return action.reason;
  }
}

function OrderActionRow({ action }: { action: OrderAction }) {
  const t = useTranslate();
  const locale = useLocale();
  const text = actionText(t, locale, action);
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
    </BlockStack>
  );
}

/**
 * What the app did in Shopify on the event's order (decision 022), oldest first; shown only when
 * it did something. No retry button yet: the worker retries a failed action, a dead one stays.
 */
export function OrderActions({ order, actions }: { order: string; actions: OrderAction[] }) {
  const t = useTranslate();
  if (actions.length === 0) return null;
  return (
    <SectionCard
      title={t("events.orderActions.title", { order })}
      help={t("events.orderActions.help")}
    >
      <BlockStack gap="200" as="ol">
        {actions.map((action, index) => (
          <Fragment key={action.id}>
            {index > 0 ? <Divider /> : null}
            <li style={{ listStyle: "none" }} data-testid="order-action">
              <OrderActionRow action={action} />
            </li>
          </Fragment>
        ))}
      </BlockStack>
    </SectionCard>
  );
}
