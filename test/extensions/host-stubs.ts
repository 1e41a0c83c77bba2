import type { OrderAdminHost } from "../../extensions/svc-order-admin/src/host";
import type { OrderStatusHost, ThankYouHost } from "../../extensions/svc-post-purchase/src/host";
import { createI18n } from "../../store/storefront/extensions/host/i18n";
import { HostSignal, installShopifyGlobal } from "../../store/storefront/extensions/host/signals";

// The global `shopify` of each target, for an extension bundle run in a plain page. Typed by
// the extensions' own host types (Picks of Shopify's published target APIs), so a stub that
// drifts from them, or an extension that starts using more of the API, fails the typecheck.
// Bundled into the test page with the extension (harness.ts), never run in Node. The signals
// and i18n are the local store's extension host's (store/storefront/extensions/host/).

export interface StubConfig {
  /** The buyer's or staff member's language: "en" or "de". */
  locale: string;
  /** The extension's locale file for that language (locales/*.json). */
  translations: Record<string, unknown>;
  token: string;
  /** The order's GID as the page gives it. */
  orderId: string;
  /** Order status page only: the order is undefined until this many milliseconds after load. */
  orderArrivesAfterMs?: number;
}

/** Shopify's i18n over the test's locale file; prices in euros unless a call names another. */
const stubI18n = ({ locale, translations }: StubConfig) =>
  createI18n({ locale, translations, currency: "EUR" });

export function installThankYouHost(config: StubConfig): void {
  const host: ThankYouHost = {
    orderConfirmation: new HostSignal<ThankYouHost["orderConfirmation"]["value"]>({
      order: { id: config.orderId },
      number: "A1B2C3",
      isFirstOrder: true,
    }),
    sessionToken: { get: async () => config.token },
    i18n: stubI18n(config),
  };
  installShopifyGlobal(host);
}

export function installOrderStatusHost(config: StubConfig): void {
  const order = { id: config.orderId, name: "#1001" };
  const orderSignal = new HostSignal<OrderStatusHost["order"]["value"]>(
    config.orderArrivesAfterMs === undefined ? order : undefined,
  );
  // Shopify gives the Order status page its order once the order is processed.
  if (config.orderArrivesAfterMs !== undefined)
    setTimeout(() => orderSignal.set(order), config.orderArrivesAfterMs);
  const host: OrderStatusHost = {
    order: orderSignal,
    sessionToken: { get: async () => config.token },
    i18n: stubI18n(config),
  };
  installShopifyGlobal(host);
}

export function installOrderAdminHost(config: StubConfig): void {
  const host: OrderAdminHost = {
    data: { selected: [{ id: config.orderId }] },
    i18n: stubI18n(config),
  };
  installShopifyGlobal(host);
}
