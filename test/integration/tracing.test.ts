import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { freePort, nodeArgsOfNpmScript } from "../../scripts/bench/processes";
import { withOutboxApp } from "../support/outbox-app";
import { startProductionServer, type RunningServer } from "../support/production-server";
import { repoRoot, TEST_API_SECRET } from "../support/test-env";

// Optional tracing (issue 28 item 7, decision 051), through `npm start` as production runs it:
// with OTEL_EXPORTER_OTLP_ENDPOINT, the webhook's span and its send attempt's span reach an OTLP
// collector in one trace, the one the outbox row keeps; without it, nothing of ours loads
// anything of OpenTelemetry.

const SHOP = "traced-store.myshopify.com";
const app = withOutboxApp();
let nextOrderId = 9_800_000;

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  serviceName: unknown;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans: Array<{
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: Array<{
      spans: Array<
        Omit<ExportedSpan, "attributes" | "serviceName"> & {
          attributes: OtlpKeyValue[];
        }
      >;
    }>;
  }>;
}

function valueOf(value: OtlpValue): unknown {
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue;
}

function attributesOf(pairs: OtlpKeyValue[]): Record<string, unknown> {
  return Object.fromEntries(pairs.map((pair) => [pair.key, valueOf(pair.value)]));
}

/**
 * A local OTLP/HTTP collector: every span POSTed to /v1/traces (the exporter sends JSON). While
 * `hold` is set it answers nothing, as a collector that hangs.
 */
async function startCollector() {
  const spans: ExportedSpan[] = [];
  const held: ServerResponse[] = [];
  let requests = 0;
  const collector = {
    spans,
    hold: false,
    requests: () => requests,
    release() {
      collector.hold = false;
      for (const response of held.splice(0)) response.writeHead(200).end("{}");
    },
    url: "",
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end();
        return;
      }
      requests += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpRequest;
      for (const resourceSpans of body.resourceSpans) {
        const serviceName = attributesOf(resourceSpans.resource.attributes)["service.name"];
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({ ...span, attributes: attributesOf(span.attributes), serviceName });
          }
        }
      }
      if (collector.hold) held.push(response);
      else response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  collector.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return collector;
}

function orderDelivery() {
  const orderId = String(nextOrderId++);
  const body = app.webhooks
    .readLifecycleFixture("orders-create.json")
    .replace(/"id":\s*\d+/, `"id": ${orderId}`);
  const headers = shopifyWebhookHeaders({
    topic: "orders/create",
    shop: SHOP,
    body,
    secret: TEST_API_SECRET,
  });
  return { orderId, body, headers };
}

async function post(server: RunningServer, delivery: ReturnType<typeof orderDelivery>) {
  const started = performance.now();
  const answer = await fetch(`${server.url}/webhooks/orders/create`, {
    method: "POST",
    body: delivery.body,
    headers: delivery.headers,
  });
  return { status: answer.status, ms: performance.now() - started };
}

/**
 * NODE_OPTIONS that record every module a process (and its children) resolves, with the module
 * that imported it, into `out`.
 */
function recordingModules(out: string) {
  const hook = pathToFileURL(path.join(repoRoot, "test/support/record-importers.mjs"));
  hook.searchParams.set("out", out);
  return { NODE_OPTIONS: `--import=${hook.href}` };
}

const OPENTELEMETRY = /\/node_modules\/(@opentelemetry\/[^/]+)\//;

/** The @opentelemetry packages among the modules recorded in `out`. */
function openTelemetryPackages(out: string): string[] {
  const packages = readFileSync(out, "utf8")
    .split("\n")
    .map((edge) => OPENTELEMETRY.exec(edge.split(" ")[1] ?? "")?.[1])
    .filter((name) => name !== undefined);
  return [...new Set(packages)].sort();
}

/** The modules outside OpenTelemetry's own packages that imported one of them. */
function openTelemetryImporters(out: string): string[] {
  const importers = readFileSync(out, "utf8")
    .split("\n")
    .map((edge) => edge.split(" "))
    .filter(([from, to]) => OPENTELEMETRY.test(to ?? "") && !OPENTELEMETRY.test(from ?? ""))
    .map(([from]) => path.relative(repoRoot, fileURLToPath(from!)));
  return [...new Set(importers)].sort();
}

function recordFile() {
  return path.join(mkdtempSync(path.join(os.tmpdir(), "svc-trace-modules-")), "resolved.txt");
}

