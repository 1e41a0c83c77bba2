import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { appProxyRequest } from "../support/app-proxy";
import { freePort, nodeArgsOfNpmScript } from "../../scripts/bench/processes";
import { testDatabaseProvider } from "../support/databases";
import {
  advanceStoreClock,
  freezeStoreClock,
  releaseStoreClock,
  storeControl,
  storeGraphqlLog,
} from "../support/local-store";
import { withOutboxApp } from "../support/outbox-app";
import { installShopWithPlan } from "../support/plan-actions";
import { sendRaw, startProductionServer, type RunningServer } from "../support/production-server";
import { TEST_API_SECRET, repoRoot } from "../support/test-env";

// Issue 28's metrics after known actions, scraped from the metrics port of the real processes:
// `npm start` (web, embedded worker) takes webhooks and delivers one event and kills another,
// and `npm run worker` runs a reconciliation that Shopify throttles (decision 047).

const provider = testDatabaseProvider();
const SHOP = `metrics-${provider}.myshopify.com`;
const app = withOutboxApp();

/** The samples of an exposition: `name{labels}` (labels in their order) to value. */
function samplesOf(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels`. */
function valueOf(samples: Map<string, number>, name: string, labels: Record<string, string> = {}) {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const found = [...samples].filter(([key]) => {
    const brace = key.indexOf("{");
    const keyName = brace === -1 ? key : key.slice(0, brace);
    return keyName === name && wanted.every((pair) => key.includes(pair));
  });
  if (found.length !== 1) {
    throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  }
  return found[0]![1];
}

async function scrape(port: number): Promise<Map<string, number>> {
  const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return samplesOf(await answer.text());
}

let nextOrderId = 9_800_000;

function orderDelivery(secret = TEST_API_SECRET) {
  const body = app.webhooks
    .readLifecycleFixture("orders-create.json")
    .replace(/"id":\s*\d+/, `"id": ${nextOrderId++}`);
  return {
    orderId: String(nextOrderId - 1),
    body,
    headers: shopifyWebhookHeaders({ topic: "orders/create", shop: SHOP, body, secret }),
  };
}

describe(`metrics of the web process (${provider})`, () => {
  let server: RunningServer;
  let metricsPort: number;
  const startedAt = Date.now() / 1_000;

  beforeAll(async () => {
    await app.startClean(SHOP);
    metricsPort = await freePort();
    server = await startProductionServer({
      SVC_OUTBOX_WORKER: "embedded",
      SVC_METRICS_PORT: String(metricsPort),
      SVC_METRICS_DB_INTERVAL_SECONDS: "1",
    });
  }, 60_000);

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it("are not served on the app's port", async () => {
    const answer = await fetch(`${server.url}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain("svc_");
    // The metrics port answers its own liveness probe.
    const health = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, "ok\n"]);
  });

  it("count one webhook, one delivery, one dead event, a forged webhook and an edge refusal", async () => {
    const delivered = orderDelivery();
    const post = (delivery: ReturnType<typeof orderDelivery>) =>
      fetch(`${server.url}/webhooks/orders/create`, {
        method: "POST",
        body: delivery.body,
        headers: delivery.headers,
      });
    expect((await post(delivered)).status).toBe(200);
    const statusOf = async (orderId: string) =>
      (await app.prisma.outboxEvent.findFirst({ where: { shop: SHOP, orderId } }))?.status;
    await expect
      .poll(() => statusOf(delivered.orderId), { timeout: 15_000, interval: 100 })
      .toBe("delivered");
    // The service refuses the next event with a 400: it is dead at once.
    await app.control.control("faults", {
      method: "POST",
      body: { count: 1, status: 400, match: { path: "/sandbox/events" } },
    });
    const refused = orderDelivery();
    expect((await post(refused)).status).toBe(200);
    await expect
      .poll(() => statusOf(refused.orderId), { timeout: 15_000, interval: 100 })
      .toBe("dead");
    expect((await post(orderDelivery("a-forger's-secret"))).status).toBe(401);
    const uninstalled = JSON.stringify({ id: 1, domain: SHOP });
    const forgedUninstall = await fetch(`${server.url}/webhooks/app/uninstalled`, {
      method: "POST",
      body: uninstalled,
      headers: shopifyWebhookHeaders({
        topic: "app/uninstalled",
        shop: SHOP,
        body: uninstalled,
        secret: "a-forger's-secret",
      }),
    });
    expect(forgedUninstall.status).toBe(401);
    // A body without a Content-Length is refused by the edge before any route sees it.
    const chunked = await sendRaw(server.port, [
      "POST /webhooks/orders/create HTTP/1.1",
      "Host: 127.0.0.1",
      "Transfer-Encoding: chunked",
    ]);
    expect((await chunked.answered).status).toBe(411);
    chunked.socket.destroy();

    // The database gauges are read every second: the scrape after the next refresh.
    let samples = await scrape(metricsPort);
    await expect
      .poll(
        async () => {
          samples = await scrape(metricsPort);
          return valueOf(samples, "svc_outbox_dead_events");
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(1);
    const web = { process_type: "web" };
    const webhook = { ...web, topic: "orders/create" };
    expect(
      valueOf(samples, "svc_webhooks_received_total", { ...webhook, result: "accepted" }),
    ).toBe(2);
    expect(
      valueOf(samples, "svc_webhooks_received_total", { ...webhook, result: "unauthenticated" }),
    ).toBe(1);
    expect(
      valueOf(samples, "svc_webhooks_received_total", { ...webhook, result: "duplicate" }),
    ).toBe(0);
    expect(
      valueOf(samples, "svc_webhooks_received_total", {
        ...web,
        topic: "app/uninstalled",
        result: "unauthenticated",
      }),
    ).toBe(1);
    expect(
      valueOf(samples, "svc_webhooks_received_total", { ...webhook, result: "refused_503" }),
    ).toBe(0);
    expect(valueOf(samples, "svc_outbox_attempts_total", { ...web, outcome: "2xx" })).toBe(1);
    expect(valueOf(samples, "svc_outbox_attempts_total", { ...web, outcome: "4xx" })).toBe(1);
    expect(valueOf(samples, "svc_outbox_attempts_total", { ...web, outcome: "5xx" })).toBe(0);
    expect(valueOf(samples, "svc_outbox_attempts_total", { ...web, outcome: "timeout" })).toBe(0);
    expect(
      valueOf(samples, "svc_outbox_send_duration_seconds_count", { ...web, outcome: "2xx" }),
    ).toBe(1);
    expect(
      valueOf(samples, "svc_outbox_send_duration_seconds_count", { ...web, outcome: "4xx" }),
    ).toBe(1);
    expect(
      valueOf(samples, "svc_outbox_send_duration_seconds_bucket", {
        ...web,
        outcome: "2xx",
        le: "+Inf",
      }),
    ).toBe(1);
    const sandbox = { ...web, environment: "sandbox" };
    expect(valueOf(samples, "svc_outbox_events", { ...sandbox, status: "delivered" })).toBe(1);
    expect(valueOf(samples, "svc_outbox_events", { ...sandbox, status: "dead" })).toBe(1);
    expect(valueOf(samples, "svc_outbox_events", { ...sandbox, status: "pending" })).toBe(0);
    expect(valueOf(samples, "svc_outbox_oldest_pending_age_seconds", web)).toBe(0);
    expect(valueOf(samples, "svc_http_body_refusals_total", { ...web, status: "411" })).toBe(1);
    expect(valueOf(samples, "svc_http_body_refusals_total", { ...web, status: "413" })).toBe(0);
    expect(
      valueOf(samples, "svc_plan_actions", { ...web, kind: "refund_plan_line", state: "dead" }),
    ).toBe(0);
    expect(valueOf(samples, "svc_reconcile_recovering_runs_in_a_row", web)).toBe(0);
    // The embedded worker's loop ticked since the server started.
    const beat = valueOf(samples, "svc_worker_heartbeat_timestamp_seconds", {
      ...web,
      worker: "outbox",
    });
    expect(beat).toBeGreaterThanOrEqual(startedAt);
    expect(beat).toBeLessThanOrEqual(Date.now() / 1_000);
    // prom-client's own process and Node metrics, with the process kind.
    expect(valueOf(samples, "process_cpu_user_seconds_total", web)).toBeGreaterThan(0);
    expect(valueOf(samples, "nodejs_eventloop_lag_seconds", web)).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, "nodejs_heap_size_used_bytes", web)).toBeGreaterThan(0);
    // No label names a shop.
    expect([...samples.keys()].some((key) => key.includes("myshopify"))).toBe(false);
  });

  it("count app proxy requests by result, and the plans cache's hits and misses", async () => {
    const query = {
      variant_id: "7982301839417",
      price: "19900",
      currency: "EUR",
      user_session_id: randomUUID(),
      product_title: "Aurora 14 Laptop",
      product_brand: "Nimbus",
    };
    const plans = async (signed = true) => {
      const request = appProxyRequest({ path: "plans", shop: SHOP, query });
      const url = new URL(request.url);
      if (!signed) url.searchParams.set("signature", "0".repeat(64));
      return (await fetch(`${server.url}${url.pathname}${url.search}`)).status;
    };
    // The same lookup twice: the service is asked once, the cache answers the second.
    expect([await plans(), await plans(), await plans(false)]).toEqual([200, 200, 401]);
    const samples = await scrape(metricsPort);
    const web = { process_type: "web" };
    const proxy = { ...web, route: "plans" };
    expect(valueOf(samples, "svc_proxy_requests_total", { ...proxy, result: "ok" })).toBe(2);
    expect(valueOf(samples, "svc_proxy_requests_total", { ...proxy, result: "unauthorized" })).toBe(
      1,
    );
    expect(valueOf(samples, "svc_proxy_plans_cache_total", { ...web, result: "miss" })).toBe(1);
    expect(valueOf(samples, "svc_proxy_plans_cache_total", { ...web, result: "hit" })).toBe(1);
  });
});

