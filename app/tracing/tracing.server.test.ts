import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-node";
import { afterEach, describe, expect, it } from "vitest";
import { startTracing } from "./export.server";
import {
  activeTracer,
  installTracer,
  traceWebhook,
  tracingRequested,
  type WebhookSpan,
} from "./tracing.server";

const log = { warn: () => undefined, error: () => undefined };

afterEach(() => installTracer(undefined));

describe("tracingRequested", () => {
  it("is on with an OTLP endpoint for all signals or for traces, unless the SDK is disabled", () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(
      tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" }),
    ).toBe(true);
    expect(
      tracingRequested({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_SDK_DISABLED: "TRUE",
      }),
    ).toBe(false);
  });
});

describe("traceWebhook", () => {
  it("runs the handler without a span when no tracer is installed", async () => {
    expect(activeTracer()).toBeUndefined();
    let given: WebhookSpan | undefined | "unset" = "unset";
    const answer = await traceWebhook(
      "orders/create",
      (span) => {
        given = span;
        return Promise.resolve({ status: 200 });
      },
      (answered) => answered.status,
    );
    expect(answer).toEqual({ status: 200 });
    expect(given).toBeUndefined();
  });

  it("ends the webhook's span with the status answered, and makes a send attempt its child", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = startTracing({ process: "web", log, exporter });
    let ref: WebhookSpan["ref"] = null;
    await traceWebhook(
      "orders/paid",
      (span) => {
        span!.annotate({ shop: "a.myshopify.com", webhookId: "w-1" });
        ref = span!.ref;
        return Promise.resolve({ status: 503 });
      },
      (answered) => answered.status,
    );
    expect(ref).toEqual({
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const { traceId, spanId } = ref!;
    const event = {
      id: 7,
      shop: "a.myshopify.com",
      orderId: "1001",
      eventType: "order_paid",
      environment: "sandbox",
    };
    tracer.startSendSpan({ ...event, traceId, traceSpanId: spanId }, 2).end("retry", 500);
    // A row without a webhook span (reconciliation, or from before tracing) starts its own trace.
    tracer.startSendSpan({ ...event, traceId: null, traceSpanId: null }, 1).end("delivered", 201);
    await tracer.flush();

    const [webhook, send, own] = exporter.getFinishedSpans();
    expect(webhook!.name).toBe("POST /webhooks/orders/paid");
    expect(webhook!.attributes).toMatchObject({
      "svc.topic": "orders/paid",
      "svc.shop": "a.myshopify.com",
      "svc.webhook_id": "w-1",
      "http.response.status_code": 503,
    });
    expect(webhook!.status.code).toBe(2);
    expect(send!.spanContext().traceId).toBe(traceId);
    expect(send!.parentSpanContext?.spanId).toBe(spanId);
    expect(send!.attributes).toMatchObject({ "svc.attempt": 2, "svc.outcome": "retry" });
    expect(own!.spanContext().traceId).not.toBe(traceId);
    expect(own!.parentSpanContext).toBeUndefined();
    expect(own!.resource.attributes["service.name"]).toBe("svc-protection");
  });

  it("records a handler's failure on the span and passes it on", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = startTracing({ process: "worker", log, exporter });
    const failing = traceWebhook(
      "orders/create",
      () => Promise.reject(new Error("database gone")),
      () => 200,
    );
    await expect(failing).rejects.toThrow("database gone");
    await tracer.flush();
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({ code: 2, message: "database gone" });
    expect(span!.events.map((event) => event.name)).toEqual(["exception"]);
  });
});
