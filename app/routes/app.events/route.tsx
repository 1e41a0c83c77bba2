import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  useFetcher,
  useLoaderData,
  useNavigation,
  useOutlet,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { Modal, TitleBar } from "@shopify/app-bridge-react";
import { BlockStack, Box, Card, Page, Text } from "@shopify/polaris";
import { useState } from "react";
import { EventLogErrorBoundary, useRetryToast } from "../../admin/components/event-log-ui";
import {
  parseEventLogAction,
  retryDeadEventsOfShop,
  retryEventOfShop,
} from "../../admin/event-actions.server";
import { parseEventLogQuery } from "../../admin/event-filters";
import type { EventLogActionResult } from "../../admin/event-log";
import { loadEventLog } from "../../admin/events.server";
import prisma from "../../db.server";
import { getEnv } from "../../env.server";
import { useTranslate } from "../../i18n/react";
import { authenticate } from "../../shopify.server";
import { FilterBar } from "./FilterBar";
import { LogTable } from "./LogTable";
import { PageLinks } from "./PageLinks";
import { StatusCounts } from "./StatusCounts";
import { TabBar } from "./TabBar";

const LOG_PATH = "/app/events";

/** The list itself; `/app/events/:id` (a child route) renders in its place. */
function isLogPath(pathname: string) {
  return pathname.replace(/\/+$/, "") === LOG_PATH;
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const url = new URL(request.url);
  // On an event's page this route only frames it: the list is not read.
  if (!isLogPath(url.pathname)) return { view: "child" as const };
  const log = await loadEventLog(prisma, session.shop, parseEventLogQuery(url.searchParams));
  // How far back the log reaches: older settled rows are deleted (decision 049).
  return { ...log, retentionDays: getEnv().SVC_EVENT_RETENTION_DAYS };
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
      subtitle={`${t("events.subtitle")} ${t("events.retention", { days: data.retentionDays })}`}
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
          <LogTable data={data} loading={loading} />
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

export function ErrorBoundary() {
  return <EventLogErrorBoundary />;
}
