import { render } from "preact";
import type { ThankYouHost } from "./host";
import { ProtectionOffer } from "./ProtectionOffer";
import { useSignalValue } from "./use-signal-value";

function ThankYouOffer({ host }: { host: ThankYouHost }) {
  // An OrderIdentity GID (gid://shopify/OrderIdentity/123): the route takes it as it is.
  const confirmation = useSignalValue(host.orderConfirmation);
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
