import { InlineStack, Link, Text } from "@shopify/polaris";
import {
  environmentLabel,
  eventTypeLabel,
  RecoveryBadge,
} from "../../admin/components/event-log-ui";
import type { EventList } from "../../admin/events.server";
import type { Translate } from "../../i18n/translate";
import { ORDER_COLUMN, STATUS_COLUMN, timeColumn, type LogColumns } from "./log-columns";

/** The events table: each event sent or to send, linked to its page. */
export function eventColumns(t: Translate): LogColumns<EventList["events"][number]> {
  return [
    {
      heading: "events.columns.event",
      cell: (event) => (
        <Link dataPrimaryLink url={`/app/events/${event.id}`} removeUnderline>
          <Text as="span" fontWeight="semibold">
            {`#${event.id}`}
          </Text>
        </Link>
      ),
    },
    {
      heading: "events.columns.type",
      // An event the app read from Shopify because no webhook brought it says so beside its type.
      cell: (event) => (
        <InlineStack gap="200" blockAlign="center" wrap={false}>
          <Text as="span">{eventTypeLabel(t, event.eventType)}</Text>
          <RecoveryBadge recoveredBy={event.recoveredBy} />
        </InlineStack>
      ),
    },
    ORDER_COLUMN,
    STATUS_COLUMN,
    {
      heading: "events.columns.environment",
      cell: (event) => environmentLabel(t, event.environment),
    },
    {
      heading: "events.columns.attempts",
      alignment: "end",
      cell: (event) => (
        <Text as="span" alignment="end" numeric>
          {event.attempts}
        </Text>
      ),
    },
    timeColumn("events.columns.created", (event) => event.createdAt),
    timeColumn("events.columns.lastAttempt", (event) => event.lastAttemptAt),
  ];
}
