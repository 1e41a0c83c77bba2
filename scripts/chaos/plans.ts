// npm run chaos:plans -- [--orders 500] [--seed 7] [--workers 2] [--concurrency 8]
//                        [--edits true] [--fulfil true] [--settle-timeout-s 600]
// npm run test:chaos:plans (the CI size)
//
// Plans follow their products (issue 16), under fire: the built web server and worker processes
// on a throwaway PostgreSQL database, against the local Shopify store and the protection-service
// emulator. A merchant places orders with plans and, at random, fulfils, refunds, edits and
// cancels them in the store, while this script sends webhooks twice, kills workers and the web
// server, answers the app's Admin API calls with 5xx (before Shopify acted, and after it did, so
// the app cannot know the outcome), and empties the shop's API bucket. Then it judges the
// store's orders and the service's events: 0 double refunds, 0 plans left without their
// product, 0 duplicate service events, order_placed first. What it does and why:
// docs/reliability.md.

import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { createSecretBox } from "../../app/crypto/secret-box.server";
import { createPrismaClient, type AppPrismaClient } from "../../app/db/client.server";
import { parseWebhookJson } from "../../app/lib/json";
import { migrateDatabase } from "../../app/db/migrate.server";
import { saveConnectionKeys } from "../../app/models/ShopConnection.server";
import { PROTECTED_PRODUCT_REF_PROPERTY } from "../../app/orders";
import { startEmulator } from "../../emulator/server";
import type { RecordedRequest } from "../../emulator/state";
import type { Order } from "../../store/model";
import { startStore, type RunningStore } from "../../store/server/server";
import { lineItemQuantities } from "../../store/state";
import { createThrowawayDatabase } from "../../test/support/databases";
import { ensureBuild, freePort, servingPid, waitForHealthy } from "../bench/processes";
import { BenchmarkError, positiveInteger } from "../bench/stats";
import {
  ROOT,
  exitOf,
  onCleanUp,
  runChaos,
  say,
  spawnWeb,
  spawnWorker,
  type Cluster,
  type ClusterBase,
} from "./cluster";
import { seededRandom } from "./scenario";
import { judgePlans, judgeServiceEvents, type EndedOrder } from "./plans-verdict";

const SHOP = "svc-plans-chaos.myshopify.com";
const SANDBOX_KEY = "sk_test_svc_plans_chaos";
const LIVE_KEY = "sk_live_svc_plans_chaos";
const API_KEY = "svc-plans-chaos-client-id";
const APP_REFUND_NOTE = "svc-protection: plan refunded with its product";
/** Shopify's webhook retries, shortened: the store re-sends what the killed web server lost. */
const WEBHOOK_RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 60_000];

const options = parseArgs({
  options: {
    orders: { type: "string", default: "500" },
    seed: { type: "string", default: "7" },
    workers: { type: "string", default: "2" },
    concurrency: { type: "string", default: "8" },
    edits: { type: "string", default: "true" },
    fulfil: { type: "string", default: "true" },
    "settle-timeout-s": { type: "string", default: "600" },
  },
}).values;

const integerOption = (name: keyof typeof options, minimum: number) =>
  positiveInteger(name, options[name], minimum);

function booleanOption(name: "edits" | "fulfil"): boolean {
  const value = options[name];
  if (value !== "true" && value !== "false") {
    throw new BenchmarkError(`--${name} must be true or false, not ${String(value)}`);
  }
  return value === "true";
}

// ---------------------------------------------------------------------------------------------
// The app's Admin API calls, through a proxy that fails some of them

interface AdminFaults {
  /** Share of GraphQL calls answered 503 before the store sees them. */
  beforeRate: number;
  /** Share answered 502 after the store acted: the app cannot know what happened. */
  afterRate: number;
  /** Until then, every GraphQL call is answered 503. */
  outageUntil: number;
  counts: { calls: number; before: number; after: number; outage: number };
}

