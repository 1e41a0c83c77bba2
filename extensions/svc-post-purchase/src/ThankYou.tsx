// Makes the host's signals Preact signals: reading one in render subscribes to it.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import type { ThankYouHost } from "./host";
import { ProtectionOffer } from "./ProtectionOffer";

function ThankYouOffer({ host }: { host: ThankYouHost }) {
  // An OrderIdentity GID (gid://shopify/OrderIdentity/123): the route takes it as it is.
  const confirmation = host.orderConfirmation.value;
  return (
    <ProtectionOffer
      host={host}
      route="/api/checkout/protection-link"
      orderId={confirmation?.order.id}
    />
  );
}

export default async () => {
  const host: ThankYouHost = shopify;
  render(<ThankYouOffer host={host} />, document.body);
};
