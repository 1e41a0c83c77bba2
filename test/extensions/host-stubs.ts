// Shopify's component types name the `preact` namespace as a global; the root program (React
// JSX) loads Preact's types only through this import.
import type {} from "preact";
import type { OrderAdminHost } from "../../extensions/svc-order-admin/src/host";
import type { OrderStatusHost, ThankYouHost } from "../../extensions/svc-post-purchase/src/host";

// The global `shopify` of each target, for an extension bundle run in a plain page. Typed by
// the extensions' own host types (Picks of Shopify's published target APIs), so a stub that
// drifts from them, or an extension that starts using more of the API, fails the typecheck.
// Bundled into the test page with the extension (harness.ts), never run in Node.

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

interface SignalImplementation<T> {
  value: T;
  subscribe(listener: (value: T) => void): () => void;
}
type SignalClass = new <T>(value: T) => SignalImplementation<T>;

/** A plain observable value: the host's signals before the extension hands it a Signal class. */
class PlainSignal<T> implements SignalImplementation<T> {
  #value: T;
  #listeners = new Set<(value: T) => void>();
  constructor(value: T) {
    this.#value = value;
  }
  get value() {
    return this.#value;
  }
  set value(value: T) {
    this.#value = value;
    for (const listener of this.#listeners) listener(value);
  }
  subscribe(listener: (value: T) => void) {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }
}

/**
 * A host signal: `.value`, `subscribe`, and the deprecated `current` and `destroy`. As Shopify's
 * host does, it takes the `Signal` class `@shopify/ui-extensions/preact` passes to
 * `shopify.setSignals`, so an extension that reads `.value` in render re-renders on a change;
 * one without that import does not (the late order tests fail).
 */
class StubSignal<T> {
  #backing: SignalImplementation<T>;
  constructor(value: T) {
    this.#backing = new PlainSignal(value);
  }
  useSignalClass(Signal: SignalClass) {
    this.#backing = new Signal(this.#backing.value);
  }
  get value() {
    return this.#backing.value;
  }
  get current() {
    return this.#backing.value;
  }
  /** The host changes the value (the order arrives). */
  set(value: T) {
    this.#backing.value = value;
  }
  subscribe(listener: (value: T) => void) {
    return this.#backing.subscribe(listener);
  }
  async destroy() {}
}

function lookUp(translations: Record<string, unknown>, key: string): string {
  let node: unknown = translations;
  for (const part of key.split(".")) {
    node =
      typeof node === "object" && node !== null
        ? (node as Record<string, unknown>)[part]
        : undefined;
  }
  // A missing key throws: a test must not pass on a key the locale file lacks.
  if (typeof node !== "string") throw new Error(`No translation for ${key}`);
  return node;
}

type AnyI18n = ThankYouHost["i18n"] & OrderStatusHost["i18n"] & OrderAdminHost["i18n"];

/** Shopify's i18n over one locale file: `{{name}}` replacements, Intl formatting. */
function stubI18n({ locale, translations }: StubConfig): AnyI18n {
  function translate(key: string, options: Record<string, unknown> = {}): string {
    return lookUp(translations, key).replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => {
      if (!(name in options)) throw new Error(`${key} needs {{${name}}}`);
      return String(options[name]);
    });
  }
  return {
    translate: translate as AnyI18n["translate"],
    formatNumber: (number, options) => new Intl.NumberFormat(locale, options).format(number),
    formatCurrency: (number, options) =>
      new Intl.NumberFormat(locale, { style: "currency", currency: "EUR", ...options }).format(
        number,
      ),
    formatDate: (date, options) => new Intl.DateTimeFormat(locale, options).format(date),
  };
}

/**
 * Makes `host` the global `shopify`, with the `setSignals` Shopify's host offers to
 * `@shopify/ui-extensions/preact` (it is not part of the published types).
 */
const install = (host: object) => {
  const setSignals = (Signal: SignalClass) => {
    for (const value of Object.values(host))
      if (value instanceof StubSignal) value.useSignalClass(Signal);
  };
  (globalThis as { shopify?: unknown }).shopify = Object.assign(host, { setSignals });
};

export function installThankYouHost(config: StubConfig): void {
  const host: ThankYouHost = {
    orderConfirmation: new StubSignal<ThankYouHost["orderConfirmation"]["value"]>({
      order: { id: config.orderId },
      number: "A1B2C3",
      isFirstOrder: true,
    }),
    sessionToken: { get: async () => config.token },
    i18n: stubI18n(config),
  };
  install(host);
}

export function installOrderStatusHost(config: StubConfig): void {
  const order = { id: config.orderId, name: "#1001" };
  const orderSignal = new StubSignal<OrderStatusHost["order"]["value"]>(
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
  install(host);
}

export function installOrderAdminHost(config: StubConfig): void {
  const host: OrderAdminHost = {
    data: { selected: [{ id: config.orderId }] },
    i18n: stubI18n(config),
  };
  install(host);
}
