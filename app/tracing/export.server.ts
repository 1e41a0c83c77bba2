// The OpenTelemetry side of tracing (decision 051). Only ever imported dynamically, by
// server/serve.ts and server/worker.ts when tracingRequested() says so: a process without
// OTEL_EXPORTER_OTLP_ENDPOINT loads nothing of OpenTelemetry.
import {
  diag,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Context,
  type Span,
} from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-node";
import {
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVICE_NAME,
} from "@opentelemetry/semantic-conventions";
import {
  installTracer,
  type SendSpan,
  type TracedEvent,
  type Tracer,
  type WebhookSpan,
} from "./tracing.server";

/** Where the SDK's own warnings go (a collector that cannot be reached, a full queue). */
export interface TracingLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface TracingOptions {
  /** "web" or "worker": which process the spans come from (the resource's svc.process). */
  process: string;
  log: TracingLog;
  /** Tests: spans go here instead of OTLP/HTTP. */
  exporter?: SpanExporter;
}

/**
 * Installs this process's tracer: spans are batched in memory and exported over OTLP/HTTP (JSON)
 * to OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces by a timer, never on the request that ended them.
 * The exporter reads the standard OTEL_EXPORTER_OTLP_* and OTEL_BSP_* variables itself.
 */
export function startTracing(options: TracingOptions): Tracer {
  diag.setLogger(
    {
      error: (message, ...args) => options.log.error({ args }, `Tracing: ${message}`),
      warn: (message, ...args) => options.log.warn({ args }, `Tracing: ${message}`),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.WARN,
  );
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: "svc-protection" }))
    .merge(resourceFromAttributes({ "svc.process": options.process }))
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults above.
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    // A stop waits this long at most for a collector that does not answer.
    forceFlushTimeoutMillis: 3_000,
    spanProcessors: [new BatchSpanProcessor(options.exporter ?? new OTLPTraceExporter())],
  });
  const tracer = createTracer(provider);
  installTracer(tracer);
  return tracer;
}

function createTracer(provider: NodeTracerProvider): Tracer {
  const otel = provider.getTracer("svc-protection");
  return {
    startWebhookSpan(topic) {
      const span = otel.startSpan(
        `POST /webhooks/${topic}`,
        { kind: SpanKind.SERVER, attributes: { "svc.topic": topic } },
        ROOT_CONTEXT,
      );
      return webhookSpan(span);
    },
    startSendSpan(event, attempt) {
      const span = otel.startSpan(
        `outbox send ${event.eventType}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "svc.shop": event.shop,
            "svc.event_id": event.id,
            "svc.order_id": event.orderId,
            "svc.event_type": event.eventType,
            "svc.environment": event.environment,
            "svc.attempt": attempt,
          },
        },
        webhookContextOf(event),
      );
      return sendSpan(span);
    },
    async flush() {
      await provider.forceFlush();
    },
  };
}

function webhookSpan(span: Span): WebhookSpan {
  const context = span.spanContext();
  const sampled = (context.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
  return {
    ref: sampled ? { traceId: context.traceId, spanId: context.spanId } : null,
    annotate({ shop, webhookId }) {
      span.setAttributes({ "svc.shop": shop, "svc.webhook_id": webhookId });
    },
    end(status) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
    fail: (error) => failSpan(span, error),
  };
}

function sendSpan(span: Span): SendSpan {
  return {
    end(outcome, httpStatus) {
      span.setAttribute("svc.outcome", outcome);
      if (httpStatus !== null) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, httpStatus);
      if (outcome !== "delivered") span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      span.end();
    },
    fail: (error) => failSpan(span, error),
  };
}

function failSpan(span: Span, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

/** The stored webhook span as the parent of a send attempt, so both share one trace. */
function webhookContextOf(event: TracedEvent): Context {
  if (!event.traceId || !event.traceSpanId) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: event.traceId,
    spanId: event.traceSpanId,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
}
