import { readFileSync } from "node:fs";
import path from "node:path";
import { readLifecycleFixture } from "../../test/fixtures/lifecycle/lifecycle";
import { shopifyFixturesDir } from "../../test/support/test-env";

/*
 * What the chaos run plays as Shopify, decided from the seed alone: each order's five webhooks
 * (placed, fulfilled, refunded, a line cancelled by an order edit, cancelled), made from the real
 * fixtures with IDs of its own, then duplicated and reordered, and interleaved with the other
 * orders. No I/O beyond reading the fixtures, so a seed always gives the same deliveries.
 */

export type EventType =
  | "order_placed"
  | "order_fulfillment_added"
  | "order_refund_added"
  | "order_line_items_cancelled"
  | "order_cancelled";

export const LIFECYCLE_EVENT_TYPES: readonly EventType[] = [
  "order_placed",
  "order_fulfillment_added",
  "order_refund_added",
  "order_line_items_cancelled",
  "order_cancelled",
];

export type WebhookTopic =
  "orders/create" | "fulfillments/create" | "refunds/create" | "orders/edited" | "orders/cancelled";

/** Each topic of the lifecycle and the one service event it must become (decision 007). */
const LIFECYCLE: readonly (readonly [WebhookTopic, EventType])[] = [
  ["orders/create", "order_placed"],
  ["fulfillments/create", "order_fulfillment_added"],
  ["refunds/create", "order_refund_added"],
  ["orders/edited", "order_line_items_cancelled"],
  ["orders/cancelled", "order_cancelled"],
];

export interface Delivery {
  /** Position in the sending order. */
  index: number;
  orderId: string;
  topic: WebhookTopic;
  body: string;
  /** X-Shopify-Webhook-Id: a duplicate delivery repeats it, as Shopify's retries do. */
  webhookId: string;
  eventId: string;
  duplicate: boolean;
  /** A follow-up sent before its order's orders/create. */
  early: boolean;
}

export interface Scenario {
  seed: number;
  orderIds: string[];
  deliveries: Delivery[];
  duplicates: number;
  early: number;
}

/** mulberry32: small, fast and good enough to pick delays and coin flips from a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The IDs the lifecycle fixtures share (test/fixtures/lifecycle/README.md). */
const FIXTURE_IDS = {
  order: "5558016491833",
  lines: ["13610349347129", "13610349379897", "13610349412665"],
  fulfillment: "4890813137209",
  refund: "1030411976761",
} as const;

interface FixtureTexts {
  ordersCreate: string;
  fulfillmentsCreate: string;
  refundsCreate: string;
  ordersCancelled: string;
  ordersEdited: string;
}

function readFixtures(): FixtureTexts {
  return {
    ordersCreate: readLifecycleFixture("orders-create.json"),
    fulfillmentsCreate: readLifecycleFixture("fulfillments-create.json"),
    refundsCreate: readLifecycleFixture("refunds-create.json"),
    ordersCancelled: readLifecycleFixture("orders-cancelled.json"),
    ordersEdited: readFileSync(
      path.join(shopifyFixturesDir, "orders_edited", "shopify-docs-2026-04_gadget.json"),
      "utf8",
    ),
  };
}

function replaceIds(text: string, replacements: Map<string, string>): string {
  let result = text;
  for (const [from, to] of replacements) {
    result = result.replace(new RegExp(`(?<!\\d)${from}(?!\\d)`, "g"), to);
  }
  return result;
}

/** Order n's webhook bodies: the fixtures with every shared ID replaced by one of its own. */
function lifecycleBodies(fixtures: FixtureTexts, n: number): Record<WebhookTopic, string> {
  const orderId = String(7_100_000_000_000 + n * 10);
  const lineIds = FIXTURE_IDS.lines.map((_, k) => String(8_100_000_000_000 + n * 10 + k));
  const ids = new Map<string, string>([
    [FIXTURE_IDS.order, orderId],
    ...FIXTURE_IDS.lines.map((line, k) => [line, lineIds[k]!] as [string, string]),
    [FIXTURE_IDS.fulfillment, String(9_100_000_000_000 + n)],
    [FIXTURE_IDS.refund, String(9_200_000_000_000 + n)],
  ]);
  // The docs' edit adds one line and removes another order's line; ours removes the plan line
  // (the customer dropped the protection before it shipped), which the service knows.
  const edit = JSON.parse(fixtures.ordersEdited) as {
    order_edit: Record<string, unknown> & { line_items: Record<string, unknown> };
  };
  edit.order_edit.id = 9_300_000_000_000 + n;
  edit.order_edit.order_id = Number(orderId);
  edit.order_edit.line_items = { additions: [], removals: [{ id: Number(lineIds[2]), delta: 1 }] };
  return {
    "orders/create": replaceIds(fixtures.ordersCreate, ids),
    "fulfillments/create": replaceIds(fixtures.fulfillmentsCreate, ids),
    "refunds/create": replaceIds(fixtures.refundsCreate, ids),
    "orders/edited": JSON.stringify(edit),
    "orders/cancelled": replaceIds(fixtures.ordersCancelled, ids),
  };
}

export function orderIdOf(n: number): string {
  return String(7_100_000_000_000 + n * 10);
}

export interface ScenarioOptions {
  orders: number;
  seed: number;
  /** Share of deliveries Shopify sends twice. */
  duplicateRate?: number;
  /** Share of orders with one follow-up sent before orders/create. */
  earlyRate?: number;
}

/**
 * Orders start one "tick" apart (with jitter) and their webhooks follow 0.5 to 4 ticks apart,
 * so each order's lifecycle overlaps a handful of others, as in a busy shop.
 */
export function buildScenario(options: ScenarioOptions): Scenario {
  const random = seededRandom(options.seed);
  const duplicateRate = options.duplicateRate ?? 0.1;
  const earlyRate = options.earlyRate ?? 0.1;
  const fixtures = readFixtures();
  const timed: { at: number; delivery: Omit<Delivery, "index"> }[] = [];
  let duplicates = 0;
  let early = 0;
  for (let n = 0; n < options.orders; n += 1) {
    const orderId = orderIdOf(n);
    const bodies = lifecycleBodies(fixtures, n);
    const start = n + random() * 2;
    const times = [start];
    for (let step = 1; step < LIFECYCLE.length; step += 1) {
      times.push(times[step - 1]! + 0.5 + random() * 3.5);
    }
    if (random() < earlyRate) {
      const step = 1 + Math.floor(random() * (LIFECYCLE.length - 1));
      times[step] = start - 0.1 - random();
      early += 1;
    }
    LIFECYCLE.forEach(([topic], step) => {
      const delivery = {
        orderId,
        topic,
        body: bodies[topic],
        webhookId: uuidFrom(random),
        eventId: uuidFrom(random),
        duplicate: false,
        early: times[step]! < start,
      };
      timed.push({ at: times[step]!, delivery });
      if (random() < duplicateRate) {
        timed.push({ at: times[step]! + random() * 6, delivery: { ...delivery, duplicate: true } });
        duplicates += 1;
      }
    });
  }
  const deliveries = timed
    .map((entry, position) => ({ ...entry, position }))
    .sort((a, b) => a.at - b.at || a.position - b.position)
    .map(({ delivery }, index) => ({ ...delivery, index }));
  return {
    seed: options.seed,
    orderIds: Array.from({ length: options.orders }, (_, n) => orderIdOf(n)),
    deliveries,
    duplicates,
    early,
  };
}
