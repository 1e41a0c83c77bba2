import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { EXIT, parseCommandLine, UsageError } from "../../app/cli/args";
import { runCommand } from "../../app/cli/commands.server";
import type { FleetStats } from "../../app/cli/stats.server";
import prisma from "../../app/db.server";
import { testDatabaseProvider } from "../support/databases";
import { repoRoot } from "../support/test-env";

// `npm run svc -- stats` (issue 28, decision 049): every shop in one view, and an exit code a
// cron job can alert on.

const provider = testDatabaseProvider();
const MINUTE_MS = 60_000;

async function svc(argv: string[]) {
  const command = parseCommandLine(argv);
  if (command instanceof UsageError || command.name === "help") throw new Error(argv.join(" "));
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCommand(command, {
    db: prisma,
    env: { ...process.env },
    out: (line) => stdout.push(line),
    err: (message) => stderr.push(message),
  });
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}

let seq = 0;
async function seedEvent(shop: string, status: string, createdAt = new Date()) {
  seq += 1;
  return prisma.outboxEvent.create({
    data: {
      shop,
      environment: "sandbox",
      orderId: `90${seq}`,
      eventType: "order_placed",
      dedupeKey: `order:90${seq}:placed`,
      payload: "{}",
      status,
      createdAt,
    },
  });
}

async function seedConnection(shop: string, fields: Record<string, unknown> = {}) {
  return prisma.shopConnection.create({ data: { shop, status: "connected", ...fields } });
}

describe(`svc stats on ${provider}`, () => {
  it("exits 0 and lists every shop's counts when nothing needs attention", async () => {
    await seedConnection("calm-a.myshopify.com");
    await seedConnection("calm-b.myshopify.com");
    await seedEvent("calm-a.myshopify.com", "pending");
    await seedEvent("calm-a.myshopify.com", "failed");
    await seedEvent("calm-a.myshopify.com", "delivered");
    await prisma.reconcileRun.create({
      data: {
        shop: "calm-b.myshopify.com",
        trigger: "schedule",
        status: "completed",
        since: new Date(),
        finishedAt: new Date(),
      },
    });

    const table = await svc(["stats"]);
    expect(table.code).toBe(EXIT.ok);
    expect(table.stderr).toBe("");
    const lines = table.stdout.split("\n");
    expect(lines[0]).toMatch(/^SHOP\s+STATUS\s+PENDING\s+FAILED\s+DEAD\s+OLDEST PENDING/);
    expect(lines.find((line) => line.startsWith("calm-a"))).toMatch(
      /^calm-a\.myshopify\.com\s+connected\s+1\s+1\s+0\s+\d+s\s+-\s+-\s+-$/,
    );
    expect(lines.find((line) => line.startsWith("calm-b"))).toMatch(/completed\s+-$/);

    const json = await svc(["stats", "--json"]);
    expect(json.code).toBe(EXIT.ok);
    const stats = JSON.parse(json.stdout) as FleetStats;
    expect(stats.needsAttention).toBe(false);
    expect(stats.shops.find((shop) => shop.shop === "calm-a.myshopify.com")).toMatchObject({
      pending: 1,
      failed: 1,
      dead: 0,
      paused: [],
      lastReconciliation: null,
      attention: [],
    });
    expect(stats.shops.find((shop) => shop.shop === "calm-b.myshopify.com")).toMatchObject({
      pending: 0,
      oldestPendingAt: null,
      lastReconciliation: { status: "completed" },
    });
  });

  it("exits 5, naming why, for a dead event, a paused connection, an old pending event and a failed reconciliation", async () => {
    await seedEvent("dead.myshopify.com", "dead");
    await seedConnection("paused.myshopify.com", {
      status: "key_rejected",
      sandboxKeyRejectedAt: new Date(),
    });
    await seedConnection("slow.myshopify.com");
    await seedEvent("slow.myshopify.com", "pending", new Date(Date.now() - 20 * MINUTE_MS));
    await seedConnection("lost.myshopify.com");
    await prisma.reconcileRun.create({
      data: {
        shop: "lost.myshopify.com",
        trigger: "schedule",
        status: "completed",
        since: new Date(Date.now() - 60 * MINUTE_MS),
        startedAt: new Date(Date.now() - 60 * MINUTE_MS),
      },
    });
    await prisma.reconcileRun.create({
      data: {
        shop: "lost.myshopify.com",
        trigger: "schedule",
        status: "failed",
        since: new Date(),
        detail: "Shopify answered 503",
      },
    });

    const table = await svc(["stats"]);
    expect(table.code).toBe(EXIT.needsAttention);
    expect(table.stderr).toBe("4 shops need attention");
    expect(table.stdout).toMatch(/^dead\.myshopify\.com .*1 dead event$/m);
    expect(table.stdout).toMatch(/^paused\.myshopify\.com .*delivery paused \(sandbox\)$/m);
    expect(table.stdout).toMatch(/^slow\.myshopify\.com .*oldest pending event 20 min old/m);
    expect(table.stdout).toMatch(/^lost\.myshopify\.com .*failed\s+last reconciliation failed$/m);

    const json = JSON.parse((await svc(["stats", "--json"])).stdout) as FleetStats;
    expect(json.needsAttention).toBe(true);
    expect(json.shops.find((shop) => shop.shop === "lost.myshopify.com")).toMatchObject({
      lastReconciliation: { status: "failed", detail: "Shopify answered 503" },
    });
    // A longer threshold forgives the slow shop, not the dead event.
    const lenient = JSON.parse((await svc(["stats", "--json", "--pending-minutes", "30"])).stdout);
    expect(
      (lenient as FleetStats).shops.find((shop) => shop.shop === "slow.myshopify.com")?.attention,
    ).toEqual([]);
  });

  it("npm run svc -- stats exits 5 while an event is dead", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/svc.ts", "stats"], {
      cwd: repoRoot,
      env: { ...process.env },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.stderr).toContain("svc: 4 shops need attention");
    expect(result.status).toBe(5);
  });
});
