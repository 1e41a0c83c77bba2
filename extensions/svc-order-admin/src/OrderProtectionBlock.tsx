import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { lowestPlanPrice, type LinkAnswer } from "../../shared/link-state";
import type { OrderAdminHost } from "./host";
import {
  EVENT_STATUSES,
  EVENT_TYPES,
  parseOrderProtection,
  type OrderProtectionAnswer,
  type PlanEvent,
} from "./order-state";

// A status or type this version does not know is shown as the route sent it.
const KNOWN_STATUSES = new Set<string>(EVENT_STATUSES);
const KNOWN_TYPES = new Set<string>(EVENT_TYPES);

async function loadOrderProtection(
  orderId: string,
  signal: AbortSignal,
): Promise<OrderProtectionAnswer> {
  try {
    // Relative: the admin resolves it against the app's URL and adds the session token itself.
    const response = await fetch(
      `/api/admin/order-protection?order_id=${encodeURIComponent(orderId)}`,
      { signal },
    );
    return parseOrderProtection(response.status, await response.json());
  } catch (error) {
    return { status: "error", reason: String(error) };
  }
}

function GuidedCheckout({
  answer,
  host,
  onRefresh,
}: {
  answer: LinkAnswer;
  host: OrderAdminHost;
  onRefresh: () => void;
}) {
  const { translate, formatCurrency } = host.i18n;
  switch (answer.status) {
    case "ready": {
      const price = lowestPlanPrice(answer.availablePlans);
      return (
        <s-stack gap="small-200">
          <s-text>
            {price
              ? translate("guided.readyFrom", {
                  price: formatCurrency(price.amount, { currency: price.currency }),
                })
              : translate("guided.ready")}
          </s-text>
          <s-button variant="primary" href={answer.link} target="_blank">
            {translate("guided.open")}
          </s-button>
        </s-stack>
      );
    }
    case "not_yet":
      return (
        <s-stack gap="small-200">
          <s-text>{translate("guided.notYet")}</s-text>
          <s-button onClick={onRefresh}>{translate("guided.refresh")}</s-button>
        </s-stack>
      );
    case "none":
      return <s-text>{translate("guided.none")}</s-text>;
    case "error":
      return <s-text tone="critical">{translate("guided.error")}</s-text>;
  }
}

function EventLine({ event, host }: { event: PlanEvent; host: OrderAdminHost }) {
  const { translate, formatDate } = host.i18n;
  const status = KNOWN_STATUSES.has(event.status)
    ? translate(`status.${event.status}`)
    : event.status;
  const type = KNOWN_TYPES.has(event.type) ? translate(`eventType.${event.type}`) : event.type;
  const at = formatDate(new Date(event.deliveredAt ?? event.recordedAt), {
    dateStyle: "medium",
    timeStyle: "short",
  });
  return <s-list-item>{translate("events.line", { type, status, at })}</s-list-item>;
}

function OrderProtectionBlock({ host }: { host: OrderAdminHost }) {
  const orderId = host.data.selected[0]?.id;
  const [answer, setAnswer] = useState<OrderProtectionAnswer | null>(null);
  const [asked, setAsked] = useState(0);
  const { translate } = host.i18n;

  useEffect(() => {
    if (!orderId) return;
    const controller = new AbortController();
    void loadOrderProtection(orderId, controller.signal).then((loaded) => {
      if (!controller.signal.aborted) setAnswer(loaded);
    });
    return () => controller.abort();
  }, [orderId, asked]);

  const refresh = () => {
    setAnswer(null);
    setAsked((count) => count + 1);
  };

  let content;
  if (!orderId || answer?.status === "error") {
    content = <s-text tone="critical">{translate("error")}</s-text>;
  } else if (answer === null) {
    content = <s-spinner accessibilityLabel={translate("loading")} />;
  } else {
    const { protectedLines, events, guidedCheckout, order } = answer.protection;
    content = (
      <s-stack gap="base">
        {order.environment === "sandbox" && <s-badge tone="info">{translate("sandbox")}</s-badge>}
        <s-heading>{translate("lines.heading")}</s-heading>
        {protectedLines.length === 0 ? (
          <s-text color="subdued">{translate("lines.empty")}</s-text>
        ) : (
          <s-unordered-list>
            {protectedLines.map((line) => (
              <s-list-item key={line.planLineItemId}>
                {translate("lines.line", {
                  title: line.title,
                  quantity: line.quantity,
                  plan: line.planTitle,
                })}
              </s-list-item>
            ))}
          </s-unordered-list>
        )}
        <s-heading>{translate("events.heading")}</s-heading>
        {events.length === 0 ? (
          <s-text color="subdued">{translate("events.empty")}</s-text>
        ) : (
          <s-unordered-list>
            {events.map((event) => (
              <EventLine key={`${event.type}:${event.recordedAt}`} event={event} host={host} />
            ))}
          </s-unordered-list>
        )}
        <s-heading>{translate("guided.heading")}</s-heading>
        <GuidedCheckout answer={guidedCheckout} host={host} onRefresh={refresh} />
      </s-stack>
    );
  }
  return <s-admin-block heading={translate("heading")}>{content}</s-admin-block>;
}

export default async () => {
  const host: OrderAdminHost = shopify;
  render(<OrderProtectionBlock host={host} />, document.body);
};
