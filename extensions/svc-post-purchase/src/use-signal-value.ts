import { useEffect, useState } from "preact/hooks";

interface SignalLike<T> {
  readonly value: T;
  subscribe(fn: (value: T) => void): () => void;
}

/**
 * The current value of one of the host's signals, re-rendering when it changes. (With
 * @preact/signals installed, `import "@shopify/ui-extensions/preact"` would make the host's
 * signals reactive by themselves; decision 035.)
 */
export function useSignalValue<T>(signal: SignalLike<T>): T {
  const [value, setValue] = useState<{ current: T }>({ current: signal.value });
  useEffect(() => signal.subscribe((current) => setValue({ current })), [signal]);
  return value.current;
}
