import type { OutboxStatus } from "../models/outbox-status";
import type { ServiceResult } from "../protection/results";
import type {
  AvailablePlan,
  CheckoutInformation,
  CheckoutType,
  Environment,
} from "../protection/types";

/*
 * The post-purchase links (issue 19, decision 034): from what the app knows of an order's
 * placement, the merchant's switch and the service's answer to the answer the extensions get
 * (decision 034, "The answers"). Pure, so every branch is tested as a plain function.
 */

export type LinkErrorCode = "service_unavailable" | "service_timeout";

export type LinkAnswer =
  | { status: "ready"; link: string; available_plans: AvailablePlan[] }
  | { status: "none" }
  | { status: "not_yet"; retry_after_ms: number }
  | { status: "error"; error: { code: LinkErrorCode; message: string } };

/** How long the extension waits before it asks again while the placement is on its way. */
export const RETRY_AFTER_MS = 1_500;

/** A `ready` link is kept this long per shop, environment, order and checkout type. */
export const READY_TTL_MS = 10 * 60_000;
/** A `none` (the service's 404) is kept briefly: a later placement or catalogue may change it. */
export const NONE_TTL_MS = 30_000;

/**
 * The Thank-you page is shown right after checkout: its token (which names a shop, never an
 * order) only reaches orders placed this recently, so that it cannot walk the shop's old orders.
 */
export const THANK_YOU_WINDOW_MS = 60 * 60_000;

const ORDER_GID = /^gid:\/\/shopify\/(?:Order|OrderIdentity)\/([1-9]\d{0,19})$/;
const ORDER_NUMBER = /^[1-9]\d{0,19}$/;

export type ParsedOrderId = { ok: true; orderId: string } | { ok: false; message: string };

/** `order_id`: an Order or OrderIdentity GID, or the bare number; the numeric ID either way. */
export function parseOrderId(value: string | null): ParsedOrderId {
  if (value === null || value.trim() === "") {
    return { ok: false, message: "order_id is required" };
  }
  const gid = ORDER_GID.exec(value);
  if (gid?.[1]) return { ok: true, orderId: gid[1] };
  if (ORDER_NUMBER.test(value)) return { ok: true, orderId: value };
  return {
    ok: false,
    message:
      "order_id must be an order's ID: gid://shopify/Order/<number>, gid://shopify/OrderIdentity/<number> or the number",
  };
}

const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/([1-9]\d{0,19})$/;

/**
 * Whether a customer account token's `sub` (`gid://shopify/Customer/<number>`) is the order's
 * customer, as orders/create named it. No recorded customer (a guest, a recovered order, one
 * redacted) matches nobody: the Order status page fails closed.
 */
export function isOrderCustomer(sub: string | undefined, orderCustomerId: string | null): boolean {
  if (sub === undefined || orderCustomerId === null) return false;
  const id = CUSTOMER_GID.exec(sub)?.[1];
  return id !== undefined && id === orderCustomerId;
}

/** What the app knows of the order's placement in this shop. */
export type Placement =
  /**
   * The order's `order_placed` row: its status, environment, when the order was placed and its
   * customer's ID (null when none is recorded).
   */
  | {
      kind: "recorded";
      status: OutboxStatus;
      environment: Environment;
      placedAt: Date;
      customerId: string | null;
    }
  /** orders/create came, but its placement is not reported (no plan and the setting off). */
  | { kind: "not_reported" }
  /** Nothing recorded yet: what Shopify says of the order (this shop's, placed when). */
  | { kind: "unrecorded"; shopify: { exists: true; placedAt: Date } | { exists: false } }
  /** Nothing recorded, and Shopify could not be asked: fail closed. */
  | { kind: "unchecked" }
  /**
   * Nothing recorded, and Shopify not asked: the Order status page can only match its customer
   * on a recorded order (decision 043), so it spends none of the shop's Admin API.
   */
  | { kind: "unasked" };

export type Surface = "thank_you" | "order_status" | "admin";

export interface LinkInput {
  placement: Placement;
  surface: Surface;
  /** The merchant's switch for the buyer's self-service link; the admin's guided link has none. */
  selfServiceLink: boolean;
  /** The customer account token's `sub`: the Order status page's link is its customer's only. */
  customer?: string;
  now: Date;
}

