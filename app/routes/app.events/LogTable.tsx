import { IndexTable, type IndexTableProps } from "@shopify/polaris";
import { hasFilters, type EventLogQuery } from "../../admin/event-filters";
import type { EventLogList } from "../../admin/events.server";
import { useTranslate } from "../../i18n/react";
import { EmptyLog, NoMatch } from "./EmptyLog";
import { eventColumns } from "./event-columns";
import type { LogColumn, LogColumns } from "./log-columns";
import { RECEIPT_COLUMNS } from "./receipt-columns";

/**
 * The page's table of events or of webhooks. A log with nothing in it yet explains itself
 * instead; a filter that matches nothing says so.
 */
export function LogTable({ data, loading }: { data: EventLogList; loading: boolean }) {
  const t = useTranslate();
  const log = { view: data.view, query: data.query, loading };
  return data.view === "events" ? (
    <ColumnTable {...log} rows={data.events} columns={eventColumns(t)} />
  ) : (
    <ColumnTable {...log} rows={data.receipts} columns={RECEIPT_COLUMNS} />
  );
}

const RESOURCE_NAMES = {
  events: { singular: "events.resource.event", plural: "events.resource.events" },
  webhooks: { singular: "events.resource.webhook", plural: "events.resource.webhooks" },
} as const;

function ColumnTable<Row extends { key: string }>({
  view,
  query,
  loading,
  rows,
  columns,
}: {
  view: EventLogList["view"];
  query: EventLogQuery;
  loading: boolean;
  rows: Row[];
  columns: LogColumns<Row>;
}) {
  const t = useTranslate();
  if (rows.length === 0 && !hasFilters(query) && !query.cursor) return <EmptyLog view={view} />;
  const heading = ({ heading, alignment }: LogColumn<Row>): IndexTableProps["headings"][number] =>
    alignment ? { title: t(heading), alignment } : { title: t(heading) };
  const [first, ...rest] = columns;
  return (
    <IndexTable
      resourceName={{
        singular: t(RESOURCE_NAMES[view].singular),
        plural: t(RESOURCE_NAMES[view].plural),
      }}
      itemCount={rows.length}
      selectable={false}
      loading={loading}
      emptyState={<NoMatch />}
      headings={[heading(first), ...rest.map(heading)]}
    >
      {rows.map((row, index) => (
        <IndexTable.Row id={row.key} key={row.key} position={index}>
          {columns.map((column) => (
            <IndexTable.Cell key={column.heading}>{column.cell(row)}</IndexTable.Cell>
          ))}
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
