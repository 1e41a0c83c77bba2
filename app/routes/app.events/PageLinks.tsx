import { useSearchParams } from "@remix-run/react";
import { Box, InlineStack, Pagination } from "@shopify/polaris";
import { EventTime } from "../../admin/components/event-log-ui";
import { pageSearch } from "../../admin/event-filters";
import type { EventLogList } from "../../admin/events.server";
import { useTranslate } from "../../i18n/react";

/** Newer / Older as real links (`?after=` / `?before=`), so the back button pages back. */
export function PageLinks({ data }: { data: EventLogList }) {
  const t = useTranslate();
  const [params] = useSearchParams();
  const rows = data.view === "events" ? data.events : data.receipts;
  if (!data.olderCursor && !data.newerCursor) return null;
  const time = (row: (typeof rows)[number] | undefined) =>
    row ? ("createdAt" in row ? row.createdAt : row.receivedAt) : null;
  return (
    <Box padding="300" borderBlockStartWidth="025" borderColor="border">
      <InlineStack align="center">
        <Pagination
          type="table"
          hasPrevious={Boolean(data.newerCursor)}
          previousURL={
            data.newerCursor ? `?${pageSearch(params, "newer", data.newerCursor)}` : undefined
          }
          previousTooltip={t("events.pagination.newer")}
          hasNext={Boolean(data.olderCursor)}
          nextURL={
            data.olderCursor ? `?${pageSearch(params, "older", data.olderCursor)}` : undefined
          }
          nextTooltip={t("events.pagination.older")}
          accessibilityLabels={{
            previous: t("events.pagination.newer"),
            next: t("events.pagination.older"),
          }}
          label={
            rows.length > 0 ? (
              <span>
                <EventTime value={time(rows[0])} /> – <EventTime value={time(rows.at(-1))} />
              </span>
            ) : undefined
          }
        />
      </InlineStack>
    </Box>
  );
}
