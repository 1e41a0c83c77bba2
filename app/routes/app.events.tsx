import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  useFetcher,
  useLoaderData,
  useNavigate,
  useNavigation,
  useOutlet,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { Modal, TitleBar } from "@shopify/app-bridge-react";
import {
  Banner,
  BlockStack,
  Box,
  Card,
  ChoiceList,
  EmptySearchResult,
  EmptyState,
  Filters,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Pagination,
  Tabs,
  Text,
  type AppliedFilterInterface,
  type FilterInterface,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import {
  parseEventLogAction,
  retryDeadEventsOfShop,
  retryEventOfShop,
} from "../admin/event-actions.server";
import {
  ENVIRONMENTS,
  EVENT_LOG_PAGE_SIZE,
  EVENT_LOG_TABS,
  encodeReceiptCursor,
  hasFilters,
  OUTBOX_STATUSES,
  ORDER_EVENT_TYPES,
  pageSearch,
  PARAM,
  parseEventLogQuery,
  RECEIPT_STATUSES,
  WEBHOOK_TOPICS,
  withFilters,
  type EventLogQuery,
} from "../admin/event-filters";
import type { EventLogActionResult } from "../admin/event-log";
import {
  environmentLabel,
  EventLogErrorBoundary,
  EventTime,
  eventTypeLabel,
  OrderLink,
  StatusBadge,
  statusLabel,
  useRetryToast,
} from "../admin/event-log-ui";
import prisma from "../db.server";
import { useTranslate } from "../i18n/react";
import type { Translate } from "../i18n/translate";
import { countOutboxEventsByStatus, listOutboxEventPage } from "../models/OutboxEvent.server";
import {
  countWebhookReceiptsByStatus,
  listWebhookReceiptPage,
} from "../models/WebhookReceipt.server";
import { authenticate } from "../shopify.server";

const LOG_PATH = "/app/events";

/** The list itself; `/app/events/:id` (a child route) renders in its place. */
function isLogPath(pathname: string) {
  return pathname.replace(/\/+$/, "") === LOG_PATH;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const url = new URL(request.url);
  // On an event's page this route only frames it: the list is not read.
  if (!isLogPath(url.pathname)) return { view: "child" as const };
  const shop = session.shop;
  const query = parseEventLogQuery(url.searchParams);
  const pageSize = EVENT_LOG_PAGE_SIZE;

  if (query.tab === "events") {
    const { status, eventType, orderId, environment, cursor } = query;
    const [page, counts] = await Promise.all([
      listOutboxEventPage(prisma, {
        shop,
        status,
        eventType,
        orderId,
        environment,
        cursor,
        pageSize,
      }),
      countOutboxEventsByStatus(prisma, shop),
    ]);
    const rows = page.events.map((event) => ({
      ...event,
      key: String(event.id),
      nextAttemptAt: iso(event.nextAttemptAt),
      lastAttemptAt: iso(event.lastAttemptAt),
      createdAt: event.createdAt.toISOString(),
      deliveredAt: iso(event.deliveredAt),
    }));
    return {
      view: "events" as const,
      query,
      counts: counts as Record<string, number>,
      events: rows,
      olderCursor: page.hasOlder ? rows.at(-1)?.key : undefined,
      newerCursor: page.hasNewer ? rows[0]?.key : undefined,
    };
  }

  const { status, topic, orderId, cursor } = query;
  const [page, counts] = await Promise.all([
    listWebhookReceiptPage(prisma, {
      shop,
      status,
      topic,
      orderId,
      pageSize,
      cursor: cursor && { ...cursor, receivedAt: new Date(cursor.receivedAtMs) },
    }),
    countWebhookReceiptsByStatus(prisma, shop),
  ]);
  const rows = page.receipts.map((receipt) => ({
    ...receipt,
    key: encodeReceiptCursor(receipt),
    receivedAt: receipt.receivedAt.toISOString(),
  }));
  return {
    view: "webhooks" as const,
    query,
    counts: counts as Record<string, number>,
    receipts: rows,
    olderCursor: page.hasOlder ? rows.at(-1)?.key : undefined,
    newerCursor: page.hasNewer ? rows[0]?.key : undefined,
  };
};

export const action = async ({ request }: ActionFunctionArgs): Promise<EventLogActionResult> => {
  const { session } = await authenticate.admin(request);
  const intent = parseEventLogAction(await request.formData());
  return intent.intent === "retry"
    ? retryEventOfShop(session.shop, intent.id)
    : retryDeadEventsOfShop(session.shop);
};

// Coming back from an event's page, where this route's loader skipped the list, reads it again.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => defaultShouldRevalidate || (isLogPath(nextUrl.pathname) && !isLogPath(currentUrl.pathname));

export default function EventLogRoute() {
  const outlet = useOutlet();
  return outlet ?? <EventLog />;
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type ListData = Exclude<LoaderData, { view: "child" }>;

function EventLog() {
  const data = useLoaderData<typeof loader>();
  const t = useTranslate();
  const navigation = useNavigation();
  const fetcher = useFetcher<typeof action>();
  const [confirmOpen, setConfirmOpen] = useState(false);
  useRetryToast(fetcher.state === "idle" ? fetcher.data : undefined);
  if (data.view === "child") return null;

  const deadCount = data.view === "events" ? (data.counts.dead ?? 0) : 0;
  const loading = navigation.state === "loading" && isLogPath(navigation.location.pathname);
  const retryDead = () => {
    setConfirmOpen(false);
    fetcher.submit({ intent: "retry_dead" }, { method: "post" });
  };

  return (
    <Page
      title={t("events.title")}
      subtitle={t("events.subtitle")}
      fullWidth
      primaryAction={
        deadCount > 0
          ? {
              content: t("events.retryDead.action", { count: deadCount }),
              loading: fetcher.state !== "idle",
              onAction: () => setConfirmOpen(true),
            }
          : undefined
      }
    >
      <BlockStack gap="400">
        <Card padding="0">
          <TabBar data={data} />
          <StatusCounts data={data} />
          <FilterBar data={data} loading={loading} />
          {data.view === "events" ? (
            <EventsTable data={data} loading={loading} />
          ) : (
            <ReceiptsTable data={data} loading={loading} />
          )}
          <PageLinks data={data} />
        </Card>
      </BlockStack>
      <Modal id="svc-retry-dead" open={confirmOpen} onHide={() => setConfirmOpen(false)}>
        <Box padding="400">
          <Text as="p">{t("events.retryDead.body", { count: deadCount })}</Text>
        </Box>
        <TitleBar title={t("events.retryDead.title")}>
          <button variant="primary" onClick={retryDead}>
            {t("events.retryDead.confirm", { count: deadCount })}
          </button>
          <button onClick={() => setConfirmOpen(false)}>{t("events.retryDead.cancel")}</button>
        </TitleBar>
      </Modal>
    </Page>
  );
}

function TabBar({ data }: { data: ListData }) {
  const t = useTranslate();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return (
    <Tabs
      tabs={EVENT_LOG_TABS.map((tab) => ({
        id: `svc-events-tab-${tab}`,
        content: t(`events.tabs.${tab}`),
        accessibilityLabel: t(`events.tabs.${tab}`),
        panelID: `svc-events-panel-${tab}`,
      }))}
      selected={EVENT_LOG_TABS.indexOf(data.view)}
      onSelect={(index) => navigate(`?${withFilters(params, { tab: EVENT_LOG_TABS[index] })}`)}
    />
  );
}

/** The store's counts by status (one GROUP BY); each links to the list of that status. */
function StatusCounts({ data }: { data: ListData }) {
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

function FilterBar({ data, loading }: { data: ListData; loading: boolean }) {
  const t = useTranslate();
  const [params, setParams] = useSearchParams();
  const query = data.query;
  const urlOrder = params.get(PARAM.order) ?? "";
  const [orderText, setOrderText] = useState(urlOrder);

  // The back button changes the URL: the field follows it.
  useEffect(() => setOrderText(urlOrder), [urlOrder]);
  // Typing filters after a pause, replacing the history entry rather than adding one per key.
  useEffect(() => {
    if (orderText.trim() === urlOrder) return;
    const timer = setTimeout(
      () => setParams(withFilters(params, { order: orderText.trim() }), { replace: true }),
      400,
    );
    return () => clearTimeout(timer);
  }, [orderText, urlOrder, params, setParams]);

  const set = (name: "status" | "type" | "environment", value: string | undefined) =>
    setParams(withFilters(params, { [name]: value }));

  const choice = (
    name: "status" | "type" | "environment",
    label: string,
    values: readonly string[],
    labelOf: (value: string) => string,
  ): FilterInterface => ({
    key: name,
    label,
    shortcut: true,
    filter: (
      <ChoiceList
        title={label}
        titleHidden
        choices={values.map((value) => ({ label: labelOf(value), value }))}
        selected={params.get(PARAM[name]) ? [params.get(PARAM[name])!] : []}
        onChange={(selected) => set(name, selected[0])}
      />
    ),
  });

  const filters: FilterInterface[] =
    query.tab === "events"
      ? [
          choice("status", t("events.filters.status"), OUTBOX_STATUSES, (v) => statusLabel(t, v)),
          choice("type", t("events.filters.type"), ORDER_EVENT_TYPES, (v) => eventTypeLabel(t, v)),
          choice("environment", t("events.filters.environment"), ENVIRONMENTS, (v) =>
            environmentLabel(t, v),
          ),
        ]
      : [
          choice("status", t("events.filters.status"), RECEIPT_STATUSES, (v) => statusLabel(t, v)),
          choice("type", t("events.filters.topic"), WEBHOOK_TOPICS, (v) => v),
        ];

  const applied: AppliedFilterInterface[] = appliedFilters(t, query).map((filter) => ({
    ...filter,
    onRemove: () => set(filter.key, undefined),
  }));

  return (
    <BlockStack>
      <Filters
        queryValue={orderText}
        queryPlaceholder={t("events.filters.orderPlaceholder")}
        filters={filters}
        appliedFilters={applied}
        onQueryChange={setOrderText}
        onQueryClear={() => setOrderText("")}
        onClearAll={() =>
          setParams(
            withFilters(params, {
              status: undefined,
              type: undefined,
              environment: undefined,
              order: undefined,
            }),
          )
        }
        loading={loading}
      />
      {query.invalid.length > 0 ? (
        <Box paddingInline="400" paddingBlockEnd="300">
          <Banner tone="warning">
            {query.invalid.includes(PARAM.order)
              ? t("events.filters.orderInvalid")
              : t("events.filters.invalidLink", { names: query.invalid.join(", ") })}
          </Banner>
        </Box>
      ) : null}
    </BlockStack>
  );
}

function appliedFilters(t: Translate, query: EventLogQuery) {
  const applied: { key: "status" | "type" | "environment"; label: string }[] = [];
  const add = (key: "status" | "type" | "environment", name: string, value: string) =>
    applied.push({ key, label: t("events.filters.applied", { name, value }) });
  if (query.status) add("status", t("events.filters.status"), statusLabel(t, query.status));
  if (query.tab === "events") {
    if (query.eventType) {
      add("type", t("events.filters.type"), eventTypeLabel(t, query.eventType));
    }
    if (query.environment) {
      add("environment", t("events.filters.environment"), environmentLabel(t, query.environment));
    }
  } else if (query.topic) {
    add("type", t("events.filters.topic"), query.topic);
  }
  return applied;
}

function EmptyLog({ view }: { view: "events" | "webhooks" }) {
  const t = useTranslate();
  return (
    <EmptyState
      heading={t(`events.empty.${view}Heading`)}
      image="https://cdn.shopify.com/s/files/1/0262/4071/2726/files/emptystate-files.png"
    >
      <p>{t(`events.empty.${view}Body`)}</p>
    </EmptyState>
  );
}

function NoMatch() {
  const t = useTranslate();
  return (
    <EmptySearchResult
      title={t("events.empty.noMatchHeading")}
      description={t("events.empty.noMatchBody")}
      withIllustration
    />
  );
}

function EventsTable({
  data,
  loading,
}: {
  data: Extract<ListData, { view: "events" }>;
  loading: boolean;
}) {
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

function ReceiptsTable({
  data,
  loading,
}: {
  data: Extract<ListData, { view: "webhooks" }>;
  loading: boolean;
}) {
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

/** Newer / Older as real links (`?after=` / `?before=`), so the back button pages back. */
function PageLinks({ data }: { data: ListData }) {
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

export function ErrorBoundary() {
  return <EventLogErrorBoundary />;
}