describe(`metrics of the worker process (${provider})`, () => {
  it("count a reconciliation run that Shopify throttled, its points, and the workers' heartbeats", async () => {
    await app.startClean(SHOP);
    await installShopWithPlan(app.prisma, SHOP);

    const metricsPort = await freePort();
    const child = spawn(process.execPath, nodeArgsOfNpmScript(repoRoot, "worker"), {
      cwd: repoRoot,
      env: {
        ...process.env,
        // The test's local store is Shopify here; production refuses one.
        NODE_ENV: "development",
        LOG_LEVEL: "info",
        SVC_OUTBOX_WORKER: "off",
        SVC_RECONCILE_POLL_MS: "200",
        SVC_RECONCILE_SETTLE_SECONDS: "0",
        SVC_RECONCILE_BUCKET_SHARE: "1",
        SVC_METRICS_PORT: String(metricsPort),
        SVC_METRICS_DB_INTERVAL_SECONDS: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      await expect
        .poll(() => output.includes("Reconciliation worker started"), { timeout: 20_000 })
        .toBe(true);
      const graphqlBefore = (await storeGraphqlLog()).length;
      const throttledAnswers = async () =>
        (await storeGraphqlLog())
          .slice(graphqlBefore)
          .filter(
            (request) =>
              request.shop === SHOP && JSON.stringify(request.errors).includes("THROTTLED"),
          );
      // Another app emptied the shop's bucket, and it stays empty until the store's clock moves
      // on: the run's reads are throttled until then.
      freezeStoreClock();
      try {
        expect((await storeControl(`shops/${SHOP}/throttle`, { available: 0 })).status).toBe(200);
        const { requestReconcileRun } = await import("../../app/models/ReconcileState.server");
        await requestReconcileRun(app.prisma, SHOP, new Date());
        await expect
          .poll(async () => (await throttledAnswers()).length, { timeout: 20_000, interval: 100 })
          .toBeGreaterThan(0);
        advanceStoreClock(30_000);
      } finally {
        releaseStoreClock();
      }
      const run = await expect
        .poll(
          () =>
            app.prisma.reconcileRun.findFirst({
              where: { shop: SHOP, status: { not: "running" } },
            }),
          { timeout: 30_000, interval: 200 },
        )
        .toMatchObject({ status: "completed" });
      void run;
      const finished = await app.prisma.reconcileRun.findFirstOrThrow({ where: { shop: SHOP } });
      const throttled = await throttledAnswers();
      expect(throttled.length, output).toBeGreaterThanOrEqual(1);

      let samples = new Map<string, number>();
      await expect
        .poll(
          async () => {
            samples = await scrape(metricsPort).catch(() => new Map<string, number>());
            return samples.size
              ? valueOf(samples, "svc_reconcile_runs_total", { result: "ok" })
              : 0;
          },
          { timeout: 10_000, interval: 200 },
        )
        .toBe(1);
      const worker = { process_type: "worker" };
      expect(valueOf(samples, "svc_reconcile_runs_total", { ...worker, result: "failed" })).toBe(0);
      expect(
        valueOf(samples, "svc_shopify_throttled_total", { ...worker, caller: "reconcile" }),
      ).toBe(throttled.length);
      expect(
        valueOf(samples, "svc_shopify_throttled_total", { ...worker, caller: "plan_actions" }),
      ).toBe(0);
      expect(
        valueOf(samples, "svc_shopify_throttle_wait_seconds_total", {
          ...worker,
          caller: "reconcile",
        }),
      ).toBeGreaterThan(0);
      expect(valueOf(samples, "svc_reconcile_points_used_total", worker)).toBe(finished.pointsUsed);
      expect(finished.pointsUsed).toBeGreaterThan(0);
      expect(valueOf(samples, "svc_reconcile_recovered_events_total", worker)).toBe(
        finished.eventsRecovered,
      );
      for (const name of ["outbox", "plan_actions", "reconcile"]) {
        expect(
          valueOf(samples, "svc_worker_heartbeat_timestamp_seconds", { ...worker, worker: name }),
        ).toBeGreaterThan(0);
      }
      // The worker reads the database gauges (the web server runs no workers here).
      expect(valueOf(samples, "svc_outbox_dead_events", worker)).toBe(0);
      const health = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
