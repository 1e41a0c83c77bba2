import { spawn } from "node:child_process";
import { beforeEach, describe, expect, it } from "vitest";
import { nodeArgsOfNpmScript } from "../../scripts/bench/processes";
import { testDatabaseProvider } from "../support/databases";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { repoRoot } from "../support/test-env";

// The worker's life: leases that outlive a crashed worker, graceful stops, and the
// standalone `npm run worker` process.

const provider = testDatabaseProvider();
const SHOP = "worker-store.myshopify.com";

const app = withOutboxApp();

beforeEach(async () => {
  await app.control.reset();
  await app.prisma.outboxEvent.deleteMany({});
  await app.prisma.webhookReceipt.deleteMany({});
  await connectShop(app.prisma, SHOP);
  const answer = await app.webhooks.sendOrderWebhook({
    topic: "orders/create",
    shop: SHOP,
    body: app.webhooks.readLifecycleFixture("orders-create.json"),
  });
  expect(answer.status).toBe(200);
});

async function placements() {
  const state = await app.control.state("sandbox");
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

  it("backs off from an event it cannot read instead of spinning on it", async () => {
    await app.prisma.outboxEvent.updateMany({ data: { payload: "{}" } });
    const worker = app.worker.createOutboxWorker({ db: app.prisma, workerId: "careful" });

    const first = await worker.runOnce();
    expect([...first.keys()]).toEqual(["retry"]);
    const row = await app.prisma.outboxEvent.findFirstOrThrow();
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/^Unexpected error: /);
    const [attempt] = await app.prisma.outboxAttempt.findMany({ where: { eventId: row.id } });
    expect(attempt).toMatchObject({ attempt: 1, outcome: "retry", httpStatus: null });
    expect(attempt?.detail).toMatch(/^Unexpected error: /);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    // Claimed again only when its retry is due, not in the next round.
    expect((await worker.runOnce()).size).toBe(0);
    expect(await placements()).toEqual([]);
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
    await app.control.control("faults", {
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
    const child = spawn(process.execPath, nodeArgsOfNpmScript(repoRoot, "worker"), {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: "production",
        // The test's local store is for its in-process routes; production refuses one.
        SHOPIFY_ADMIN_ORIGIN: undefined,
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
