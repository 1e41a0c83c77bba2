/*
 * The edge chaos run's verdict (decision 041): from what Shopify's signed deliveries and the
 * health checks were answered while the attackers ran, what the database stored, and what the
 * attackers got. Pure: the same inputs always give the same checks.
 */

/** A correctly signed delivery, as Shopify would send it, and its answer. */
export interface SignedDelivery {
  webhookId: string;
  /** 0 when the request failed or timed out without an answer. */
  status: number;
  ms: number;
  /** A second send of an earlier delivery (same webhook ID), as Shopify re-sends. */
  resend: boolean;
}

export interface HealthCheck {
  status: number;
  ms: number;
}

/** How many of each status (0: the connection closed without an answer) each attack got. */
export type AttackOutcomes = Record<string, Record<string, number>>;

export interface EdgeRun {
  deliveries: SignedDelivery[];
  health: HealthCheck[];
  /** Receipts stored per webhook ID of the signed deliveries. */
  receipts: ReadonlyMap<string, number>;
  attacks: AttackOutcomes;
  /** /healthz answered after the attacks stopped, and the server process never restarted. */
  serverAlive: boolean;
}

export interface EdgeCheck {
  name: string;
  ok: boolean;
  /** A few examples of what failed. */
  detail?: string;
}

export const ACCEPT_WITHIN_MS = 1_000;

/** Every attack that must have been refused in a named way, for the run to count. */
export const EXPECTED_REFUSALS: readonly { attack: string; status: number; why: string }[] = [
  { attack: "idle bodies", status: 408, why: "idle senders cut off after the rate window" },
  { attack: "trickled bodies", status: 408, why: "senders below the minimum rate cut off" },
  { attack: "forged HMAC", status: 401, why: "deliveries with a wrong HMAC refused" },
  { attack: "oversized bodies", status: 413, why: "declared bodies over the cap refused" },
  { attack: "huge headers", status: 431, why: "headers over Node's limit refused" },
];

function percentile(values: number[], share: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

function examples(items: string[]): string | undefined {
  if (!items.length) return undefined;
  return `${items.length}: ${items.slice(0, 5).join("; ")}${items.length > 5 ? "; …" : ""}`;
}

export function judgeEdge(run: EdgeRun): EdgeCheck[] {
  const late = run.deliveries
    .filter((delivery) => delivery.status !== 200 || delivery.ms > ACCEPT_WITHIN_MS)
    .map((delivery) => `${delivery.webhookId} ${delivery.status} in ${Math.round(delivery.ms)} ms`);
  // A delivery answered 200 is stored, once; one refused may be missing (Shopify sends it
  // again later), but none is ever stored twice.
  const ids = new Set(run.deliveries.map((delivery) => delivery.webhookId));
  const accepted = new Set(
    run.deliveries
      .filter((delivery) => delivery.status === 200)
      .map((delivery) => delivery.webhookId),
  );
  const notOnce = [...ids]
    .filter((id) => {
      const stored = run.receipts.get(id) ?? 0;
      return stored > 1 || (accepted.has(id) && stored !== 1);
    })
    .map((id) => `${id} stored ${run.receipts.get(id) ?? 0} times`);
  const unhealthy = run.health
    .filter((check) => check.status !== 200 || check.ms > ACCEPT_WITHIN_MS)
    .map((check) => `${check.status} in ${Math.round(check.ms)} ms`);
  const errors = Object.entries(run.attacks).flatMap(([attack, outcomes]) =>
    Object.entries(outcomes)
      .filter(([status]) => Number(status) >= 500 && Number(status) !== 503)
      .map(([status, count]) => `${attack}: ${count} × ${status}`),
  );
  const checks: EdgeCheck[] = [
    {
      name: `every signed delivery answered 200 within ${ACCEPT_WITHIN_MS} ms (${run.deliveries.length} sent, p99 ${Math.round(
        percentile(
          run.deliveries.map((delivery) => delivery.ms),
          0.99,
        ),
      )} ms)`,
      ok: run.deliveries.length > 0 && late.length === 0,
      detail: run.deliveries.length ? examples(late) : "none was sent",
    },
    {
      name: "every signed delivery answered 200 stored once, re-sends included, and none twice",
      ok: ids.size > 0 && notOnce.length === 0,
      detail: examples(notOnce),
    },
    {
      name: `/healthz answered 200 within ${ACCEPT_WITHIN_MS} ms every time (${run.health.length} checks)`,
      ok: run.health.length > 0 && unhealthy.length === 0,
      detail: examples(unhealthy),
    },
    { name: "the server stayed up", ok: run.serverAlive },
    {
      name: "no attack was answered with a server error other than 503",
      ok: errors.length === 0,
      detail: examples(errors),
    },
  ];
  for (const expected of EXPECTED_REFUSALS) {
    const count = run.attacks[expected.attack]?.[String(expected.status)] ?? 0;
    checks.push({
      name: `${expected.why} (${expected.attack}: ${count} × ${expected.status})`,
      ok: count > 0,
    });
  }
  return checks;
}