describe("optional tracing", () => {
  it("exports the webhook's span and its send attempt's span in the trace the outbox row keeps, and never makes the webhook wait for the collector", async () => {
    await app.startClean(SHOP);
    const collector = await startCollector();
    const modules = recordFile();
    const server = await startProductionServer({
      ...recordingModules(modules),
      SVC_OUTBOX_WORKER: "embedded",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: "svc-protection-test",
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
    try {
      // A collector that hangs: its exports stay unanswered while webhooks keep coming.
      collector.hold = true;
      const first = orderDelivery();
      expect((await post(server, first)).status).toBe(200);
      await expect.poll(() => collector.requests(), { timeout: 10_000 }).toBeGreaterThan(0);
      const second = orderDelivery();
      const answered = await post(server, second);
      expect(answered.status).toBe(200);
      expect(answered.ms).toBeLessThan(1_000);
      collector.release();

      for (const delivery of [first, second]) {
        await expect
          .poll(
            async () =>
              (await app.prisma.outboxEvent.findFirst({ where: { orderId: delivery.orderId } }))
                ?.status,
            { timeout: 15_000, interval: 100 },
          )
          .toBe("delivered");
      }
      const row = await app.prisma.outboxEvent.findFirstOrThrow({
        where: { orderId: second.orderId, eventType: "order_placed" },
      });
      expect(row.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(row.traceSpanId).toMatch(/^[0-9a-f]{16}$/);

      const inTrace = () => collector.spans.filter((span) => span.traceId === row.traceId);
      await expect
        .poll(
          () =>
            inTrace()
              .map((span) => span.name)
              .sort(),
          { timeout: 10_000 },
        )
        .toEqual(["POST /webhooks/orders/create", "outbox send order_placed"]);
      const webhook = inTrace().find((span) => span.name.startsWith("POST"))!;
      const send = inTrace().find((span) => span.name.startsWith("outbox"))!;
      expect(webhook.spanId).toBe(row.traceSpanId);
      expect(webhook.attributes).toMatchObject({
        "svc.topic": "orders/create",
        "svc.shop": SHOP,
        "svc.webhook_id": second.headers["X-Shopify-Webhook-Id"],
        "http.response.status_code": 200,
      });
      // The attempt is the webhook span's child: one trace from receipt to the service's answer.
      expect(send.parentSpanId).toBe(webhook.spanId);
      const attempt = await app.prisma.outboxAttempt.findFirstOrThrow({
        where: { eventId: row.id },
      });
      expect(send.attributes).toMatchObject({
        "svc.event_id": row.id,
        "svc.attempt": 1,
        "svc.outcome": "delivered",
        "http.response.status_code": attempt.httpStatus,
      });
      expect(send.serviceName).toBe("svc-protection-test");
      // Each webhook has a trace of its own.
      const firstRow = await app.prisma.outboxEvent.findFirstOrThrow({
        where: { orderId: first.orderId, eventType: "order_placed" },
      });
      expect(firstRow.traceId).not.toBe(row.traceId);
    } finally {
      collector.release();
      expect(await server.stop(), server.output().slice(-3000)).toBe(0);
      await collector.close();
    }
    // The record is real: with the variable, the server loads OpenTelemetry's SDK, through us.
    expect(openTelemetryPackages(modules)).toContain("@opentelemetry/sdk-trace-node");
    expect(openTelemetryImporters(modules)).toContain("app/tracing/export.server.ts");
  }, 60_000);

  it("imports nothing of OpenTelemetry in npm start or npm run worker without OTEL_EXPORTER_OTLP_ENDPOINT", async () => {
    await app.startClean(SHOP);
    const modules = recordFile();
    const server = await startProductionServer({
      ...recordingModules(modules),
      SVC_OUTBOX_WORKER: "embedded",
    });
    let traceId: string | null = "unread";
    try {
      // The traced paths run: a webhook is recorded and its event delivered.
      const delivery = orderDelivery();
      expect((await post(server, delivery)).status).toBe(200);
      await expect
        .poll(
          async () =>
            (await app.prisma.outboxEvent.findFirst({ where: { orderId: delivery.orderId } }))
              ?.status,
          { timeout: 15_000, interval: 100 },
        )
        .toBe("delivered");
      traceId = (
        await app.prisma.outboxEvent.findFirstOrThrow({ where: { orderId: delivery.orderId } })
      ).traceId;
    } finally {
      expect(await server.stop(), server.output().slice(-3000)).toBe(0);
    }
    expect(traceId).toBeNull();

    const { NODE_ENV: _test, SHOPIFY_ADMIN_ORIGIN: _store, ...rest } = process.env;
    // Its metrics port answers once the worker is up and its stop signals are handled.
    const metricsPort = await freePort();
    const workerEnv: Record<string, string | undefined> = {
      ...rest,
      ...recordingModules(modules),
      SVC_METRICS_PORT: String(metricsPort),
    };
    const worker = spawn(process.execPath, nodeArgsOfNpmScript(repoRoot, "worker"), {
      cwd: repoRoot,
      env: workerEnv as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    worker.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${metricsPort}/healthz`).then(
            (answer) => answer.ok,
            () => false,
          ),
        { timeout: 30_000, interval: 200 },
      )
      .toBe(true);
    worker.kill("SIGTERM");
    expect(await exited, output).toBe(0);

    const resolved = readFileSync(modules, "utf8");
    // The record is real: both processes' own modules are in it.
    expect(resolved).toContain("/server/serve.ts");
    expect(resolved).toContain("/server/worker.ts");
    // Nothing of ours loads OpenTelemetry. prom-client's default process metrics require its API
    // (a no-op facade for exemplars; no SDK, no exporter, nothing started) whatever we set.
    expect(openTelemetryImporters(modules)).toEqual([
      "node_modules/prom-client/lib/metrics/processCpuTotal.js",
    ]);
    expect(openTelemetryPackages(modules)).toEqual(["@opentelemetry/api"]);
  }, 60_000);
});
