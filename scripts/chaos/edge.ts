// npm run chaos:edge -- [--duration-s 30] [--seed 27]
// npm run test:chaos:edge (the CI size)
//
// The public edge under attack (issue 27; decisions 016 and 041). It starts the built server as
// `npm start` runs it, on a throwaway SQLite database, with the default limits, and throws at
// every public route (order, compliance and lifecycle webhooks, the app proxy, the buyer link
// routes, login) idle and trickling senders, partial bodies, floods of connections, bodies that
// fill the budget, and forged headers (a wrong HMAC, X-Forwarded-For, huge headers), from many
// loopback addresses. Meanwhile it sends correctly signed orders/create deliveries, some twice
// as Shopify re-sends, and checks /healthz. It exits 1 unless every signed delivery got 200
// within a second and was stored once, /healthz stayed fast, the server stayed up, and each
// attack was refused the way decision 041 says (edge-verdict.ts).

import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { shopifyWebhookHeaders } from "../../app/cli/sign-webhook";
import { createSecretBox } from "../../app/crypto/secret-box.server";
import { createPrismaClient } from "../../app/db/client.server";
import { migrateDatabase } from "../../app/db/migrate.server";
import { saveConnectionKeys } from "../../app/models/ShopConnection.server";
import { createThrowawayDatabase } from "../../test/support/databases";
import {
  ensureBuild,
  freePort,
  peakRssBytes,
  servingPid,
  waitForHealthy,
} from "../bench/processes";
import { positiveInteger } from "../bench/stats";
import { ROOT, onCleanUp, runChaos, say, spawnWeb } from "./cluster";
import {
  judgeEdge,
  type AttackOutcomes,
  type HealthCheck,
  type SignedDelivery,
} from "./edge-verdict";

const SHOP = "svc-edge-chaos.myshopify.com";
const MiB = 2 ** 20;

const options = parseArgs({
  options: {
    "duration-s": { type: "string", default: "30" },
    seed: { type: "string", default: "27" },
  },
}).values;

// ---------------------------------------------------------------------------------------------
// A seeded choice, so that a failing run can be repeated

let state = positiveInteger("seed", options.seed, 0) || 1;
function random(): number {
  // xorshift32
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
}
function pick<T>(items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

// ---------------------------------------------------------------------------------------------
// The public routes, and what an attacker sends them

interface Route {
  path: string;
  method: "GET" | "POST";
  /** The route's body cap (decision 016). */
  capBytes: number;
}

const ROUTES: readonly Route[] = [
  ...[
    "orders/create",
    "orders/edited",
    "orders/cancelled",
    "refunds/create",
    "fulfillments/create",
    "fulfillments/update",
  ].map((topic) => ({ path: `/webhooks/${topic}`, method: "POST" as const, capBytes: 8 * MiB })),
  ...[
    "customers/data_request",
    "customers/redact",
    "shop/redact",
    "app/uninstalled",
    "app/scopes_update",
  ].map((topic) => ({ path: `/webhooks/${topic}`, method: "POST" as const, capBytes: MiB })),
  { path: "/proxy/cart_updates", method: "POST", capBytes: 256 * 1024 },
  { path: "/proxy/plans", method: "GET", capBytes: 256 * 1024 },
  { path: "/api/checkout/protection-link", method: "POST", capBytes: MiB },
  { path: "/api/customer-account/protection-link", method: "POST", capBytes: MiB },
  { path: "/auth/login", method: "POST", capBytes: 16 * 1024 },
];
const BODY_ROUTES = ROUTES.filter((route) => route.method === "POST");

/** Loopback addresses the attackers send from: limits per address see many clients. */
function attackerAddress(first: number, count: number): string {
  return `127.0.0.${first + Math.floor(random() * count)}`;
}

const attacks: AttackOutcomes = {};
function record(attack: string, status: number) {
  const outcomes = (attacks[attack] ??= {});
  outcomes[String(status)] = (outcomes[String(status)] ?? 0) + 1;
}

const openSockets = new Set<net.Socket>();
let stopping = false;

interface RawPlan {
  attack: string;
  localAddress: string;
  head: string[];
  /** Writes the body (or part of it) on the open socket; resolves when it is done writing. */
  send?: (socket: net.Socket) => Promise<void>;
  /** Closes the connection after sending, instead of waiting for the server. */
  closeAfterSend?: boolean;
  endHeaders?: boolean;
}

/** One raw request: records the status of the server's answer (0: closed without one). */
async function rawRequest(port: number, plan: RawPlan): Promise<void> {
  const socket = await new Promise<net.Socket | null>((resolve) => {
    const connection = net.connect(
      { port, host: "127.0.0.1", localAddress: plan.localAddress },
      () => resolve(connection),
    );
    connection.once("error", () => resolve(null));
  });
  if (!socket) {
    record(plan.attack, -1);
    return;
  }
  openSockets.add(socket);
  let text = "";
  const answered = new Promise<number>((resolve) => {
    // The final answer: an interim "100 Continue" does not count.
    const final = () => text.replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, "");
    const statusOf = () => Number(/^HTTP\/1\.1 (\d{3})/.exec(final())?.[1] ?? 0);
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (final().includes("\r\n\r\n")) {
        resolve(statusOf());
        socket.destroy();
      }
    });
    socket.on("error", () => resolve(statusOf()));
    socket.once("close", () => resolve(statusOf()));
  });
  socket.write(`${plan.head.join("\r\n")}\r\n${plan.endHeaders === false ? "" : "\r\n"}`);
  await plan.send?.(socket).catch(() => undefined);
  if (plan.closeAfterSend) socket.destroy();
  record(plan.attack, await answered);
  openSockets.delete(socket);
}

