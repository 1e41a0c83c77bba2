import type { z } from "zod";
import { DEFAULT_ENDPOINT_PATHS, serviceBaseUrl } from "./config";
import type { EndpointPaths } from "./config";
import { parseRetryAfter } from "./results";
import type { ServiceFailure, ServiceResult } from "./results";
import {
  cartCheckoutConfirmationSchema,
  cartUpdateResponseSchema,
  checkoutInformationSchema,
  eventAcceptedSchema,
  planLookupResponseSchema,
  serviceErrorBodySchema,
} from "./schemas";
import { API_VERSIONS, ENVIRONMENTS } from "./types";
import type {
  ApiVersion,
  CartCheckoutConfirmation,
  CartUpdateRequest,
  CartUpdateResponse,
  CheckoutInformation,
  CheckoutQuery,
  Environment,
  EventReceipt,
  OrderEvent,
  PlanLookupQuery,
  PlanLookupResponse,
} from "./types";

export type ProtectionClientOptions = {
  /** `{base_url}`, the production address; the sandbox address is derived from it. */
  baseUrl: string;
  environment: Environment;
  /** The secret key of `environment` (sandbox key or live key). */
  secretKey: string;
  apiVersion: ApiVersion;
  timeoutMs: number;
  paths?: EndpointPaths;
  fetch?: typeof fetch;
};

export type ProtectionClient = {
  readonly environment: Environment;
  /** The address calls go to, e.g. "https://api.example.com/sandbox/". Holds no secret. */
  readonly serviceUrl: string;
  reportCartUpdate(request: CartUpdateRequest): Promise<ServiceResult<CartUpdateResponse>>;
  /** `idempotencyKey` goes out as the `Idempotency-Key` header, as for an order event. */
  confirmCartCheckout(
    confirmation: CartCheckoutConfirmation,
    options?: { idempotencyKey?: string },
  ): Promise<ServiceResult<CartCheckoutConfirmation>>;
  /**
   * Any 2xx is acceptance (spec: "Each accepted event returns event_id"): an answer without a
   * usable `event_id` is still delivered, with `event_id` null and the raw body kept.
   * `idempotencyKey` goes out as the `Idempotency-Key` header, the same on every retry.
   */
  sendOrderEvent(
    event: OrderEvent,
    options?: { idempotencyKey?: string },
  ): Promise<ServiceResult<EventReceipt>>;
  lookupPlans(query: PlanLookupQuery): Promise<ServiceResult<PlanLookupResponse>>;
  getCheckout(query: CheckoutQuery): Promise<ServiceResult<CheckoutInformation>>;
};

type ServiceRequest = {
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
};

/** Reads a 2xx answer's body; the schema reader for most calls, a lenient one for events. */
type SuccessReader<T> = (status: number, text: string, label: string) => ServiceResult<T>;

/** The most of an answer body kept with an event, for the event log. */
const MAX_KEPT_ANSWER_CHARS = 4_000;

const REDACTED = "[redacted]";

/**
 * Builds a client for one environment. Configuration mistakes throw here, at startup;
 * every call afterwards resolves to a ServiceResult and never throws for a service or
 * network failure. The client does not log.
 */
