import { beforeAll, describe, expect, it } from "vitest";
import type { AppPrismaClient } from "../../app/db/client.server";
import type * as CollectorModule from "../../app/metrics/collector.server";
import type * as RegistryModule from "../../app/metrics/registry.server";
import { testDatabaseProvider } from "../support/databases";

// The database gauges of the metrics (issue 28, decision 047): the collector's aggregate queries
// on each database, with exact counts, and the gauges they set.

const provider = testDatabaseProvider();
let db: AppPrismaClient;
let collector: typeof CollectorModule;
let registry: typeof RegistryModule;

const now = new Date("2026-11-28T12:00:00Z");
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
let nextId = 1;

async function event(shop: string, environment: string, status: string, createdAt = now) {
  const id = nextId++;
  await db.outboxEvent.create({
    data: {
      shop,
      environment,
      orderId: String(1000 + id),
      eventType: "order_placed",
      dedupeKey: `metrics-${id}`,
      payload: "{}",
      status,
      createdAt,
    },
  });
}

async function action(kind: string, status: string) {
  const id = nextId++;
  await db.shopifyAction.create({
    data: {
      shop: "a.myshopify.com",
      orderId: String(id),
      kind,
      triggerId: String(id),
      planLineId: "",
      triggerLines: "[]",
      status,
    },
  });
}

async function reconcileState(shop: string, recoveringRunsInARow: number) {
  await db.reconcileState.create({
    data: { shop, reportFrom: now, watermark: now, recoveringRunsInARow },
  });
}

describe(`the metrics' database gauges (${provider})`, () => {
  beforeAll(async () => {
    db = (await import("../../app/db.server")).default;
    collector = await import("../../app/metrics/collector.server");
    registry = await import("../../app/metrics/registry.server");
  });

  it("read nothing but zeros from an empty database", async () => {
    expect(await collector.readDatabaseGauges(db, now)).toEqual({
      outboxEvents: [],
      oldestPendingAgeSeconds: 0,
      deadEvents: 0,
      planActions: [],
      recoveringRunsInARow: 0,
    });
  });

  it("count events by status and environment, the oldest waiting one, dead events, actions and runs in a row", async () => {
    await event("a.myshopify.com", "sandbox", "delivered", minutesAgo(90));
    await event("a.myshopify.com", "sandbox", "delivered");
    await event("b.myshopify.com", "production", "delivered");
    // The oldest waiting event is a failed one, 30 minutes old; delivered ones are older.
    await event("a.myshopify.com", "sandbox", "failed", minutesAgo(30));
    await event("b.myshopify.com", "production", "pending", minutesAgo(5));
    await event("a.myshopify.com", "sandbox", "dead", minutesAgo(120));
    await event("b.myshopify.com", "production", "dead");
    await event("b.myshopify.com", "production", "dead");
    await action("refund_plan_line", "pending");
    await action("refund_plan_line", "pending");
    await action("fulfil_plan_line", "dead");
    await reconcileState("a.myshopify.com", 1);
    await reconcileState("b.myshopify.com", 3);
    await reconcileState("c.myshopify.com", 0);

    const gauges = await collector.readDatabaseGauges(db, now);
    const sorted = <T>(rows: T[]) =>
      [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    expect(sorted(gauges.outboxEvents)).toEqual(
      sorted([
        { status: "delivered", environment: "sandbox", count: 2 },
        { status: "delivered", environment: "live", count: 1 },
        { status: "failed", environment: "sandbox", count: 1 },
        { status: "pending", environment: "live", count: 1 },
        { status: "dead", environment: "sandbox", count: 1 },
        { status: "dead", environment: "live", count: 2 },
      ]),
    );
    expect(gauges.oldestPendingAgeSeconds).toBe(30 * 60);
    expect(gauges.deadEvents).toBe(3);
    expect(sorted(gauges.planActions)).toEqual(
      sorted([
        { kind: "refund_plan_line", state: "pending", count: 2 },
        { kind: "fulfil_plan_line", state: "dead", count: 1 },
      ]),
    );
    expect(gauges.recoveringRunsInARow).toBe(3);

    collector.setDatabaseGauges(gauges);
    const text = await registry.registry.metrics();
    expect(text).toContain('svc_outbox_events{status="dead",environment="live"} 2\n');
    expect(text).toContain('svc_outbox_events{status="unprocessable",environment="sandbox"} 0\n');
    expect(text).toContain("svc_outbox_oldest_pending_age_seconds 1800\n");
    expect(text).toContain("svc_outbox_dead_events 3\n");
    expect(text).toContain('svc_plan_actions{kind="refund_plan_line",state="pending"} 2\n');
    expect(text).toContain('svc_plan_actions{kind="edit_plan_line",state="dead"} 0\n');
    expect(text).toContain("svc_reconcile_recovering_runs_in_a_row 3\n");
  });
});
