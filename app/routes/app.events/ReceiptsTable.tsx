import { Box, IndexTable, Link, Text } from "@shopify/polaris";
import { EventTime, OrderLink, StatusBadge } from "../../admin/components/event-log-ui";
import { hasFilters } from "../../admin/event-filters";
import type { ReceiptList } from "../../admin/events.server";
import { useTranslate } from "../../i18n/react";
import { EmptyLog, NoMatch } from "./EmptyLog";

export function ReceiptsTable({ data, loading }: { data: ReceiptList; loading: boolean }) {
  const t = useTranslate();
  if (data.receipts.length === 0 && !hasFilters(data.query) && !data.query.cursor) {
    return <EmptyLog view="webhooks" />;
  }
  return (
    <IndexTable
      resourceName={{
        singular: t("events.resource.webhook"),
        plural: t("events.resource.webhooks"),
      }}
      itemCount={data.receipts.length}
      selectable={false}
      loading={loading}
      emptyState={<NoMatch />}
      headings={[
        { title: t("events.columns.received") },
        { title: t("events.columns.topic") },
        { title: t("events.columns.order") },
        { title: t("events.columns.status") },
        { title: t("events.columns.detail") },
      ]}
    >
      {data.receipts.map((receipt, index) => (
        <IndexTable.Row id={receipt.key} key={receipt.key} position={index}>
          <IndexTable.Cell>
            <Link dataPrimaryLink url={`/app/events/receipts/${receipt.id}`} removeUnderline>
              <EventTime value={receipt.receivedAt} />
            </Link>
          </IndexTable.Cell>
          <IndexTable.Cell>
            <Text as="span" fontWeight="medium">
              {receipt.topic}
            </Text>
          </IndexTable.Cell>
          <IndexTable.Cell>
            <OrderLink orderId={receipt.orderId} />
          </IndexTable.Cell>
          <IndexTable.Cell>
            <StatusBadge status={receipt.status} />
          </IndexTable.Cell>
          <IndexTable.Cell>
            <Box maxWidth="480px">
              <Text as="span" tone="subdued" truncate>
                {receipt.detail ?? ""}
              </Text>
            </Box>
          </IndexTable.Cell>
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
