import { spawn } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { EmulatorClient, LIVE_KEY, SANDBOX_KEY } from "../../emulator/test-support";
import type * as SecretsModule from "../../app/crypto/secrets.server";
import type { AppPrismaClient } from "../../app/db/client.server";
import type * as ConnectionsModule from "../../app/models/ShopConnection.server";
import type * as ClaimModule from "../../app/outbox/claim.server";
import type * as WorkerModule from "../../app/outbox/worker.server";
import type * as WebhooksModule from "../support/order-webhooks";
import { testDatabaseProvider } from "../support/databases";
import { repoRoot } from "../support/test-env";

// The worker's life: leases that outlive a crashed worker, graceful stops, and the
// standalone `npm run worker` process.

const provider = testDatabaseProvider();
const SHOP = "worker-store.myshopify.com";

let emulator: RunningEmulator;
let control: EmulatorClient;
let app: {
  prisma: AppPrismaClient;
  connections: typeof ConnectionsModule;
  claim: typeof ClaimModule;
  worker: typeof WorkerModule;
  webhooks: typeof WebhooksModule;
  box: typeof SecretsModule;
};

beforeAll(async () => {
  emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port: 0 });
  control = new EmulatorClient(emulator);
  process.env.SVC_BASE_URL = emulator.url;
  app = {
    prisma: (await import("../../app/db.server")).default,
    connections: await import("../../app/models/ShopConnection.server"),
    claim: await import("../../app/outbox/claim.server"),
    worker: await import("../../app/outbox/worker.server"),
    webhooks: await import("../support/order-webhooks"),
    box: await import("../../app/crypto/secrets.server"),
  };
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  await control.reset();
  await app.prisma.outboxEvent.deleteMany({});
  await app.prisma.webhookReceipt.deleteMany({});
  await app.connections.saveConnectionKeys(app.prisma, app.box.getSecretBox(), SHOP, {
    environment: "sandbox",
    sandboxSecretKey: SANDBOX_KEY,
  });
  const answer = await app.webhooks.sendOrderWebhook({
    topic: "orders/create",
    shop: SHOP,
    body: app.webhooks.readLifecycleFixture("orders-create.json"),
  });
  expect(answer.status).toBe(200);
});

async function placements() {
  const state = await control.state("sandbox");
  return state.orders.map((order) => order.placement_count);
}

describe(`outbox worker (${provider})`, () => {
  it("leaves a claimed event alone until its lease runs out, then another worker sends it", async () => {
    const now = new Date();
    const claimed = await app.claim.claimDueEvents(app.prisma, {
      workerId: "crashed",
      limit: 10,
      now,
      leaseMs: 60_000,
    });
    expect(claimed).toHaveLength(1);

    const rescuer = app.worker.createOutboxWorker({ db: app.prisma, workerId: "rescuer" });
    expect(await rescuer.drain()).toBe(0);

    const afterLease = new Date(now.getTime() + 61_000);
    const late = app.worker.createOutboxWorker({
      db: app.prisma,
      workerId: "rescuer",
      now: () => afterLease,
    });
    expect(await late.drain()).toBe(1);
    expect(await placements()).toEqual([1]);
  });

  it("hands unsent claims back when it stops", async () => {
    await app.claim.claimDueEvents(app.prisma, {
      workerId: "stopping",
      limit: 10,
      now: new Date(),
      leaseMs: 60_000,
    });
    expect(await app.claim.releaseClaims(app.prisma, "stopping")).toBe(1);
    const row = await app.prisma.outboxEvent.findFirstOrThrow({ where: { shop: SHOP } });
    expect(row).toMatchObject({ status: "pending", claimedBy: null, leaseExpiresAt: null });
  });

  it("finishes the send in flight before a graceful stop returns", async () => {
    await control.control("faults", {
      method: "POST",
      body: { count: 1, delay_ms: 400, match: { path: "/sandbox/events" } },
    });
    const worker = app.worker.createOutboxWorker({ db: app.prisma, pollIntervalMs: 50 });
    worker.start();
    await expect
      .poll(async () => (await app.prisma.outboxEvent.findFirstOrThrow()).status, {
        timeout: 5_000,
      })
      .toBe("delivering");
    await worker.stop();
    const row = await app.prisma.outboxEvent.findFirstOrThrow();
    expect(row.status).toBe("delivered");
    expect(await placements()).toEqual([1]);
  });

  it("runs as npm run worker, delivers, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "info",
        SVC_OUTBOX_POLL_MS: "100",
        SVC_OUTBOX_WORKER: "off",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      await expect.poll(placements, { timeout: 20_000, interval: 100 }).toEqual([1]);
      expect(output).toContain("Outbox worker started");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(output).toContain("Outbox worker stopped");
    expect((await app.prisma.outboxEvent.findFirstOrThrow()).status).toBe("delivered");
  }, 30_000);
});
