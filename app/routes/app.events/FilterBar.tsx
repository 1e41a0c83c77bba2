import { useSearchParams } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  ChoiceList,
  Filters,
  type AppliedFilterInterface,
  type FilterInterface,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { environmentLabel, eventTypeLabel, statusLabel } from "../../admin/components/event-log-ui";
import {
  ENVIRONMENTS,
  OUTBOX_STATUSES,
  OUTBOX_MESSAGE_TYPES,
  PARAM,
  RECEIPT_STATUSES,
  RECOVERY_SOURCES,
  WEBHOOK_TOPICS,
  withFilters,
  type EventLogQuery,
} from "../../admin/event-filters";
import type { EventLogList } from "../../admin/events.server";
import { useTranslate } from "../../i18n/react";
import type { Translate } from "../../i18n/translate";

export function FilterBar({ data, loading }: { data: EventLogList; loading: boolean }) {
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

  const set = (name: FilterKey, value: string | undefined) =>
    setParams(withFilters(params, { [name]: value }));

  const choice = (
    name: ChoiceKey,
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

  // Orders with an action waiting for the merchant: both tabs, as the order search.
  const attention: FilterInterface = {
    key: "attention",
    label: t("events.attention.filter"),
    shortcut: true,
    filter: (
      <ChoiceList
        title={t("events.attention.filter")}
        titleHidden
        allowMultiple
        choices={[{ label: t("events.attention.filterChoice"), value: "1" }]}
        selected={query.attention ? ["1"] : []}
        onChange={(selected) => set("attention", selected.includes("1") ? "1" : undefined)}
      />
    ),
  };

  const filters: FilterInterface[] =
    query.tab === "events"
      ? [
          choice("status", t("events.filters.status"), OUTBOX_STATUSES, (v) => statusLabel(t, v)),
          choice("type", t("events.filters.type"), OUTBOX_MESSAGE_TYPES, (v) =>
            eventTypeLabel(t, v),
          ),
          choice("environment", t("events.filters.environment"), ENVIRONMENTS, (v) =>
            environmentLabel(t, v),
          ),
          choice("recovered", t("events.recovery.filter"), RECOVERY_SOURCES, (v) =>
            recoveryChoiceLabel(t, v),
          ),
          attention,
        ]
      : [
          choice("status", t("events.filters.status"), RECEIPT_STATUSES, (v) => statusLabel(t, v)),
          choice("type", t("events.filters.topic"), WEBHOOK_TOPICS, (v) => v),
          attention,
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
              recovered: undefined,
              order: undefined,
              attention: undefined,
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

/** A filter of the bar, named as `withFilters` names it. */
type FilterKey = ChoiceKey | "attention";
type ChoiceKey = "status" | "type" | "environment" | "recovered";

function recoveryChoiceLabel(t: Translate, source: string) {
  return source === "backfill"
    ? t("events.recovery.backfillChoice")
    : t("events.recovery.reconciliationChoice");
}

function appliedFilters(t: Translate, query: EventLogQuery) {
  const applied: { key: FilterKey; label: string }[] = [];
  const add = (key: ChoiceKey, name: string, value: string) =>
    applied.push({ key, label: t("events.filters.applied", { name, value }) });
  if (query.status) add("status", t("events.filters.status"), statusLabel(t, query.status));
  if (query.tab === "events") {
    if (query.eventType) {
      add("type", t("events.filters.type"), eventTypeLabel(t, query.eventType));
    }
    if (query.environment) {
      add("environment", t("events.filters.environment"), environmentLabel(t, query.environment));
    }
    if (query.recoveredBy) {
      add("recovered", t("events.recovery.filter"), recoveryChoiceLabel(t, query.recoveredBy));
    }
  } else if (query.topic) {
    add("type", t("events.filters.topic"), query.topic);
  }
  if (query.attention) applied.push({ key: "attention", label: t("events.attention.filter") });
  return applied;
}