function postHead(route: Route, contentLength: number, extra: string[] = []): string[] {
  return [
    `${route.method} ${route.path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${contentLength}`,
    ...extra,
  ];
}

/** Writes `total` bytes in `chunk`-sized pieces every `everyMs`, until done or stopped. */
function dripper(total: number, chunk: number, everyMs: number) {
  const piece = Buffer.alloc(chunk, 0x20);
  return async (socket: net.Socket) => {
    for (let sent = 0; sent < total && !stopping && !socket.destroyed; sent += chunk) {
      socket.write(piece.subarray(0, Math.min(chunk, total - sent)));
      await sleep(everyMs);
    }
  };
}

/** Keeps `concurrency` copies of `attack` running until the run stops. */
async function keepRunning(concurrency: number, attack: () => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stopping) {
        await attack().catch(() => undefined);
      }
    }),
  );
}

function attackers(port: number, orderBody: string): Promise<void>[] {
  const forgedHeaders = (body: string) =>
    Object.entries(
      shopifyWebhookHeaders({
        topic: "orders/create",
        shop: SHOP,
        body,
        secret: "an attacker's guess",
      }),
    ).map(([name, value]) => `${name}: ${value}`);
  return [
    // Headers of a body as large as the route takes, then nothing.
    keepRunning(24, async () => {
      const route = pick(BODY_ROUTES);
      await rawRequest(port, {
        attack: "idle bodies",
        localAddress: attackerAddress(10, 20),
        head: postHead(route, route.capBytes),
      });
    }),
    // A byte every half second: far below the minimum rate.
    keepRunning(12, async () => {
      const route = pick(BODY_ROUTES);
      await rawRequest(port, {
        attack: "trickled bodies",
        localAddress: attackerAddress(10, 20),
        head: postHead(route, Math.min(route.capBytes, 100_000)),
        send: dripper(100_000, 1, 500),
      });
    }),
    // Part of the body, then the connection goes.
    keepRunning(6, async () => {
      const route = pick(BODY_ROUTES);
      const size = Math.min(route.capBytes, 60_000);
      await rawRequest(port, {
        attack: "partial bodies",
        localAddress: attackerAddress(10, 20),
        head: postHead(route, size),
        send: dripper(size / 2, size / 2, 50),
        closeAfterSend: true,
      });
    }),
    // Floods of connections that never finish their headers.
    keepRunning(1, async () => {
      await Promise.all(
        Array.from({ length: 150 }, () =>
          rawRequest(port, {
            attack: "many connections",
            localAddress: attackerAddress(30, 10),
            head: [`POST ${pick(ROUTES).path} HTTP/1.1`, "Host: 127.0.0.1"],
            endHeaders: false,
            send: () => sleep(1_500),
            closeAfterSend: true,
          }),
        ),
      );
    }),
    // Bodies at full speed that fill the general part of the budget, from eight addresses.
    keepRunning(8, async () => {
      await rawRequest(port, {
        attack: "budget fillers",
        localAddress: attackerAddress(40, 8),
        head: postHead(ROUTES[0]!, 8 * MiB),
        send: dripper(8 * MiB, 512 * 1024, 250),
      });
    }),
    // Shopify's headers with a wrong HMAC: whole bodies, and large ones held at a fast rate
    // from one address, which may take only its share of the reserve.
    keepRunning(4, async () => {
      await rawRequest(port, {
        attack: "forged HMAC",
        localAddress: attackerAddress(50, 5),
        head: [...postHead(ROUTES[0]!, Buffer.byteLength(orderBody)), ...forgedHeaders(orderBody)],
        send: async (socket) => void socket.write(orderBody),
      });
    }),
    keepRunning(4, async () => {
      await rawRequest(port, {
        attack: "forged HMAC, held bodies",
        localAddress: "127.0.0.60",
        head: [...postHead(ROUTES[0]!, 8 * MiB), ...forgedHeaders(orderBody)],
        send: dripper(8 * MiB, 256 * 1024, 250),
      });
    }),
    // Forwarding headers that name whoever the attacker likes, on the routes that limit by visitor.
    keepRunning(4, async () => {
      const forwarded = `X-Forwarded-For: 203.0.113.${Math.floor(random() * 250)}, 10.0.0.1`;
      const target = pick([
        `/proxy/plans?shop=${SHOP}&variant_id=1&signature=${createHash("sha256").update(randomUUID()).digest("hex")}`,
        "/api/checkout/protection-link?order_id=1",
        "/api/customer-account/protection-link?order_id=1",
      ]);
      await rawRequest(port, {
        attack: "forged X-Forwarded-For",
        localAddress: attackerAddress(10, 20),
        head: [
          `GET ${target} HTTP/1.1`,
          "Host: 127.0.0.1",
          `Authorization: Bearer ${randomBytes(48).toString("base64url")}`,
          forwarded,
          "Connection: close",
        ],
      });
    }),
    // Headers over Node's 16 KiB limit.
    keepRunning(2, async () => {
      await rawRequest(port, {
        attack: "huge headers",
        localAddress: attackerAddress(10, 20),
        head: [...postHead(pick(BODY_ROUTES), 2), `X-Padding: ${"a".repeat(20_000)}`],
        send: async (socket) => void socket.write("{}"),
      });
    }),
    // Bodies declared over their route's cap, and chunked ones.
    keepRunning(2, async () => {
      const route = pick(BODY_ROUTES);
      await rawRequest(port, {
        attack: "oversized bodies",
        localAddress: attackerAddress(10, 20),
        head: postHead(route, route.capBytes + 1),
      });
      await rawRequest(port, {
        attack: "chunked bodies",
        localAddress: attackerAddress(10, 20),
        head: [`POST ${route.path} HTTP/1.1`, "Host: 127.0.0.1", "Transfer-Encoding: chunked"],
        send: async (socket) => void socket.write("2\r\n{}\r\n0\r\n\r\n"),
      });
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Shopify and the load balancer, meanwhile

async function sendSigned(
  port: number,
  apiSecret: string,
  delivery: { body: string; webhookId: string; resend: boolean },
): Promise<SignedDelivery> {
  const started = performance.now();
  let status = 0;
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/webhooks/orders/create`, {
      method: "POST",
      headers: shopifyWebhookHeaders({
        topic: "orders/create",
        shop: SHOP,
        body: delivery.body,
        secret: apiSecret,
        webhookId: delivery.webhookId,
      }),
      body: delivery.body,
      signal: AbortSignal.timeout(5_000),
    });
    await answer.arrayBuffer();
    status = answer.status;
  } catch {
    // No answer within 5 s, or the connection failed: status 0.
  }
  return {
    webhookId: delivery.webhookId,
    status,
    ms: performance.now() - started,
    resend: delivery.resend,
  };
}

async function checkHealth(port: number): Promise<HealthCheck> {
  const started = performance.now();
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`, {
      signal: AbortSignal.timeout(5_000),
    });
    await answer.arrayBuffer();
    return { status: answer.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

// ---------------------------------------------------------------------------------------------
// The run

async function main(): Promise<number> {
  const durationMs = positiveInteger("duration-s", options["duration-s"], 5) * 1000;
  ensureBuild(ROOT, say);

  const database = await createThrowawayDatabase("sqlite");
  onCleanUp(() => database.drop());
  await migrateDatabase(database.url);
  const db = createPrismaClient(database.url);
  onCleanUp(() => db.$disconnect());
  const encryptionKey = randomBytes(32).toString("base64");
  const apiSecret = randomBytes(24).toString("hex");
  const box = createSecretBox([Buffer.from(encryptionKey, "base64")]);
  await saveConnectionKeys(db, box, SHOP, {
    environment: "sandbox",
    sandboxSecretKey: "sk_test_svc_edge_chaos",
  });

  const port = await freePort();
  const logDir = mkdtempSync(path.join(os.tmpdir(), "svc-chaos-edge-"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    SHOPIFY_API_KEY: "svc-chaos-edge-client-id",
    SHOPIFY_API_SECRET: apiSecret,
    // No load balancer in front to see /readyz turn 503: a stop need not wait for one.
    SVC_SHUTDOWN_DELAY_MS: "0",
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database.url,
    SVC_ENCRYPTION_KEY: encryptionKey,
    // Nothing is sent to the service: the outbox worker is off.
    SVC_BASE_URL: "http://127.0.0.1:9/",
    SVC_OUTBOX_WORKER: "off",
  };
  const base = { env, port, logDir };
  const web = spawnWeb(base, 0);
  onCleanUp(() => web.stop().then(() => undefined));
  await waitForHealthy(port, web, 120_000, logDir);
  const serverPid = servingPid(web);
  say(
    `server on port ${port} (pid ${serverPid}), logs in ${logDir}; attacking for ${durationMs / 1000} s`,
  );

  const orderFixture = readFileSync(
    path.join(ROOT, "test/fixtures/lifecycle/orders-create.json"),
    "utf8",
  );
  const attacking = attackers(port, orderFixture);

  const deliveries: Promise<SignedDelivery>[] = [];
  const health: Promise<HealthCheck>[] = [];
  const sent: { body: string; webhookId: string }[] = [];
  let nextOrderId = 27_000_000;
  const started = performance.now();
  let tick = 0;
  while (performance.now() - started < durationMs) {
    await sleep(250);
    tick += 1;
    // Four new deliveries a second, and now and then one of them again, as Shopify re-sends.
    const body = orderFixture.replace(/"id":\s*\d+/, `"id": ${nextOrderId++}`);
    const delivery = { body, webhookId: randomUUID() };
    sent.push(delivery);
    deliveries.push(sendSigned(port, apiSecret, { ...delivery, resend: false }));
    if (tick % 5 === 0)
      deliveries.push(sendSigned(port, apiSecret, { ...pick(sent), resend: true }));
    if (tick % 2 === 0) health.push(checkHealth(port));
    if (tick % 40 === 0)
      say(`${Math.round((performance.now() - started) / 1000)} s: ${JSON.stringify(attacks)}`);
  }
  stopping = true;
  for (const socket of openSockets) socket.destroy();
  await Promise.all(attacking);
  const signed = await Promise.all(deliveries);
  const checks = await Promise.all(health);
  const after = await checkHealth(port);
  const serverAlive =
    after.status === 200 && web.exitCode() === undefined && servingPid(web) === serverPid;
  const peak = peakRssBytes(serverPid);

  const rows = await db.webhookReceipt.groupBy({
    by: ["webhookId"],
    where: { shop: SHOP },
    _count: { _all: true },
  });
  const receipts = new Map(rows.map((row) => [row.webhookId, row._count._all]));

  console.log("");
  console.log(
    `Edge chaos run: ${durationMs / 1000} s, seed ${options.seed}, the default limits of npm start, SQLite`,
  );
  console.log(`Server peak RSS: ${Math.round(peak / MiB)} MiB`);
  console.log("Attacks (status: count; 0 = closed without an answer, -1 = could not connect):");
  for (const [attack, outcomes] of Object.entries(attacks)) {
    console.log(`  - ${attack}: ${JSON.stringify(outcomes)}`);
  }
  const verdict = judgeEdge({ deliveries: signed, health: checks, receipts, attacks, serverAlive });
  console.log("");
  for (const check of verdict) {
    console.log(
      `${check.ok ? "PASS" : "FAIL"}  ${check.name}${check.ok || !check.detail ? "" : ` — ${check.detail}`}`,
    );
  }
  const failed = verdict.filter((check) => !check.ok).length;
  console.log(`\n${verdict.length - failed} passed, ${failed} failed`);
  if (failed) console.log(`Logs of the web server: ${logDir}`);
  return failed ? 1 : 0;
}

await runChaos("Edge chaos run", main);
