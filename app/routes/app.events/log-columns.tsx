import type { ReactNode } from "react";
import { EventTime, OrderLink, StatusBadge } from "../../admin/components/event-log-ui";
import type { MessageKey } from "../../i18n/translate";

/** A column of a log table: its heading, its cell in each row, and `end` for figures. */
export interface LogColumn<Row> {
  heading: MessageKey;
  alignment?: "end";
  cell: (row: Row) => ReactNode;
}

/** A table's columns; it has at least one. */
export type LogColumns<Row> = [LogColumn<Row>, ...LogColumn<Row>[]];

/** The order, linked to it in the Shopify admin. */
export const ORDER_COLUMN: LogColumn<{ orderId: string | null; orderName: string | null }> = {
  heading: "events.columns.order",
  cell: (row) => <OrderLink orderId={row.orderId} orderName={row.orderName} />,
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