export function createProtectionClient(options: ProtectionClientOptions): ProtectionClient {
  const { environment, secretKey, apiVersion, timeoutMs } = options;
  if (!ENVIRONMENTS.includes(environment)) {
    throw new Error(
      `Cannot create protection client: unknown environment "${String(environment)}"`,
    );
  }
  if (!API_VERSIONS.includes(apiVersion)) {
    throw new Error(`Cannot create protection client: unknown API version "${String(apiVersion)}"`);
  }
  // The message names the problem only: the key itself must never reach a log.
  if (typeof secretKey !== "string" || secretKey.length === 0) {
    throw new Error(`Cannot create protection client for ${environment}: the secret key is empty`);
  }
  if (!/^[\x21-\x7e]+$/.test(secretKey)) {
    throw new Error(
      `Cannot create protection client for ${environment}: the secret key contains whitespace or characters not allowed in a header`,
    );
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error(`Cannot create protection client: timeoutMs must be a positive number`);
  }

  const serviceUrl = serviceBaseUrl(options.baseUrl, environment);
  const paths: EndpointPaths = { ...DEFAULT_ENDPOINT_PATHS, ...options.paths };
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function call<T>(
    request: ServiceRequest,
    read: z.ZodType<T> | SuccessReader<T>,
  ): Promise<ServiceResult<T>> {
    const reader: SuccessReader<T> =
      typeof read === "function"
        ? read
        : (status, text, label) => parseSuccess(status, text, read, label);
    const result = await send(request, reader);
    return redactSecret(result, secretKey);
  }

  async function send<T>(
    request: ServiceRequest,
    readSuccess: SuccessReader<T>,
  ): Promise<ServiceResult<T>> {
    const url = new URL(request.path, serviceUrl);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const label = `${request.method} ${url.pathname}`;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${secretKey}`,
      "Svc-Version": apiVersion,
      Accept: "application/json",
      ...request.headers,
    };
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (body !== undefined) headers["Content-Type"] = "application/json";

    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        method: request.method,
        headers,
        body,
        signal,
        // A redirect would carry the key to another address; treat it as an answer instead.
        redirect: "manual",
      });
      // Reading the body is covered by the same timeout.
      text = await response.text();
    } catch (error) {
      if (signal.aborted || isTimeoutError(error)) {
        return {
          kind: "retryable",
          reason: "timeout",
          message: `${label}: no complete answer within ${timeoutMs} ms`,
        };
      }
      return {
        kind: "retryable",
        reason: "network",
        message: `${label}: request failed (${describeNetworkError(error)})`,
      };
    }

    if (response.status >= 200 && response.status < 300) {
      return readSuccess(response.status, text, label);
    }
    return failureFromStatus(response, text, label);
  }

  return {
    environment,
    serviceUrl,
    reportCartUpdate: (request) =>
      call({ method: "POST", path: "cart_updates", body: request }, cartUpdateResponseSchema),
    confirmCartCheckout: (confirmation, sendOptions = {}) =>
      call(
        {
          method: "POST",
          path: paths.cartCheckout,
          body: confirmation,
          ...idempotencyHeader(sendOptions.idempotencyKey),
        },
        cartCheckoutConfirmationSchema,
      ),
    sendOrderEvent: (event, sendOptions = {}) =>
      call(
        {
          method: "POST",
          path: paths.events,
          body: event,
          ...idempotencyHeader(sendOptions.idempotencyKey),
        },
        readEventAnswer,
      ),
    lookupPlans: (query) =>
      call(
        {
          method: "GET",
          path: "plans",
          query: {
            product_id: query.product_id,
            product_title: query.product_title,
            product_brand: query.product_brand,
            product_category: query.product_category,
            price_amount: query.price_amount,
            price_currency: query.price_currency,
            user_session_id: query.user_session_id,
          },
        },
        planLookupResponseSchema,
      ),
    getCheckout: (query) =>
      call(
        {
          method: "GET",
          path: "checkouts",
          query: { order_id: query.order_id, checkout_type: query.checkout_type },
        },
        checkoutInformationSchema,
      ),
  };
}

function idempotencyHeader(key: string | undefined): Pick<ServiceRequest, "headers"> {
  return key ? { headers: { "Idempotency-Key": key } } : {};
}

/**
 * A 2xx to an order event: accepted, whatever its body. The service has the event, so sending it
 * again would make a duplicate; an answer without `event_id` only means we cannot show its ID.
 */
function readEventAnswer(status: number, text: string): ServiceResult<EventReceipt> {
  let eventId: string | null = null;
  try {
    const parsed = eventAcceptedSchema.safeParse(JSON.parse(text));
    if (parsed.success) eventId = parsed.data.event_id;
  } catch {
    // Not JSON: kept as text below.
  }
  return {
    kind: "success",
    status,
    data: { event_id: eventId, body: text.slice(0, MAX_KEPT_ANSWER_CHARS) },
  };
}

function parseSuccess<T>(
  status: number,
  text: string,
  schema: z.ZodType<T>,
  label: string,
): ServiceResult<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      kind: "retryable",
      reason: "invalid_response",
      status,
      message: `${label} answered ${status} with a body that is not JSON`,
    };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
      .join("; ");
    return {
      kind: "retryable",
      reason: "invalid_response",
      status,
      message: `${label} answered ${status} with an unexpected body (${problems})`,
    };
  }
  return { kind: "success", status, data: parsed.data };
}

function failureFromStatus(response: Response, text: string, label: string): ServiceFailure {
  const { status } = response;
  const { errorCode, validationErrors } = parseErrorBody(text);
  const codeSuffix = errorCode === undefined ? "" : ` ${errorCode}`;
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  const retryAfter = retryAfterMs === undefined ? {} : { retryAfterMs };

  if (status === 400) {
    return {
      kind: "validation_error",
      status: 400,
      errorCode: errorCode ?? "bad_request",
      validationErrors: validationErrors ?? [],
    };
  }
  if (status === 401) return { kind: "unauthorized", status: 401, errorCode };
  if (status === 404) return { kind: "not_found", status: 404, errorCode };
  const retry = retryableStatus(status);
  if (retry) {
    return {
      kind: "retryable",
      reason: retry.reason,
      status,
      ...retryAfter,
      message: `${label} answered ${status}${codeSuffix}${retry.explanation}`,
    };
  }
  const note = status >= 300 && status < 400 ? " (redirects are not followed)" : "";
  return {
    kind: "rejected",
    status,
    errorCode,
    message: `${label} answered ${status}${codeSuffix}${note}`,
  };
}

/** The statuses a later send may get past: why, and what the log adds to the status. */
function retryableStatus(status: number) {
  if (status === 408) {
    return {
      reason: "timeout",
      explanation: ": the service timed out reading the request",
    } as const;
  }
  if (status === 429) return { reason: "rate_limited", explanation: ": rate limited" } as const;
  if (status >= 500 && status < 600) return { reason: "server_error", explanation: "" } as const;
  return null;
}

function parseErrorBody(text: string): { errorCode?: string; validationErrors?: unknown[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  const parsed = serviceErrorBodySchema.safeParse(json);
  if (!parsed.success) return {};
  return {
    errorCode: parsed.data.error.error_code,
    validationErrors: parsed.data.error.validation_errors,
  };
}

function isTimeoutError(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}

/** Replaces the key wherever an answer echoed it (error bodies, messages, data). */
function redactSecret<T>(result: ServiceResult<T>, secret: string): ServiceResult<T> {
  return redactValue(result, secret) as ServiceResult<T>;
}

function redactValue(value: unknown, secret: string): unknown {
  if (typeof value === "string") return value.split(secret).join(REDACTED);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key.split(secret).join(REDACTED),
        redactValue(item, secret),
      ]),
    );
  }
  return value;
}