export type LinkStep =
  | { kind: "answer"; answer: LinkAnswer; reason: string }
  | { kind: "ask_service"; environment: Environment; checkoutType: CheckoutType };

export const checkoutTypeOf = (surface: Surface): CheckoutType =>
  surface === "admin" ? "assist" : "redirect";

const none = (reason: string): LinkStep => ({ kind: "answer", answer: { status: "none" }, reason });
const notYet = (reason: string): LinkStep => ({
  kind: "answer",
  answer: { status: "not_yet", retry_after_ms: RETRY_AFTER_MS },
  reason,
});

/** Whether to ask the service for the link, or the answer without asking (spec rule 4). */
export function decideLinkStep(input: LinkInput): LinkStep {
  const { placement, surface } = input;
  if (surface !== "admin" && !input.selfServiceLink) {
    return none("the merchant switched the self-service link off");
  }
  switch (placement.kind) {
    case "not_reported":
      return none("the order's placement is not reported");
    case "unchecked":
      return none("nothing is recorded for the order and Shopify could not be asked");
    case "unasked":
      return none("nothing is recorded for the order: its customer cannot be matched");
    case "unrecorded": {
      // Whether Shopify knows the order is not for a customer who may not be its own (decision 043).
      if (surface === "order_status") {
        return none("nothing is recorded for the order: its customer cannot be matched");
      }
      if (!placement.shopify.exists) return none("the order is not this shop's");
      if (!withinWindow(surface, placement.shopify.placedAt, input.now)) {
        return none("the order was placed too long ago for the Thank-you page");
      }
      return notYet("the order's placement is not recorded yet");
    }
    case "recorded": {
      // Before the status: another customer learns nothing of the order, not even "wait".
      if (surface === "order_status" && !isOrderCustomer(input.customer, placement.customerId)) {
        return none("the order is not the signed-in customer's, or its customer is not recorded");
      }
      if (!withinWindow(surface, placement.placedAt, input.now)) {
        return none("the order was placed too long ago for the Thank-you page");
      }
      switch (placement.status) {
        case "delivered":
          return {
            kind: "ask_service",
            environment: placement.environment,
            checkoutType: checkoutTypeOf(surface),
          };
        case "pending":
        case "delivering":
        case "failed":
          return notYet(`the order's placement is ${placement.status}, not delivered yet`);
        case "dead":
        case "unprocessable":
          return none(`the order's placement is ${placement.status}`);
      }
    }
  }
}

function withinWindow(surface: Surface, placedAt: Date, now: Date): boolean {
  if (surface !== "thank_you") return true;
  return now.getTime() - placedAt.getTime() <= THANK_YOU_WINDOW_MS;
}

/** The service's answer as the extension's answer, and how long it may be kept (0: not at all). */
export function linkAnswerOf(
  result: ServiceResult<CheckoutInformation>,
  checkoutType: CheckoutType,
): { answer: LinkAnswer; ttlMs: number } {
  if (result.kind === "success") {
    const link = checkoutType === "redirect" ? result.data.redirect_link : result.data.assist_link;
    if (!link || !/^https?:\/\//.test(link)) {
      return linkError(
        "service_unavailable",
        `The service answered without a usable ${checkoutType}_link`,
      );
    }
    return {
      answer: { status: "ready", link, available_plans: result.data.available_plans },
      ttlMs: READY_TTL_MS,
    };
  }
  if (result.kind === "not_found") return { answer: { status: "none" }, ttlMs: NONE_TTL_MS };
  if (result.kind === "retryable" && result.reason === "timeout") {
    return linkError("service_timeout", "The protection service did not answer in time");
  }
  return linkError("service_unavailable", "The protection service could not give the link");
}

function linkError(code: LinkErrorCode, message: string) {
  return { answer: { status: "error", error: { code, message } } as LinkAnswer, ttlMs: 0 };
}

/** The HTTP status of an answer (contract): 202 while waiting, 504/502 for the service's failures. */
export function httpStatusOf(answer: LinkAnswer): number {
  switch (answer.status) {
    case "ready":
    case "none":
      return 200;
    case "not_yet":
      return 202;
    case "error":
      return answer.error.code === "service_timeout" ? 504 : 502;
  }
}