async function readBody(request: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function startAdminProxy(store: RunningStore, faults: AdminFaults, random: () => number) {
  const server = http.createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const graphql = request.method === "POST" && /\/graphql\.json$/.test(request.url ?? "");
      if (graphql) faults.counts.calls += 1;
      const fail = (status: number) => {
        response.writeHead(status, { "content-type": "text/plain" });
        response.end(`chaos: ${status}`);
      };
      if (graphql && Date.now() < faults.outageUntil) {
        faults.counts.outage += 1;
        return fail(503);
      }
      if (graphql && random() < faults.beforeRate) {
        faults.counts.before += 1;
        return fail(503);
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (name === "host" || name === "content-length" || value === undefined) continue;
        headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const answer = await fetch(`${store.url}${request.url ?? "/"}`, {
        method: request.method,
        headers,
        body: body.length ? new Uint8Array(body) : undefined,
        redirect: "manual",
      });
      const text = Buffer.from(await answer.arrayBuffer());
      if (graphql && random() < faults.afterRate) {
        faults.counts.after += 1;
        return fail(502);
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "content-encoding") out[name] = value;
      });
      response.writeHead(answer.status, out);
      response.end(text);
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------------------------------------
// Processes

// ---------------------------------------------------------------------------------------------
// The merchant, in the store's admin (its control API)

interface ControlAnswer {
  status: number;
  text: string;
  body: Record<string, unknown>;
}

async function control(store: RunningStore, route: string, body?: unknown): Promise<ControlAnswer> {
  const answer = await fetch(`${store.url}/__store/${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  let parsed: Record<string, unknown> = {};
  try {
    // IDs above 2^53, read losslessly as the app reads webhooks.
    parsed = parseWebhookJson(text) as Record<string, unknown>;
  } catch {
    // Not JSON: the status tells.
  }
  return { status: answer.status, text, body: parsed };
}

async function mustControl(store: RunningStore, route: string, body?: unknown) {
  const answer = await control(store, route, body);
  if (answer.status >= 300) {
    throw new BenchmarkError(`Store control ${route} answered ${answer.status}: ${answer.text}`);
  }
  return answer;
}

interface Catalogue {
  products: string[];
  plans: string[];
}

interface MerchantStats {
  orders: number;
  fulfilments: number;
  refunds: number;
  edits: number;
  cancels: number;
  refused: number;
  duplicates: number;
}

interface Merchant {
  store: RunningStore;
  random: () => number;
  catalogue: Catalogue;
  stats: MerchantStats;
  edits: boolean;
  /** Sends a webhook body again, as Shopify sometimes does: signed, under a new delivery ID. */
  duplicate(topic: string, body: string): Promise<void>;
}

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;
const between = (random: () => number, low: number, high: number) =>
  low + Math.floor(random() * (high - low + 1));

/** One order with plans: 1 or 2 protected products, sometimes two plan lines for one, sometimes an unprotected one. */
function orderLines(merchant: Merchant) {
  const { random, catalogue } = merchant;
  const lines: Record<string, unknown>[] = [];
  const products = [...catalogue.products]
    .sort(() => random() - 0.5)
    .slice(0, between(random, 1, 2));
  for (const product of products) {
    const quantity = between(random, 1, 3);
    lines.push({ variant_id: product, quantity });
    const plan = (variant: string, units: number) => ({
      variant_id: variant,
      quantity: units,
      requires_shipping: false,
      properties: [{ name: PROTECTED_PRODUCT_REF_PROPERTY, value: product }],
    });
    if (quantity >= 2 && random() < 0.2) {
      lines.push(plan(catalogue.plans[0]!, 1), plan(catalogue.plans[1]!, quantity - 1));
    } else {
      lines.push(plan(pick(random, catalogue.plans), quantity));
    }
  }
  if (random() < 0.1) {
    const extra = catalogue.products.find((product) => !products.includes(product));
    if (extra) lines.push({ variant_id: extra, quantity: 1 });
  }
  return lines;
}

const isPlanLine = (line: Order["lineItems"][number]) =>
  line.properties.some((property) => property.name === PROTECTED_PRODUCT_REF_PROPERTY);

function productLines(order: Order) {
  return order.lineItems
    .filter((line) => !isPlanLine(line))
    .map((line) => ({ line, quantities: lineItemQuantities(order, line.id)! }));
}

/** The merchant's next step on an order, chosen from what the order holds now; null: done. */
async function merchantStep(merchant: Merchant, orderId: string): Promise<boolean> {
  const { store, random, stats } = merchant;
  const order = store.state.order(SHOP, orderId);
  if (!order || order.cancelledAt) return false;
  const products = productLines(order);
  const roll = random();
  const route = `shops/${SHOP}/orders/${orderId}`;
  let answer: ControlAnswer | null = null;
  let topic = "";
  if (roll < 0.3) {
    const open = products.filter(({ quantities }) => quantities.fulfillable > 0);
    if (!open.length) return true;
    const { line, quantities } = pick(random, open);
    answer = await control(store, `${route}/fulfillments`, {
      line_items: [{ id: line.id, quantity: between(random, 1, quantities.fulfillable) }],
    });
    topic = "fulfillments/create";
    if (answer.status < 300) stats.fulfilments += 1;
  } else if (roll < 0.62) {
    const refundable = products.filter(({ quantities }) => quantities.refundable > 0);
    if (!refundable.length) return true;
    const { line, quantities } = pick(random, refundable);
    const quantity = between(random, 1, quantities.refundable);
    // Units not fulfilled yet may be cancelled; shipped ones come back or stay with the buyer.
    const restockType =
      quantities.unfulfilledUnrefunded >= quantity && random() < 0.5 ? "cancel" : "no_restock";
    answer = await control(store, `${route}/refunds`, {
      refund_line_items: [{ line_item_id: line.id, quantity, restock_type: restockType }],
    });
    topic = "refunds/create";
    if (answer.status < 300) stats.refunds += 1;
  } else if (roll < 0.8) {
    if (!merchant.edits) return true;
    const editable = products.filter(({ quantities }) => quantities.fulfillable > 0);
    if (!editable.length) return true;
    const { line, quantities } = pick(random, editable);
    const removed = between(random, 1, quantities.fulfillable);
    answer = await control(store, `${route}/edits`, {
      set_quantities: [{ line_item_id: line.id, quantity: quantities.current - removed }],
    });
    topic = "orders/edited";
    if (answer.status < 300) stats.edits += 1;
  } else if (roll < 0.86) {
    answer = await control(store, `${route}/cancel`, {
      reason: "customer",
      refund: random() < 0.5,
      restock: true,
    });
    topic = "orders/cancelled";
    if (answer.status < 300) stats.cancels += 1;
    if (answer.status < 300) return false;
  } else {
    return false;
  }
  if (answer.status >= 300) {
    // The app's own action got there first (a plan fulfilled, an edit in progress): Shopify
    // refuses the merchant's as it would; the merchant moves on.
    stats.refused += 1;
    return true;
  }
  if (random() < 0.1) await merchant.duplicate(topic, answer.text);
  return true;
}

async function merchantOrder(merchant: Merchant) {
  const { store, random, stats } = merchant;
  const placed = await mustControl(store, `shops/${SHOP}/orders`, {
    line_items: orderLines(merchant),
  });
  stats.orders += 1;
  const orderId = String(placed.body.id);
  if (random() < 0.1) await merchant.duplicate("orders/create", placed.text);
  for (let step = 0; step < 4; step += 1) {
    // Webhook timestamps are to the second: steps of one order are a second apart at least.
    await sleep(1_000 + random() * 2_000);
    if (!(await merchantStep(merchant, orderId))) break;
  }
}

// ---------------------------------------------------------------------------------------------
// Waiting for the dust to settle

async function openWork(db: AppPrismaClient) {
  const [outbox, actions] = await Promise.all([
    db.outboxEvent.count({
      where: { shop: SHOP, status: { in: ["pending", "failed", "delivering"] } },
    }),
    db.shopifyAction.count({
      where: { shop: SHOP, status: { in: ["pending", "failed", "running"] } },
    }),
  ]);
  return { outbox, actions };
}

async function settle(store: RunningStore, db: AppPrismaClient, limitMs: number) {
  const deadline = performance.now() + limitMs;
  let quietRounds = 0;
  let lastReport = 0;
  while (performance.now() < deadline) {
    const idle = await control(store, "webhooks/idle?timeout_ms=5000");
    const open = await openWork(db);
    if (idle.status === 200 && open.outbox === 0 && open.actions === 0) {
      // Quiet twice in a row: an action's own webhook may still be on its way.
      quietRounds += 1;
      if (quietRounds >= 3) return true;
    } else quietRounds = 0;
    if (performance.now() - lastReport > 10_000) {
      say(`settling: ${JSON.stringify(open)}, webhooks idle: ${idle.status === 200}`);
      lastReport = performance.now();
    }
    await sleep(1_000);
  }
  return false;
}

function endedOrders(store: RunningStore): EndedOrder[] {
  return store.state.orders(SHOP).map((order) => ({
    id: String(order.id),
    name: order.name,
    cancelled: order.cancelledAt !== null,
    lines: order.lineItems.map((line) => {
      const quantities = lineItemQuantities(order, line.id)!;
      const protects =
        line.properties.find((property) => property.name === PROTECTED_PRODUCT_REF_PROPERTY)
          ?.value ?? null;
      return {
        id: String(line.id),
        variantId: line.variantId === null ? null : String(line.variantId),
        protects,
        placed: line.quantity,
        ordered: quantities.ordered,
        refunded: quantities.refunded,
        fulfilled: quantities.fulfilled,
        fulfillable: quantities.fulfillable,
      };
    }),
    refunds: order.refunds.map((refund) => ({
      id: String(refund.id),
      note: refund.note,
      lines: refund.lines.map((line) => ({
        lineItemId: String(line.lineItemId),
        quantity: line.quantity,
        restockType: line.restockType,
      })),
    })),
    fulfilments: order.fulfillments.length,
    editsRemovingUnits: order.edits.filter(
      (edit) => edit.committedAt !== null && edit.lineItemChanges.removals.length > 0,
    ).length,
  }));
}

async function emulatorRequests(url: string): Promise<RecordedRequest[]> {
  const response = await fetch(`${url}__emulator/requests`);
  return ((await response.json()) as { requests: RecordedRequest[] }).requests;
}

async function countBy(db: AppPrismaClient, table: "ShopifyAction" | "OutboxEvent") {
  const rows = await db.$queryRawUnsafe<{ key: string; count: bigint | number }[]>(
    table === "ShopifyAction"
      ? `SELECT "kind" || ':' || "status" AS "key", COUNT(*) AS "count" FROM "ShopifyAction" WHERE "shop" = $1 GROUP BY 1 ORDER BY 1`
      : `SELECT "status" AS "key", COUNT(*) AS "count" FROM "OutboxEvent" WHERE "shop" = $1 GROUP BY 1 ORDER BY 1`,
    SHOP,
  );
  return Object.fromEntries(rows.map((row) => [row.key, Number(row.count)]));
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const orderCount = integerOption("orders", 1);
  const seed = integerOption("seed", 0);
  const workerCount = integerOption("workers", 1);
  const concurrency = integerOption("concurrency", 1);
  const settleLimitMs = integerOption("settle-timeout-s", 1) * 1000;
  const edits = booleanOption("edits");
  const fulfil = booleanOption("fulfil");
  const random = seededRandom(seed);
  ensureBuild(ROOT, say);

  const database = await createThrowawayDatabase("postgresql");
  onCleanUp(() => database.drop());
  await migrateDatabase(database.url);
  const db = createPrismaClient(database.url);
  onCleanUp(() => db.$disconnect());
  const emulator = await startEmulator({
    sandboxKey: SANDBOX_KEY,
    liveKey: LIVE_KEY,
    port: 0,
    host: "127.0.0.1",
  });
  onCleanUp(() => emulator.close());
  const store = await startStore({
    port: 0,
    host: "127.0.0.1",
    retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
  });
  onCleanUp(() => store.close());
  const faults: AdminFaults = {
    beforeRate: 0,
    afterRate: 0,
    outageUntil: 0,
    counts: { calls: 0, before: 0, after: 0, outage: 0 },
  };
  const proxy = await startAdminProxy(store, faults, seededRandom(seed + 1));
  onCleanUp(() => proxy.close());

  const encryptionKey = randomBytes(32).toString("base64");
  const apiSecret = randomBytes(24).toString("hex");
  const port = await freePort();
  const logDir = mkdtempSync(path.join(os.tmpdir(), "svc-plans-chaos-"));
  const appUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    // The local store is refused in production (decision 021).
    NODE_ENV: "development",
    LOG_LEVEL: "info",
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: apiSecret,
    // No load balancer in front to see /readyz turn 503: a stop need not wait for one.
    SVC_SHUTDOWN_DELAY_MS: "0",
    SHOPIFY_APP_URL: appUrl,
    SHOPIFY_ADMIN_ORIGIN: proxy.url,
    DATABASE_URL: database.url,
    SVC_ENCRYPTION_KEY: encryptionKey,
    SVC_BASE_URL: emulator.url,
    SVC_OUTBOX_WORKER: "off",
    SVC_OUTBOX_POLL_MS: "200",
  };
  const base: ClusterBase = { env, port, logDir };
  say(`logs: ${logDir}`);
  const cluster: Cluster = { ...base, web: spawnWeb(base, 0), workers: [], restarts: 0 };
  onCleanUp(async () => {
    await Promise.all([cluster.web, ...cluster.workers].map((app) => app.stop()));
  });
  await waitForHealthy(port, cluster.web, 120_000, logDir);

  await mustControl(store, "shops", {
    shop: SHOP,
    app_url: appUrl,
    api_key: API_KEY,
    api_secret: apiSecret,
  });
  await mustControl(store, `shops/${SHOP}/install`, {});
  const box = createSecretBox([Buffer.from(encryptionKey, "base64")]);
  await saveConnectionKeys(db, box, SHOP, {
    environment: "sandbox",
    sandboxSecretKey: SANDBOX_KEY,
    liveSecretKey: LIVE_KEY,
  });
  await db.shopConnection.update({
    where: { shop: SHOP },
    data: { autoRefundPlans: true, autoEditPlans: edits, autoFulfilPlans: fulfil },
  });
  const product = async (title: string, prices: string[], shipping = true) => {
    const created = await mustControl(store, `shops/${SHOP}/products`, {
      title,
      variants: prices.map((price, n) => ({
        title: prices.length > 1 ? `${n + 2} years` : "Default Title",
        price,
        requires_shipping: shipping,
      })),
    });
    return (created.body.variants as { id: unknown }[]).map((variant) => String(variant.id));
  };
  const catalogue: Catalogue = { products: [], plans: [] };
  for (const [title, price] of [
    ["Laptop", "999.00"],
    ["Camera", "499.00"],
    ["Headphones", "199.00"],
  ] as const) {
    catalogue.products.push(...(await product(title, [price])));
  }
  catalogue.plans = await product("Accident protection", ["49.00", "79.00"], false);
  if (catalogue.products.length !== 3 || catalogue.plans.length !== 2) {
    throw new BenchmarkError(
      `Failed to read the products' variant IDs: ${JSON.stringify(catalogue)}`,
    );
  }
  for (let n = 0; n < workerCount; n += 1) cluster.workers.push(spawnWorker(base, `worker-${n}`));
  say(
    `web server on port ${port}, ${workerCount} workers, store at ${store.url} (Admin API through ${proxy.url}), emulator at ${emulator.url}`,
  );

  const stats: MerchantStats = {
    orders: 0,
    fulfilments: 0,
    refunds: 0,
    edits: 0,
    cancels: 0,
    refused: 0,
    duplicates: 0,
  };
  const merchant: Merchant = {
    store,
    random,
    catalogue,
    stats,
    edits,
    async duplicate(topic, body) {
      stats.duplicates += 1;
      await fetch(`http://127.0.0.1:${cluster.port}/webhooks/${topic}`, {
        method: "POST",
        headers: shopifyWebhookHeaders({
          topic,
          shop: SHOP,
          body,
          secret: apiSecret,
          webhookId: randomBytes(16).toString("hex"),
          eventId: randomBytes(16).toString("hex"),
        }),
        body,
      }).catch(() => undefined);
    },
  };

  faults.beforeRate = 0.03;
  faults.afterRate = 0.03;
  const faultLog: string[] = [];
  const faultAt = (share: number, name: string, run: () => Promise<string>) => ({
    at: Math.floor(orderCount * share),
    name,
    run,
  });
  const killWorker = async () => {
    const index = Math.floor(random() * cluster.workers.length);
    const victim = cluster.workers[index]!;
    process.kill(victim.pid, "SIGKILL");
    await exitOf(victim);
    cluster.restarts += 1;
    cluster.workers[index] = spawnWorker(base, `worker-${index}-restart-${cluster.restarts}`);
    return `worker pid ${victim.pid} killed; restarted`;
  };
  const steps = [
    faultAt(0.2, "kill -9 of a worker", killWorker),
    faultAt(0.35, "Admin API outage", async () => {
      faults.outageUntil = Date.now() + 8_000;
      return "every Admin GraphQL call answered 503 for 8 s";
    }),
    faultAt(0.5, "kill -9 of the web process", async () => {
      const serving = servingPid(cluster.web);
      process.kill(serving, "SIGKILL");
      await exitOf(cluster.web);
      cluster.restarts += 1;
      cluster.web = spawnWeb(base, cluster.restarts);
      await waitForHealthy(port, cluster.web, 120_000, logDir);
      return `web server pid ${serving} killed with webhooks in flight; restarted (the store re-sends)`;
    }),
    faultAt(0.65, "kill -9 of a worker, again", killWorker),
    faultAt(0.8, "kill -9 of a worker, a third time", killWorker),
  ];

  let throttles = 0;
  const running = new Set<Promise<void>>();
  for (let n = 0; n < orderCount; n += 1) {
    while (steps.length && n >= steps[0]!.at) {
      const step = steps.shift()!;
      const line = `${step.name}: ${await step.run()}`;
      faultLog.push(line);
      say(`fault: ${line}`);
    }
    if (n > 0 && n % 40 === 0) {
      await mustControl(store, `shops/${SHOP}/throttle`, { available: 0 });
      throttles += 1;
    }
    while (running.size >= concurrency) await Promise.race(running);
    const run: Promise<void> = merchantOrder(merchant)
      .catch((error: unknown) => {
        say(`merchant failed: ${error instanceof Error ? error.message : String(error)}`);
        stats.refused += 1;
      })
      .then(() => {
        running.delete(run);
      });
    running.add(run);
    if (n % 50 === 49) say(`${n + 1} orders placed`);
  }
  await Promise.all(running);
  faults.beforeRate = 0;
  faults.afterRate = 0;
  faultLog.push(`shop's API bucket emptied ${throttles} times`);
  say("every merchant action done; waiting for the app to settle");
  const settled = await settle(store, db, settleLimitMs);

  const ended = endedOrders(store);
  const plans = judgePlans(ended, {
    appRefundNote: APP_REFUND_NOTE,
    fulfilsPlans: fulfil,
  });
  const service = judgeServiceEvents(ended, await emulatorRequests(emulator.url));
  const actions = await countBy(db, "ShopifyAction");
  const outbox = await countBy(db, "OutboxEvent");
  const suspectRows = await db.shopifyAction.findMany({
    where: { shop: SHOP, orderId: { in: plans.orderIds.slice(0, 5) } },
    select: {
      orderId: true,
      kind: true,
      status: true,
      triggerId: true,
      detail: true,
      lastError: true,
    },
    orderBy: { id: "asc" },
  });
  const deadRows = await db.shopifyAction.findMany({
    where: { shop: SHOP, status: "dead" },
    select: { kind: true, orderId: true, lastError: true },
    take: 10,
  });
  const deadActions = Object.entries(actions)
    .filter(([key]) => key.endsWith(":dead"))
    .reduce((sum, [, count]) => sum + count, 0);

  console.log(
    [
      "",
      `Plan chaos run: seed ${seed}, ${stats.orders} orders, ${workerCount} worker processes + 1 web process, PostgreSQL, edits ${edits ? "on" : "off"}, fulfilment ${fulfil ? "on" : "off"}`,
      `Merchant: ${stats.fulfilments} fulfilments, ${stats.refunds} refunds, ${stats.edits} edits, ${stats.cancels} cancels, ${stats.refused} refused by the store, ${stats.duplicates} webhooks sent twice`,
      `Admin API: ${faults.counts.calls} GraphQL calls; ${faults.counts.before} answered 503 before the store, ${faults.counts.after} answered 502 after it acted, ${faults.counts.outage} in the outage`,
      "Faults:",
      ...faultLog.map((line) => `  - ${line}`),
      `Shopify actions: ${JSON.stringify(actions)}`,
      `Outbox: ${JSON.stringify(outbox)}${settled ? "" : " (NOT settled within the time limit)"}`,
      "",
      `Plan refunds made by the app:           ${plans.appRefunds}`,
      `Double refunds:                         ${plans.doubleRefunds}`,
      `Plans left without their product:       ${plans.missedPlanRefunds}`,
      `Plans refunded beyond their product:    ${plans.overRefunded}`,
      `Plan fulfilments off their product:     ${plans.fulfilmentMismatches}`,
      `Service events expected, stored:        ${service.expectedEvents}, ${service.storedEvents}`,
      `Service events lost:                    ${service.lostEvents}`,
      `Duplicate service events:               ${service.duplicateEvents}`,
      `Re-sent, answer lost, same key:          ${service.resentAfterUnknownOutcome} (allowed)`,
      `Orders with order_placed first:         ${service.orders - service.ordersNotPlacedFirst} of ${service.orders}`,
      ...(plans.examples.length || service.examples.length
        ? ["Examples:", ...[...plans.examples, ...service.examples].map((e) => `  - ${e}`)]
        : []),
      ...deadRows.map((row) => `Dead: ${row.kind} of order ${row.orderId}: ${row.lastError}`),
      ...ended
        .filter((order) => plans.orderIds.slice(0, 5).includes(order.id))
        .flatMap((order) =>
          order.lines.map(
            (line) =>
              `Line of ${order.name}: ${line.id} ${line.protects ? `plan of ${line.protects}` : `variant ${line.variantId}`}: placed ${line.placed}, ordered ${line.ordered}, refunded ${line.refunded}, fulfilled ${line.fulfilled}, fulfillable ${line.fulfillable}`,
          ),
        ),
      ...suspectRows.map(
        (row) =>
          `Action of order ${row.orderId}: ${row.kind} (trigger ${row.triggerId}) ${row.status}: ${row.detail ?? row.lastError}`,
      ),
    ].join("\n"),
  );
  const checks: [string, boolean][] = [
    ["the app settled within the time limit", settled],
    ["0 double refunds", plans.doubleRefunds === 0],
    ["0 missed plan refunds or reductions", plans.missedPlanRefunds === 0],
    ["0 plans refunded beyond their product", plans.overRefunded === 0],
    ["0 plan fulfilments off their product", plans.fulfilmentMismatches === 0],
    ["0 dead Shopify actions", deadActions === 0],
    ["0 service events lost", service.lostEvents === 0],
    [
      "0 duplicate service events but re-sends of an unknown outcome with the same key",
      service.duplicateEvents === 0,
    ],
    ["order_placed first in every order", service.ordersNotPlacedFirst === 0],
    ["every order reached the service", service.orders === stats.orders],
  ];
  console.log("");
  for (const [name, ok] of checks) console.log(`${ok ? "PASS" : "FAIL"}  ${name}`);
  const failed = checks.filter(([, ok]) => !ok).length;
  console.log(`\n${checks.length - failed} passed, ${failed} failed`);
  if (failed) console.log(`Logs of the web server and the workers: ${logDir}`);
  return failed ? 1 : 0;
}

await runChaos("Plan chaos run", main);
