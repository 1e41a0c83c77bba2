import { useEffect, useState } from "preact/hooks";
import { askUntilSettled, fetchLinkAnswer } from "../../shared/ask-app";
import { lowestPlanPrice, type LinkAnswer } from "../../shared/link-state";
import { appOrigin } from "./app-origin";
import type { BuyerHost } from "./host";

export type BuyerRoute = "/api/checkout/protection-link" | "/api/customer-account/protection-link";

interface Props {
  host: BuyerHost;
  route: BuyerRoute;
  /** The order's GID as the page gives it; undefined while the page does not know it yet. */
  orderId: string | undefined;
}

/**
 * The self-service protection offer for one order: rendered only when the app answers
 * `ready`; nothing at all while it asks, on `none`, on any error, or when the order's
 * placement does not reach the service in time. A checkout never shows a broken block.
 */
export function ProtectionOffer({ host, route, orderId }: Props) {
  const [answer, setAnswer] = useState<LinkAnswer | null>(null);

  useEffect(() => {
    if (!orderId) return;
    const controller = new AbortController();
    const url = new URL(route, appOrigin());
    url.searchParams.set("order_id", orderId);
    const ask = async (signal: AbortSignal): Promise<LinkAnswer> => {
      let token: string;
      try {
        token = await host.sessionToken.get();
      } catch (error) {
        return { status: "error", reason: `no session token: ${String(error)}` };
      }
      return fetchLinkAnswer(url.href, token, signal);
    };
    void askUntilSettled(ask, controller.signal).then((settled) => {
      if (!controller.signal.aborted) setAnswer(settled);
    });
    return () => controller.abort();
  }, [host, route, orderId]);

  if (answer?.status !== "ready") return null;
  const { translate, formatCurrency } = host.i18n;
  const price = lowestPlanPrice(answer.availablePlans);
  return (
    <s-banner heading={translate("offer.heading")} tone="info">
      <s-stack gap="base">
        <s-text>
          {price
            ? translate("offer.bodyFrom", {
                price: formatCurrency(price.amount, { currency: price.currency }),
              })
            : translate("offer.body")}
        </s-text>
        <s-link href={answer.link} target="_blank">
          {translate("offer.link")}
        </s-link>
      </s-stack>
    </s-banner>
  );
}
