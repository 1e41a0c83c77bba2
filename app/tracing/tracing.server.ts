// Optional OpenTelemetry tracing (decision 051), as the app's code sees it. This module imports
// nothing of OpenTelemetry: without OTEL_EXPORTER_OTLP_ENDPOINT nothing installs a tracer, and
// every call below is one lookup that finds none. With it, server/serve.ts and server/worker.ts
// import ./export.server at start, which installs the one tracer of the process here.

/** The webhook span an outbox row keeps, so that each send attempt joins its trace. */
export interface TraceRef {
  /** 32 hex digits. */
  traceId: string;
  /** 16 hex digits: the webhook's span, the parent of each send attempt's span. */
  spanId: string;
}

export interface WebhookSpan {
  /** The trace an outbox row keeps; null when the span is not sampled (nothing to join). */
  readonly ref: TraceRef | null;
  annotate(fields: { shop: string; webhookId: string }): void;
  end(status: number): void;
  fail(error: unknown): void;
}

/** The outbox row a send attempt is for, with the webhook span it came from when it has one. */
export interface TracedEvent {
  id: number;
  shop: string;
  orderId: string;
  eventType: string;
  environment: string;
  traceId: string | null;
  traceSpanId: string | null;
}

export interface SendSpan {
  end(outcome: string, httpStatus: number | null): void;
  fail(error: unknown): void;
}

export interface Tracer {
  startWebhookSpan(topic: string): WebhookSpan;
  startSendSpan(event: TracedEvent, attempt: number): SendSpan;
  /** Exports the spans still queued; at shutdown. */
  flush(): Promise<void>;
}

// On globalThis, not in a module variable: serve.ts loads this module from source and the built
// app has its own copy of it, and both must see the one tracer.
const TRACER = Symbol.for("svc-protection.tracer");
type TracerHolder = { [TRACER]?: Tracer };

export function activeTracer(): Tracer | undefined {
  return (globalThis as TracerHolder)[TRACER];
}

export function installTracer(tracer: Tracer | undefined) {
  (globalThis as TracerHolder)[TRACER] = tracer;
}

/**
 * Whether this process exports traces: an OTLP endpoint is named (all signals' or the traces'
 * own), and the standard OTEL_SDK_DISABLED does not turn the SDK off.
 */
export function tracingRequested(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim(),
  );
}

/**
 * Runs one webhook's handling in a span, when tracing is on; `statusOf` reads the answer's HTTP
 * status. Without a tracer, `answer` runs as it is.
 */
export function traceWebhook<T>(
  topic: string,
  answer: (span: WebhookSpan | undefined) => Promise<T>,
  statusOf: (answer: T) => number,
): Promise<T> {
  const tracer = activeTracer();
  if (!tracer) return answer(undefined);
  const span = tracer.startWebhookSpan(topic);
  return answer(span).then(
    (answered) => {
      span.end(statusOf(answered));
      return answered;
    },
    (error: unknown) => {
      span.fail(error);
      throw error;
    },
  );
}

/** Exports what is queued before the process exits; nothing to do without a tracer. */
export async function flushTraces(): Promise<void> {
  await activeTracer()?.flush();
}
