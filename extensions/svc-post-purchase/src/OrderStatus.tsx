import { render } from "preact";
import type { OrderStatusHost } from "./host";
import { ProtectionOffer } from "./ProtectionOffer";
import { useSignalValue } from "./use-signal-value";

function OrderStatusOffer({ host }: { host: OrderStatusHost }) {
  // Undefined until Shopify has processed the order; the signal then gives its Order GID.
  const order = useSignalValue(host.order);
  return (
    <ProtectionOffer
      host={host}
      route="/api/customer-account/protection-link"
      orderId={order?.id}
    />
  );
}

export default async () => {
  const host: OrderStatusHost = shopify;
  render(<OrderStatusOffer host={host} />, document.body);
};
