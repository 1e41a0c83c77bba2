import { useNavigate, useSearchParams } from "@remix-run/react";
import { Tabs } from "@shopify/polaris";
import { EVENT_LOG_TABS, withFilters } from "../../admin/event-filters";
import type { EventLogList } from "../../admin/events.server";
import { useTranslate } from "../../i18n/react";

export function TabBar({ data }: { data: EventLogList }) {
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
