import { useSearchParams } from "@remix-run/react";
import { Box, InlineStack, Link, Text } from "@shopify/polaris";
import { statusLabel } from "../../admin/components/event-log-ui";
import { OUTBOX_STATUSES, RECEIPT_STATUSES, withFilters } from "../../admin/event-filters";
import type { EventLogList } from "../../admin/events.server";
import { useTranslate } from "../../i18n/react";

/** The store's counts by status (one GROUP BY); each links to the list of that status. */
export function StatusCounts({ data }: { data: EventLogList }) {
  const t = useTranslate();
  const [params] = useSearchParams();
  const statuses: readonly string[] = data.view === "events" ? OUTBOX_STATUSES : RECEIPT_STATUSES;
  const present = statuses.filter((status) => (data.counts[status] ?? 0) > 0);
  const number = new Intl.NumberFormat();
  return (
    <Box paddingInline="400" paddingBlockStart="300">
      <InlineStack gap="300" blockAlign="center">
        <Text as="span" tone="subdued">
          {t("events.counts.label", {
            kind: t(data.view === "events" ? "events.resource.events" : "events.resource.webhooks"),
          })}
        </Text>
        {present.length === 0 ? (
          <Text as="span">{t("events.counts.none")}</Text>
        ) : (
          present.map((status) => (
            <Link key={status} url={`?${withFilters(params, { status })}`} removeUnderline>
              {`${statusLabel(t, status)} ${number.format(data.counts[status] ?? 0)}`}
            </Link>
          ))
        )}
      </InlineStack>
    </Box>
  );
}
