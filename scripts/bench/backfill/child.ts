// The app's side of the backfill benchmark, in a process of its own so that its memory is its
// own: it asks for a backfill and steps it as the worker does until it is finished, sampling its
// memory. Started by scripts/bench/backfill/main.ts with the app's configuration in the
// environment; prints one JSON line.

import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

const shop = process.env.BENCH_SHOP ?? "";
const since = new Date(process.env.BENCH_SINCE ?? "");

const { default: db } = await import("../../../app/db.server");
const { offlineAdminFor } = await import("../../../app/workers.server");
const { requestBackfill } = await import("../../../app/models/ReconcileState.server");
const { stepBackfill } = await import("../../../app/reconcile/backfill.server");
const { reconcileSettingsOf } = await import("../../../app/reconcile/run.server");
const { parseReconcileEnv } = await import("../../../app/env.server");

let peakHeap = 0;
let peakRss = 0;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peakHeap = Math.max(peakHeap, usage.heapUsed);
  peakRss = Math.max(peakRss, usage.rss);
}, 20);

const baseline = process.memoryUsage();
const admin = await offlineAdminFor(shop);
if (!admin) throw new Error(`${shop} has no offline session`);
const started = performance.now();
const request = await requestBackfill(db, shop, since, new Date());
if (!request.ok) throw new Error(`The backfill was refused: ${request.reason}`);
const deps = { db, admin, settings: reconcileSettingsOf(parseReconcileEnv(process.env)) };
let steps = 0;
let streamingMs = 0;
for (;;) {
  steps += 1;
  const stepStart = performance.now();
  const step = await stepBackfill(deps, shop);
  if (step === "finished") {
    streamingMs = performance.now() - stepStart;
    break;
  }
  if (steps > 10_000) throw new Error("The backfill never finished");
  await sleep(100);
}
const totalMs = performance.now() - started;
clearInterval(sampler);
const state = await db.reconcileState.findUniqueOrThrow({ where: { shop } });
const events = await db.outboxEvent.count({ where: { shop } });
await db.$disconnect();
console.log(
  JSON.stringify({
    status: state.backfillStatus,
    detail: state.backfillDetail,
    orders: state.backfillOrdersDone,
    eventsRecovered: state.backfillEventsRecovered,
    outboxEvents: events,
    deferred: JSON.parse(state.deferredOrders).length,
    totalMs,
    streamingMs,
    baselineRss: baseline.rss,
    peakRss: Math.max(peakRss, process.resourceUsage().maxRSS * 1024),
    peakHeap,
  }),
);
