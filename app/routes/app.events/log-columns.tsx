import { Badge, InlineStack } from "@shopify/polaris";
import type { ReactNode } from "react";
import { EventTime, OrderLink, StatusBadge } from "../../admin/components/event-log-ui";
import { useTranslate } from "../../i18n/react";
import type { MessageKey } from "../../i18n/translate";

/** A column of a log table: its heading, its cell in each row, and `end` for figures. */
export interface LogColumn<Row> {
  heading: MessageKey;
  alignment?: "end";
  cell: (row: Row) => ReactNode;
}

/** A table's columns; it has at least one. */
export type LogColumns<Row> = [LogColumn<Row>, ...LogColumn<Row>[]];

/** Marks an order whose app actions wait for the merchant (a skipped or dead action). */
function AttentionBadge() {
  const t = useTranslate();
  return <Badge tone="warning">{t("events.attention.badge")}</Badge>;
}

/** The order, linked to it in the Shopify admin, and flagged when it needs the merchant. */
export const ORDER_COLUMN: LogColumn<{
  orderId: string | null;
  orderName: string | null;
  needsAttention: boolean;
}> = {
  heading: "events.columns.order",
  cell: (row) => (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <OrderLink orderId={row.orderId} orderName={row.orderName} />
      {row.needsAttention ? <AttentionBadge /> : null}
    </InlineStack>
  ),
};

export const STATUS_COLUMN: LogColumn<{ status: string }> = {
  heading: "events.columns.status",
  cell: (row) => <StatusBadge status={row.status} />,
};

/** A column of times, in the admin's language and the browser's time zone. */
export function timeColumn<Row>(
  heading: MessageKey,
  timeOf: (row: Row) => string | null,
): LogColumn<Row> {
  return { heading, cell: (row) => <EventTime value={timeOf(row)} /> };
}
