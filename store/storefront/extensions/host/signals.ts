/*
 * The host's signals and the global `shopify`, as Shopify's UI extension host provides them.
 * Browser code: bundled into the local store's extension host (store/storefront/extensions/) and
 * into the UI extensions' browser tests' stubs (test/extensions/host-stubs.ts), one implementation.
 */

interface SignalImplementation<T> {
  value: T;
  subscribe(listener: (value: T) => void): () => void;
}
export type SignalClass = new <T>(value: T) => SignalImplementation<T>;

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
 * one without that import does not.
 */
export class HostSignal<T> {
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

/**
 * Makes `host` the global `shopify`, with the `setSignals` Shopify's host offers to
 * `@shopify/ui-extensions/preact` (it is not part of the published types). It must run before
 * the extension's modules: that import reads the global when it loads.
 */
export function installShopifyGlobal(host: object): void {
  const setSignals = (Signal: SignalClass) => {
    for (const value of Object.values(host))
      if (value instanceof HostSignal) value.useSignalClass(Signal);
  };
  (globalThis as { shopify?: unknown }).shopify = Object.assign(host, { setSignals });
}
