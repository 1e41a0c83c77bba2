import { IndexTable, Link, Text } from "@shopify/polaris";
import {
  environmentLabel,
  EventTime,
  eventTypeLabel,
  OrderLink,
  StatusBadge,
} from "../../admin/components/event-log-ui";
import { hasFilters } from "../../admin/event-filters";
import type { EventList } from "../../admin/events.server";
import { useTranslate } from "../../i18n/react";
import { EmptyLog, NoMatch } from "./EmptyLog";

export function EventsTable({ data, loading }: { data: EventList; loading: boolean }) {
  const t = useTranslate();
  if (data.events.length === 0 && !hasFilters(data.query) && !data.query.cursor) {
    return <EmptyLog view="events" />;
  }
  return (
    <IndexTable
      resourceName={{ singular: t("events.resource.event"), plural: t("events.resource.events") }}
      itemCount={data.events.length}
      selectable={false}
      loading={loading}
      emptyState={<NoMatch />}
      headings={[
        { title: t("events.columns.event") },
        { title: t("events.columns.type") },
        { title: t("events.columns.order") },
        { title: t("events.columns.status") },
        { title: t("events.columns.environment") },
        { title: t("events.columns.attempts"), alignment: "end" },
        { title: t("events.columns.created") },
        { title: t("events.columns.lastAttempt") },
      ]}
    >
      {data.events.map((event, index) => (
        <IndexTable.Row id={event.key} key={event.key} position={index}>
          <IndexTable.Cell>
            <Link dataPrimaryLink url={`/app/events/${event.id}`} removeUnderline>
              <Text as="span" fontWeight="semibold">
                {`#${event.id}`}
              </Text>
            </Link>
          </IndexTable.Cell>
          <IndexTable.Cell>{eventTypeLabel(t, event.eventType)}</IndexTable.Cell>
          <IndexTable.Cell>
            <OrderLink orderId={event.orderId} />
          </IndexTable.Cell>
          <IndexTable.Cell>
            <StatusBadge status={event.status} />
          </IndexTable.Cell>
          <IndexTable.Cell>{environmentLabel(t, event.environment)}</IndexTable.Cell>
          <IndexTable.Cell>
            <Text as="span" alignment="end" numeric>
              {event.attempts}
            </Text>
          </IndexTable.Cell>
          <IndexTable.Cell>
            <EventTime value={event.createdAt} />
          </IndexTable.Cell>
          <IndexTable.Cell>
            <EventTime value={event.lastAttemptAt} />
          </IndexTable.Cell>
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
