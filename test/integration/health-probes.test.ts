import { renameSync } from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { sqliteFilePath } from "../../app/lib/database-url";
import { testDatabaseProvider } from "../support/databases";
import { withOutboxApp } from "../support/outbox-app";
import { askToSend, startProductionServer, type RunningServer } from "../support/production-server";
import { connectShop } from "../support/shops";
import { TEST_API_SECRET } from "../support/test-env";

// Liveness and readiness of the built server (issue 28, decision 048): /healthz says the process
// answers and touches no database; /readyz says the database answers, every migration is
// applied and the server is not draining, and turns 503 the moment SIGTERM arrives.

const provider = testDatabaseProvider();
const SHOP = "probe-store.myshopify.com";
const app = withOutboxApp();
const servers: RunningServer[] = [];

beforeAll(async () => {
  await connectShop(app.prisma, SHOP);
});

afterAll(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function start(env: Record<string, string>): Promise<RunningServer> {
  const server = await startProductionServer({ SVC_OUTBOX_WORKER: "off", ...env });
  servers.push(server);
  return server;
}

async function probe(server: RunningServer, path: "/healthz" | "/readyz") {
  const answer = await fetch(`${server.url}${path}`);
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

function orderDelivery(orderId: number) {
  const body = app.webhooks
    .readLifecycleFixture("orders-create.json")
    .replace(/"id":\s*\d+/, `"id": ${orderId}`);
  return {
    body,
    headers: shopifyWebhookHeaders({
      topic: "orders/create",
      shop: SHOP,
      body,
      secret: TEST_API_SECRET,
    }),
  };
}

describe(`health probes of the production server on ${provider}`, () => {
  it("answers /readyz 503 from SIGTERM on, while a slow webhook in flight is finished", async () => {
    const server = await start({ SVC_SHUTDOWN_DELAY_MS: "5000" });
    expect(await probe(server, "/readyz")).toEqual({ status: 200, body: { status: "ready" } });
    const delivery = orderDelivery(9_700_001);
    const slow = await askToSend(server.port, [
      "POST /webhooks/orders/create HTTP/1.1",
      "Host: 127.0.0.1",
      `Content-Length: ${Buffer.byteLength(delivery.body)}`,
      ...Object.entries(delivery.headers).map(([name, value]) => `${name}: ${value}`),
    ]);
    expect(slow.decision).toBe(100);

    const exited = server.stop();
    const began = performance.now();
    await expect
      .poll(async () => (await probe(server, "/readyz")).status, { timeout: 1_000, interval: 20 })
      .toBe(503);
    expect(performance.now() - began).toBeLessThan(1_000);
    expect(await probe(server, "/readyz")).toEqual({
      status: 503,
      body: { status: "not ready", reason: "draining" },
    });
    // Alive all the same: a liveness probe must not restart a server that is finishing its work.
    expect(await probe(server, "/healthz")).toEqual({ status: 200, body: { status: "ok" } });

    slow.socket.write(delivery.body);
    expect((await slow.rest).status).toBe(200);
    expect(await exited).toBe(0);
    expect(await app.prisma.webhookReceipt.count({ where: { orderId: "9700001" } })).toBe(1);
  });

  it("answers /readyz 503 while a migration is not applied, and 200 again once it is", async () => {
    const server = await start({});
    expect((await probe(server, "/readyz")).status).toBe(200);
    const [last] = await app.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
      'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1',
    );
    const name = last!.migration_name;
    const rolledBackAt = provider === "sqlite" ? String(Date.now()) : "now()";
    await app.prisma.$executeRawUnsafe(
      `UPDATE "_prisma_migrations" SET rolled_back_at = ${rolledBackAt} WHERE migration_name = '${name}'`,
    );
    try {
      expect(await probe(server, "/readyz")).toEqual({
        status: 503,
        body: { status: "not ready", reason: "migrations" },
      });
      expect((await probe(server, "/healthz")).status).toBe(200);
      expect(server.output()).toContain(`Not ready: 1 migration(s) not applied (${name})`);
    } finally {
      await app.prisma.$executeRawUnsafe(
        `UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE migration_name = '${name}'`,
      );
    }
    expect((await probe(server, "/readyz")).status).toBe(200);
  });

  it("answers /healthz 200 without the database, and /readyz 503 until it is back", async () => {
    const outage = await databaseOutage(process.env.DATABASE_URL!);
    try {
      const server = await start({ DATABASE_URL: outage.url });
      expect((await probe(server, "/readyz")).status).toBe(200);
      await outage.cut();
      await expect
        .poll(async () => (await probe(server, "/readyz")).body, { timeout: 10_000 })
        .toEqual({ status: "not ready", reason: "database" });
      expect(await probe(server, "/healthz")).toEqual({ status: 200, body: { status: "ok" } });
      await outage.restore();
      await expect
        .poll(async () => (await probe(server, "/readyz")).status, { timeout: 10_000 })
        .toBe(200);
    } finally {
      await outage.restore();
      await outage.close();
    }
  });
});

interface DatabaseOutage {
  /** The URL the server is given: the database's own (SQLite) or a proxy's (PostgreSQL). */
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A database that can be taken away: the SQLite file moved aside, or PostgreSQL behind a TCP
 * proxy that closes its connections and refuses new ones.
 */
async function databaseOutage(databaseUrl: string): Promise<DatabaseOutage> {
  if (provider === "sqlite") {
    const file = sqliteFilePath(databaseUrl);
    let away = false;
    return {
      url: databaseUrl,
      async cut() {
        renameSync(file, `${file}.away`);
        away = true;
      },
      async restore() {
        if (away) renameSync(`${file}.away`, file);
        away = false;
      },
      async close() {},
    };
  }
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let proxy: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      proxy = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("error", () => {});
          socket.once("close", () => sockets.delete(socket));
        }
        client.pipe(upstream).pipe(client);
        client.once("close", () => upstream.destroy());
        upstream.once("close", () => client.destroy());
      });
      proxy.listen(port, "127.0.0.1", () => {
        port = (proxy!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const shut = async () => {
    const closing = proxy;
    proxy = undefined;
    if (!closing) return;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await listen();
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    cut: shut,
    async restore() {
      if (!proxy) await listen();
    },
    close: shut,
  };
}
