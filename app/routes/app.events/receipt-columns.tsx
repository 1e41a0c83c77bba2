import { Box, Link, Text } from "@shopify/polaris";
import { EventTime } from "../../admin/components/event-log-ui";
import type { ReceiptList } from "../../admin/events.server";
import { ORDER_COLUMN, STATUS_COLUMN, type LogColumns } from "./log-columns";

/** The webhooks table: each webhook received, linked to its page. */
export const RECEIPT_COLUMNS: LogColumns<ReceiptList["receipts"][number]> = [
  {
    heading: "events.columns.received",
    cell: (receipt) => (
      <Link dataPrimaryLink url={`/app/events/receipts/${receipt.id}`} removeUnderline>
        <EventTime value={receipt.receivedAt} />
      </Link>
    ),
  },
  {
    heading: "events.columns.topic",
    cell: (receipt) => (
      <Text as="span" fontWeight="medium">
        {receipt.topic}
      </Text>
    ),
  },
  ORDER_COLUMN,
  STATUS_COLUMN,
  {
    heading: "events.columns.detail",
    cell: (receipt) => (
      <Box maxWidth="480px">
        <Text as="span" tone="subdued" truncate>
          {receipt.detail ?? ""}
        </Text>
      </Box>
    ),
  },
];
