import { EventEmitter } from "node:events";

declare global {
  var svcOutboxSignal: EventEmitter | undefined;
}

// One emitter per process (and across Vite's hot reloads), so a webhook route can wake the
// embedded worker at once instead of waiting for its next poll.
const signal = (globalThis.svcOutboxSignal ??= new EventEmitter());
signal.setMaxListeners(50);

/** Called after events are recorded: a worker in this process looks at the outbox now. */
export function notifyOutbox(): void {
  signal.emit("recorded");
}

export function onOutboxNotified(listener: () => void): () => void {
  signal.on("recorded", listener);
  return () => signal.off("recorded", listener);
}
