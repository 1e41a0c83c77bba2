import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { BlockStack, Layout, Page } from "@shopify/polaris";
import { BannerSections } from "../../admin/components/Banners";
import { JsonCard } from "../../admin/components/detail-cards";
import {
  EventLogErrorBoundary,
  eventTypeLabel,
  useBackToLog,
  useRetryToast,
} from "../../admin/components/event-log-ui";
import {
  parseEventLogAction,
  requestActionRunOfShop,
  retryEventOfShop,
} from "../../admin/event-actions.server";
import { loadEventDetail } from "../../admin/event-detail.server";
import { parseEventId } from "../../admin/event-filters";
import { orderLabel, type EventLogActionResult } from "../../admin/event-log";
import prisma from "../../db.server";
import { useTranslate } from "../../i18n/react";
import { authenticate } from "../../shopify.server";
import { AcceptedWithoutEventIdBanner, EventAttempts } from "./EventAttempts";
import {
  EventSummaryCard,
  OrderTimeline,
  RecoveredBanner,
  EventTitleBadges,
  ValidationErrorsBanner,
} from "./EventDetailCards";
import { OrderActions } from "./OrderActions";

const RETRYABLE = ["dead", "failed", "unprocessable"];

function notFound(): never {
  throw new Response("Event not found", { status: 404 });
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const id = parseEventId(params.id) ?? notFound();
  // Scoped by shop: another shop's ID is not found, exactly like an ID that does not exist.
  return (await loadEventDetail(prisma, session.shop, id)) ?? notFound();
};

export const action = async ({
  request,
  params,
}: ActionFunctionArgs): Promise<EventLogActionResult> => {
  const { session } = await authenticate.admin(request);
  const id = parseEventId(params.id) ?? notFound();
  const posted = parseEventLogAction(await request.formData());
  // The app's actions on the order: scoped by shop, another shop's action is a 404.
  if (posted.intent === "run_action") return requestActionRunOfShop(session.shop, posted.actionId);
  if (posted.intent !== "retry" || posted.id !== id) {
    throw new Response("This page only retries its own event", { status: 400 });
  }
  return retryEventOfShop(session.shop, id);
};

export default function EventDetail() {
  const {
    event,
    payload,
    response,
    answer,
    accepted,
    attemptLog,
    orderEvents,
    orderReceipts,
    orderActions,
  } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const back = useBackToLog();
  const fetcher = useFetcher<typeof action>();
  useRetryToast(fetcher.state === "idle" ? fetcher.data : undefined);

  return (
    <Page
      title={t("events.detail.title", { type: eventTypeLabel(t, event.eventType), id: event.id })}
      titleMetadata={<EventTitleBadges event={event} />}
      backAction={{ content: t("events.detail.back"), onAction: back }}
      primaryAction={
        RETRYABLE.includes(event.status)
          ? {
              content: t("events.retry.action"),
              loading: fetcher.state !== "idle",
              onAction: () =>
                fetcher.submit({ intent: "retry", id: String(event.id) }, { method: "post" }),
            }
          : undefined
      }
    >
      <Layout>
        <BannerSections>
          {event.recoveredBy ? (
            <RecoveredBanner key="recovered" recoveredBy={event.recoveredBy} />
          ) : null}
          {answer && answer.validationErrors.length > 0 ? (
            <ValidationErrorsBanner answer={answer} />
          ) : null}
          {accepted ? <AcceptedWithoutEventIdBanner accepted={accepted} /> : null}
        </BannerSections>
        <Layout.Section>
          <BlockStack gap="400">
            <EventAttempts log={attemptLog} />
            <JsonCard
              title={t("events.detail.payload")}
              help={t("events.detail.payloadHelp")}
              json={payload}
            />
            <JsonCard
              title={t("events.detail.answer")}
              json={response || null}
              empty={t("events.detail.noAnswer")}
            />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <EventSummaryCard event={event} accepted={accepted !== null} />
            <OrderTimeline
              order={orderLabel(event)}
              currentId={event.id}
              orderEvents={orderEvents}
              orderReceipts={orderReceipts}
            />
            <OrderActions
              order={orderLabel(event)}
              actions={orderActions}
              busyActionId={
                fetcher.state !== "idle" && fetcher.formData?.get("intent") === "run_action"
                  ? Number(fetcher.formData.get("actionId"))
                  : null
              }
              onRun={(actionId) =>
                fetcher.submit(
                  { intent: "run_action", actionId: String(actionId) },
                  { method: "post" },
                )
              }
            />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  return <EventLogErrorBoundary />;
}
