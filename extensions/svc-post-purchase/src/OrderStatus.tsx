// Makes the host's signals Preact signals: reading one in render subscribes to it.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import type { OrderStatusHost } from "./host";
import { ProtectionOffer } from "./ProtectionOffer";

function OrderStatusOffer({ host }: { host: OrderStatusHost }) {
  // Undefined until Shopify has processed the order; the signal then gives its Order GID.
  const order = host.order.value;
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
