import { describe, expect, it } from "vitest";
import { pino } from "pino";
import { countWebhook, registry, topicLabel, webhookResultOf } from "./registry.server";
import { startMetricsService } from "./server.server";

describe("metric labels", () => {
  it("keep topics to a route's known list, anything else as other", () => {
    expect(topicLabel("orders/create")).toBe("orders/create");
    expect(topicLabel("orders/made-up")).toBe("other");
    expect(topicLabel("app/uninstalled")).toBe("other");
    expect(topicLabel("app/uninstalled", ["app/uninstalled"])).toBe("app/uninstalled");
  });

  it("count a webhook of an unknown topic under other", async () => {
    countWebhook("orders/made-up", "invalid");
    const text = await registry.metrics();
    expect(text).toContain('svc_webhooks_received_total{topic="other",result="invalid"} 1\n');
    expect(text).not.toContain("orders/made-up");
  });

  it("read a lifecycle webhook's result from its status", () => {
    expect([200, 401, 503, 400, 404, 500].map(webhookResultOf)).toEqual([
      "accepted",
      "unauthenticated",
      "refused_503",
      "invalid",
      "invalid",
      "error",
    ]);
  });
});

describe("the metrics port", () => {
  const log = pino({ level: "silent" });

  it("is not opened when SVC_METRICS_PORT is unset", async () => {
    const env = { SVC_METRICS_HOST: "127.0.0.1", SVC_METRICS_DB_INTERVAL_SECONDS: 15 };
    expect(await startMetricsService({ env, processType: "web", log })).toBeUndefined();
  });

  it("serves /metrics and /healthz, and nothing else", async () => {
    const service = await startMetricsService({
      env: {
        SVC_METRICS_PORT: 0,
        SVC_METRICS_HOST: "127.0.0.1",
        SVC_METRICS_DB_INTERVAL_SECONDS: 15,
      },
      processType: "worker",
      log,
    });
    try {
      const base = `http://127.0.0.1:${service!.port}`;
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      const text = await metrics.text();
      expect(text).toContain('svc_outbox_attempts_total{outcome="2xx",process_type="worker"} 0');
      expect(text).toMatch(/^nodejs_heap_size_used_bytes\{process_type="worker"\} \d+/m);
      expect(await (await fetch(`${base}/healthz`)).text()).toBe("ok\n");
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(405);
    } finally {
      await service?.close();
    }
  });
});
