// The app's answer about an order's protection link (the buyer routes, and the admin route's
// `guided_checkout`), read without trusting it: anything that is not exactly one of the
// contract's shapes is an error, so an extension never renders a half-understood answer.
// Pure: no fetch, no host API; the extensions and their tests share it.

export interface AvailablePlan {
  lineItemId: string;
  productReference: string;
  /** In the currency's minor unit (cents), as the service sends it. */
  planPriceAmount: number;
  /** Lowercase ISO 4217, as the service sends it (`eur`). */
  planPriceCurrency: string;
}

export type LinkAnswer =
  | { status: "ready"; link: string; availablePlans: AvailablePlan[] }
  | { status: "none" }
  | { status: "not_yet"; retryAfterMs: number }
  | { status: "error"; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * An https link; or plain http to this machine, which only a local service (the emulator behind
 * the local store) gives, since it cannot serve TLS.
 */
function httpsUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    if (url.protocol === "https:") return value;
    return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname) ? value : null;
  } catch {
    return null;
  }
}

function planOf(value: unknown): AvailablePlan | null {
  if (!isRecord(value)) return null;
  const {
    line_item_id: lineItemId,
    product_reference: productReference,
    plan_price_amount: planPriceAmount,
    plan_price_currency: planPriceCurrency,
  } = value;
  if (typeof lineItemId !== "string" || typeof productReference !== "string") return null;
  if (typeof planPriceAmount !== "number" || !Number.isSafeInteger(planPriceAmount)) return null;
  if (planPriceAmount < 0) return null;
  if (typeof planPriceCurrency !== "string" || !/^[a-z]{3}$/i.test(planPriceCurrency)) return null;
  return { lineItemId, productReference, planPriceAmount, planPriceCurrency };
}

/**
 * The answer in a body the contract defines (a buyer route's body, or the admin route's
 * `guided_checkout`), whatever HTTP status carried it.
 */
export function linkAnswerOf(body: unknown): LinkAnswer {
  if (!isRecord(body)) return { status: "error", reason: "the body is not a JSON object" };
  switch (body.status) {
    case "ready": {
      const link = httpsUrl(body.link);
      if (link === null) return { status: "error", reason: "a ready answer without an https link" };
      const raw = body.available_plans ?? [];
      if (!Array.isArray(raw)) return { status: "error", reason: "available_plans is not a list" };
      const availablePlans = raw.map(planOf);
      if (availablePlans.some((plan) => plan === null)) {
        return { status: "error", reason: "an available plan is malformed" };
      }
      return { status: "ready", link, availablePlans: availablePlans as AvailablePlan[] };
    }
    case "none":
      return { status: "none" };
    case "not_yet": {
      const retryAfterMs = body.retry_after_ms;
      if (typeof retryAfterMs !== "number" || !Number.isFinite(retryAfterMs) || retryAfterMs < 0) {
        return { status: "error", reason: "a not_yet answer without retry_after_ms" };
      }
      return { status: "not_yet", retryAfterMs };
    }
    case "error": {
      const code = isRecord(body.error) ? body.error.code : undefined;
      return { status: "error", reason: typeof code === "string" ? code : "error" };
    }
    default:
      return { status: "error", reason: "an unknown status" };
  }
}

/**
 * A buyer route's HTTP answer: 200 carries `ready` or `none`, 202 carries `not_yet`; any
 * other status (400, 401, 5xx) or a status that does not match its body is an error.
 */
export function parseLinkAnswer(httpStatus: number, body: unknown): LinkAnswer {
  if (httpStatus !== 200 && httpStatus !== 202) {
    return { status: "error", reason: `HTTP ${httpStatus}` };
  }
  const answer = linkAnswerOf(body);
  if (answer.status === "error") return answer;
  const expected = answer.status === "not_yet" ? 202 : 200;
  if (httpStatus !== expected) {
    return { status: "error", reason: `HTTP ${httpStatus} with status ${answer.status}` };
  }
  return answer;
}

/** How long the extensions wait for an order's placement to reach the service, in all. */
export const RETRY_BUDGET_MS = 20_000;
/** Asks after the first, at most: with the contract's 1.5 s that is about 20 s. */
export const MAX_RETRIES = 13;
const MIN_RETRY_DELAY_MS = 250;
const MAX_RETRY_DELAY_MS = 5_000;

/**
 * When to ask again after a `not_yet`: the route's `retry_after_ms` kept within bounds (a
 * route's slip must neither spin the buyer's browser nor stall it), or null when the retries
 * or the time are used up and the extension renders nothing.
 * @param retriesSoFar asks made after the first one
 * @param elapsedMs time since the first ask started
 */
export function nextRetryDelayMs(
  retryAfterMs: number,
  retriesSoFar: number,
  elapsedMs: number,
): number | null {
  if (retriesSoFar >= MAX_RETRIES) return null;
  const delay = Math.min(Math.max(retryAfterMs, MIN_RETRY_DELAY_MS), MAX_RETRY_DELAY_MS);
  return elapsedMs + delay > RETRY_BUDGET_MS ? null : delay;
}

export interface PlanPrice {
  /** In the currency's major unit (19.99), as formatCurrency takes it. */
  amount: number;
  /** Uppercase ISO 4217 (`EUR`), as Intl takes it. */
  currency: string;
}

/** The minor unit digits of a currency (2 for EUR, 0 for JPY), from the runtime's Intl. */
function minorDigits(currency: string): number {
  return (
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/**
 * The lowest plan price among `plans`, or null when there is none, or when the plans are in
 * more than one currency (no price can honestly be called the lowest then).
 */
export function lowestPlanPrice(plans: readonly AvailablePlan[]): PlanPrice | null {
  const [first, ...rest] = plans;
  if (first === undefined) return null;
  const currency = first.planPriceCurrency.toUpperCase();
  if (rest.some((plan) => plan.planPriceCurrency.toUpperCase() !== currency)) return null;
  const cents = Math.min(...plans.map((plan) => plan.planPriceAmount));
  return { amount: cents / 10 ** minorDigits(currency), currency };
}
