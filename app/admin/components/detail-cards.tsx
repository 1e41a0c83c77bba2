import { Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import type { Translate } from "../../i18n/translate";
import { orderLabel } from "../event-log";
import { Facts, JsonBlock, OrderLink } from "./event-log-ui";
import { SectionCard } from "./SectionCard";

// Cards the event's page and the webhook's page share.

/** The label and value rows that sum up the event or webhook. */
export function SummaryCard({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <SectionCard title={title}>
      <Facts rows={rows} />
    </SectionCard>
  );
}

/** A JSON body as it was sent or received; `empty` says why there is none. */
export function JsonCard({
  title,
  help,
  json,
  empty,
}: {
  title: string;
  help?: string;
  json: string | null;
  empty?: string;
}) {
  return (
    <SectionCard title={title} help={help}>
      {json !== null ? (
        <JsonBlock json={json} />
      ) : (
        <Text as="p" tone="subdued">
          {empty}
        </Text>
      )}
    </SectionCard>
  );
}

/** The summary's order row: the order in the Shopify admin, or "none". */
export function orderFact(
  t: Translate,
  { orderId, orderName }: { orderId: string | null; orderName: string | null },
): [string, ReactNode] {
  const order = orderId ? (
    <OrderLink
      key="order"
      orderId={orderId}
      orderName={orderName}
      label={t("events.detail.openOrder", { id: orderLabel({ orderId, orderName }) })}
    />
  ) : (
    t("events.detail.none")
  );
  return [t("events.detail.order"), order];
}
